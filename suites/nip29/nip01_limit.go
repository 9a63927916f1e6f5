package nip29

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01LimitSpecs are the cases of nip01/limit.
func nip01LimitSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/limit/1", framework.MUST,
			"limit bounds the initial answer only: a subscription with limit 1 over a group holding one message receives all three messages stored after its EOSE.",
			"nip01/limit.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				t.Accept(c, fixtures.Message(c.Actor(), a, "stored"), "message before the REQ")
				r := t.Connect(t.Actor("owner"))
				limited := groupMessages(a)
				limited.Limit = 1
				s := openSub(t, r, "", limited)
				marker := openSub(t, r, "", groupMessages(a))
				var sent []*nostr.Event
				for _, body := range []string{"live 1", "live 2", "live 3"} {
					m := fixtures.Message(c.Actor(), a, body)
					t.Accept(c, m, "message after the EOSE")
					sent = append(sent, m)
				}
				if _, err := marker.WaitFor(t.Ctx(), func(e *nostr.Event) bool { return e.ID == sent[0].ID }); err != nil {
					t.Blocked(preLiveMarker, err.Error())
				}
				got := markerSaw(t, r, marker, sent[2], s)[0]
				for _, m := range sent {
					if !slices.Contains(got, m.ID) {
						t.Violates("nip01/limit.1", "NIP-01 (nip01/limit.1): the subscription %s (limit 1) did not receive %s, stored after its EOSE (it got %v); limit is valid for the initial query only and must be ignored afterwards", framework.FilterString([]nostr.Filter{limited}), m.ID, got)
					}
				}
			}},
		{Case: framework.NewCase("base/limit/2", framework.SHOULD,
			"Each filter carries its own limit: a REQ with two filters of limit 1 on two groups with two messages each returns a message of each group, in either order of the filters.",
			"nip01/limit.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				b := t.CreateChannel(c, fixtures.ChannelSpec{})
				groupOf := map[string]string{}
				for _, ch := range []string{a, b} {
					for _, body := range []string{"one", "two"} {
						m := fixtures.Message(c.Actor(), ch, body)
						t.Accept(c, m, "message")
						groupOf[m.ID] = ch
					}
				}
				fa, fb := groupMessages(a), groupMessages(b)
				fa.Limit, fb.Limit = 1, 1
				for _, fs := range [][]nostr.Filter{{fa, fb}, {fb, fa}} {
					got := t.Query(c, fs...)
					for _, ch := range []string{a, b} {
						if !slices.ContainsFunc(got, func(e *nostr.Event) bool { return groupOf[e.ID] == ch }) {
							t.Violates("nip01/limit.2", "NIP-01 (nip01/limit.2): REQ %s returned no message of group %s, whose filter has its own limit 1 and two matches; got %v", framework.FilterString(fs), ch, framework.IDs(got))
						}
					}
				}
			}},
	}
}
