package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01LiveSpecs are the cases of nip01/live.
func nip01LiveSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/live/1", framework.SHOULD,
			"An open subscription receives a new matching event after EOSE.",
			"nip01/live.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				sub := t.Subscribe(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				if closed, reason := sub.ClosedReason(); closed {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ by #h of the creator's own group answered CLOSED %q", reason))
				}
				m := fixtures.Message(c.Actor(), ch, "live")
				t.Accept(c, m, "message")
				_, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == m.ID })
				t.Must(err, "NIP-01 (nip01/live.1): live delivery of the new message")
			}},
	}
}
