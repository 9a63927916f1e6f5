package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// metadataSpecs are the cases of nip29/metadata.
func metadataSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/ties/3", Clauses: []string{"nip29/metadata.3"}, Area: "groups", Section: "nip29/metadata", Level: framework.SHOULD,
			Requirement: "After two 9002 edits in the same second, the 39000 carries the second's name when its id sorts first; when it sorts after, either name passes and the reading is noted.",
			Reading:     "The 39000 \"should reflect the latest group state\"; with equal created_at the latest edit is the later accepted or, by NIP-01's tie rule, the one with the lower id. Both pass where they disagree; the report notes which the relay showed."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				edit := func(name string) *nostr.Event {
					return fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name, About: "nipcl-conform test group"})
				}
				// Both readings agree on the second edit.
				first, second := t.Unique("first"), t.Unique("second")
				at := t.SameSecond(ch)
				e1 := signTie(c.Actor(), edit(first), at, "", false)
				e2 := signTie(c.Actor(), edit(second), at, e1.ID, true)
				t.Accept(c, e1, "the first same-second edit")
				t.Accept(c, e2, "the second same-second edit, its id sorting first")
				t.Note("%s", tieNote("two edits", e1, e2))
				awaitName(t, c, ch, []string{second}, "NIP-29 (nip29/metadata.3): the 39000 after two same-second edits, the second latest by arrival and by id")

				// The readings disagree: the second is later, the first has the lower id.
				third, fourth := t.Unique("third"), t.Unique("fourth")
				at = t.SameSecond(ch)
				e3 := signTie(c.Actor(), edit(third), at, "", false)
				e4 := signTie(c.Actor(), edit(fourth), at, e3.ID, false)
				t.Accept(c, e3, "the third edit")
				t.Note("%s", tieNote("two more edits", e3, e4))
				ok := t.Publish(c, e4)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the same-second edit whose id sorts after the previous one's: %s", ok)
				}
				switch awaitName(t, c, ch, []string{third, fourth}, "NIP-29 (nip29/metadata.3): the 39000 after two same-second edits the readings order differently") {
				case fourth:
					t.Note("reading seen: %s", tieReadingArrival)
				default:
					t.Note("reading seen: %s", tieReadingLowID)
				}
			}},
	}
}
