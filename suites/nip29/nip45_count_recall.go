package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip45CountRecallSpecs are the cases of nip45/count added for issue 37:
// a COUNT with a limit, and COUNTs whose answer must be 0.
func nip45CountRecallSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/count/4", Clauses: []string{"nip45/count.1"}, Area: "count", Section: "nip45/count", Level: framework.MUST,
			Requirement: "A COUNT with a limit counts the matching events: over a group with three messages, limit 10 counts 3, and limit 2 counts 2 or 3.",
			Reading:     "NIP-45 takes the filters of NIP-01's REQ, whose limit bounds the initial answer: a count may apply the limit (2) or count every match (3); both are accepted and noted. A limit above the matches leaves one answer: their number."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				for i := 0; i < 3; i++ {
					t.Accept(c, fixtures.Message(c.Actor(), a, fmt.Sprintf("message %d", i)), "message")
				}
				f := groupMessages(a)
				f.Limit = 10
				if n := t.Count(c, f); n != 3 {
					t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): COUNT %s over the group's three messages answered %d, want 3", framework.FilterString([]nostr.Filter{f}), n)
				}
				f.Limit = 2
				switch n := t.Count(c, f); n {
				case 2, 3:
					t.Note("COUNT with limit 2 over three matches answered %d", n)
				default:
					t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): COUNT %s over the group's three messages answered %d, want 2 (limit applied) or 3 (every match)", framework.FilterString([]nostr.Filter{f}), n)
				}
			}},
		{Case: framework.Case{ID: "base/count/5", Clauses: []string{"nip45/count.1"}, Area: "count", Section: "nip45/count", Level: framework.MUST,
			Requirement: "A COUNT that matches nothing answers 0: the messages of a group with none (while another group has one), and an id no event has."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				full := t.CreateChannel(c, fixtures.ChannelSpec{})
				empty := t.CreateChannel(c, fixtures.ChannelSpec{})
				m := fixtures.Message(c.Actor(), full, "elsewhere")
				t.Accept(c, m, "message in the other group")
				// The positive control: the same COUNT on the other group sees its message.
				if n := t.Count(c, groupMessages(full)); n != 1 {
					t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): COUNT of a group with one message answered %d", n)
				}
				for _, f := range []nostr.Filter{
					groupMessages(empty),
					{Kinds: []int{fixtures.KindMessage}, Authors: []string{c.Actor().PubKey}, Tags: nostr.TagMap{"h": {empty}}},
					{IDs: []string{decoyHex()}},
				} {
					if n := t.Count(c, f); n != 0 {
						t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): COUNT %s matches no event, yet answered %d", framework.FilterString([]nostr.Filter{f}), n)
					}
				}
			}},
	}
}
