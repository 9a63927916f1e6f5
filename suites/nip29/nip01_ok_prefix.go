package nip29

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01OkPrefixSpecs are the cases of nip01/ok-prefix.
func nip01OkPrefixSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/prefix/1", framework.MUST,
			"An OK false carries a machine-readable prefix and a colon before its human-readable message.",
			"nip01/ok-prefix.1"),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(a, t.NewGroupID())
				ev.Content = "tampered after signing"
				ok := t.Publish(c, ev)
				if ok.Accepted {
					framework.Failf("NIP-01: an event whose id does not match its content must not be accepted, got %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.NewCase("base/prefix/2", framework.MUST,
			"An OK false means the event was not accepted: the creator's 9000 adding a member and an outsider's 9000 making itself admin, each when refused, are not served by ids afterwards, and the key each names is not in the group's 39002 or 39001.",
			"nip01/ok-prefix.3").
			WithReading("NIP-01: OK true when the event has been accepted, false otherwise. A refused command the relay serves by id afterwards, or whose effect shows, was accepted after all. Whether the relay accepts either command is not judged here (the permissions cases do). Every case's refusals are read back the same way after the case (the OK postcondition)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				member := t.Actor("member")
				// Whether the relay accepts the outsider's 9000 is not judged
				// here, only what a refusal means: any admitted key plays it.
				outsider := t.Connect(t.ActorAs(framework.KindAny, "outsider"))
				steps := []struct {
					c    *fixtures.Client
					ev   *nostr.Event
					pk   string
					kind int
					what string
				}{
					{owner, fixtures.PutUser(owner.Actor(), ch, member.PubKey, ""), member.PubKey, fixtures.KindMembers, "the creator's 9000 adding a member"},
					{outsider, fixtures.PutUser(outsider.Actor(), ch, outsider.Actor().PubKey, "admin"), outsider.Actor().PubKey, fixtures.KindAdmins, "an outsider's 9000 making itself admin"},
				}
				refused := 0
				for _, s := range steps {
					ok := t.Publish(s.c, s.ev)
					if ok.Accepted {
						t.Note("%s: accepted (%s)", s.what, ok)
						continue
					}
					framework.CheckPrefix("OK", ok.Reason)
					refused++
					for _, reader := range []*fixtures.Client{owner, s.c} {
						r := t.QueryResult(reader, nostr.Filter{IDs: []string{s.ev.ID}})
						if slices.Contains(framework.IDs(r.Events), s.ev.ID) {
							t.Violates("nip01/ok-prefix.3", "NIP-01 (nip01/ok-prefix.3): %s was answered %s, yet {\"ids\":[%q]} serves it to %s", s.what, ok, s.ev.ID, framework.ActorName(reader))
						}
					}
					if state := t.StateEvent(owner, s.kind, ch); state != nil && slices.Contains(fixtures.TagValues(state, "p"), s.pk) {
						t.Violates("nip01/ok-prefix.3", "NIP-01 (nip01/ok-prefix.3): %s was answered %s, yet the group's kind %d (%s) lists %s", s.what, ok, s.kind, state.ID, s.pk)
					}
				}
				if refused == 0 {
					t.Note("the relay accepted both commands: no refusal to read back")
				}
			}},
	}
}
