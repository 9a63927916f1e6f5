package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// nip45CountSpecs are the cases of nip45/count.
func nip45CountSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("base/count/4", framework.MUST,
			"A COUNT with a limit counts the matching events: over a group with three messages, limit 10 counts 3, and limit 2 counts 2 or 3.",
			"nip45/count.1").
			WithReading("NIP-45 takes the filters of NIP-01's REQ, whose limit bounds the initial answer: a count may apply the limit (2) or count every match (3); both are accepted and noted. A limit above the matches leaves one answer: their number."),
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
		{Case: framework.NewCase("base/count/5", framework.MUST,
			"A COUNT that matches nothing answers 0: the messages of a group with none (while another group has one), and an id no event has.",
			"nip45/count.1"),
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
		{Case: framework.NewCase("base/count/1", framework.MUST,
			"A relay that serves COUNT answers with the number of matching events; one that refuses answers CLOSED.",
			"nip45/count.1", "nip45/count.2"),
			Run: func(t *framework.T) {
				t.Checking("nip45/count.1")
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				for i := 0; i < 3; i++ {
					t.Accept(c, fixtures.Message(c.Actor(), ch, fmt.Sprintf("message %d", i)), "message")
				}
				n := t.Count(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				if n != 3 {
					t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): COUNT of the group's three messages answered %d", n)
				}
			}},
		{Case: framework.NewCase("base/count/2", framework.SHOULD,
			"COUNT does not count a private group's messages for an outsider.",
			"nip45/count.1", "nip45/count.3"),
			Run: func(t *framework.T) {
				t.Checking("nip45/count.1")
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.RequireFlags(c, ch, fixtures.FlagPrivate)
				t.Accept(c, fixtures.Message(c.Actor(), ch, "secret"), "message in the private group")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				if n := t.Count(c, f); n != 1 {
					t.Violates("nip45/count.1", "NIP-45 (nip45/count.1): the member's COUNT of one message answered %d", n)
				}
				outsider := t.Connect(t.Actor("outsider"))
				r, err := outsider.Count(t.Ctx(), f)
				t.Must(err, "outsider's COUNT")
				if r.Closed {
					framework.CheckPrefix("CLOSED", r.ClosedReason)
					t.Note("the outsider's COUNT was refused: CLOSED %q", r.ClosedReason)
					return
				}
				t.RequireExactCount(outsider, r, []nostr.Filter{f})
				if r.Count != 0 {
					t.Violates("nip45/count.3", "NIP-45 with NIP-29 private (nip45/count.3): an outsider's COUNT of a private group's messages answered %d, want 0 or a refusal", r.Count)
				}
			}},
	}, readmatrix.ReadsSpecs(
		basePrivateRule([]readmatrix.ReadRow{
			{Id: "base/reads/28", Shape: "count-h", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen, Clause: "nip45/count.1"},
			{Id: "base/reads/29", Shape: "count-h", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip45/count.3"},
			{Id: "base/reads/30", Shape: "count-ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip45/count.3"},
			{Id: "base/reads/31", Shape: "count-h", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip45/count.3"},
			{Id: "base/reads/32", Shape: "count-h", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip45/count.3"},
		}),
		baseFlippedRule([]readmatrix.ReadRow{
			{Id: "base/reads/38", Shape: "count-h", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip45/count.3"},
		}),
	)...)
}
