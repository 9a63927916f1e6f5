package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01EventValidationSpecs are the cases of nip01/event-validation.
func nip01EventValidationSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/event/1", framework.MUST,
			"An event whose signature does not verify is refused (OK false) and has no effect.",
			"nip01/event-validation.1", "labels/events.2", "nip01/ok-prefix.1"),
			Run: func(t *framework.T) {
				t.Checking("nip01/event-validation.1")
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ch := t.NewGroupID()
				ev := fixtures.CreateGroup(a, ch)
				sig := []byte(ev.Sig)
				sig[10] = flipHex(sig[10])
				ev.Sig = string(sig)
				ok := t.Reject(c, ev, "", "create with a corrupted signature")
				noteInvalid(t, ok)
				t.QueryAbsent(c, "no group from a badly signed create", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
			}},
		{Case: framework.NewCase("base/event/2", framework.MUST,
			"An event whose id is not the hash of its content is refused (OK false).",
			"nip01/event-validation.2", "labels/events.2", "nip01/ok-prefix.1"),
			Run: func(t *framework.T) {
				t.Checking("nip01/event-validation.2")
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(a, t.NewGroupID())
				ev.Content = "tampered after signing"
				noteInvalid(t, t.Reject(c, ev, "", "create whose content changed after signing"))
			}},
	}
}
