package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// metadataSpecs are the cases of nip29/metadata.
func metadataSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("base/ties/3", framework.SHOULD,
			"After two 9002 edits in the same second, the 39000 carries the second's name when its id sorts first; when it sorts after, either name passes and the reading is noted.",
			"nip29/metadata.3").
			WithReading("The 39000 \"should reflect the latest group state\"; with equal created_at the latest edit is the later accepted or, by NIP-01's tie rule, the one with the lower id. Both pass where they disagree; the report notes which the relay showed."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				edit := func(name string) *nostr.Event {
					return fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name, About: "nipcl-conform test group"})
				}
				// Both readings agree on the second edit.
				first, second := t.Unique("first"), t.Unique("second")
				at := t.SameSecond(ch)
				e1 := signTie(c.Actor(), t.Timeline(c, edit(first)), at, "", false)
				e2 := signTie(c.Actor(), t.Timeline(c, edit(second)), at, e1.ID, true)
				t.Accept(c, e1, "the first same-second edit")
				t.Accept(c, e2, "the second same-second edit, its id sorting first")
				t.Note("%s", tieNote("two edits", e1, e2))
				awaitName(t, c, ch, []string{second}, "NIP-29 (nip29/metadata.3): the 39000 after two same-second edits, the second latest by arrival and by id")

				// The readings disagree: the second is later, the first has the lower id.
				third, fourth := t.Unique("third"), t.Unique("fourth")
				at = t.SameSecond(ch)
				e3 := signTie(c.Actor(), t.Timeline(c, edit(third)), at, "", false)
				e4 := signTie(c.Actor(), t.Timeline(c, edit(fourth)), at, e3.ID, false)
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
		{Case: framework.NewCase("base/edit/1", framework.SHOULD,
			"After the creator's 9002 with name, about and picture, the 39000 carries all three.",
			"nip29/metadata.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				m := fixtures.GroupMetadata{Name: t.Unique("renamed"), About: "about " + t.Unique("a"), Picture: "https://example.invalid/" + t.Unique("p") + ".png"}
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, m), "edit with every field")
				meta := t.GroupMetadata(c, ch)
				for _, f := range [][2]string{{"name", m.Name}, {"about", m.About}, {"picture", m.Picture}} {
					if got := framework.TagOf(meta, f[0]); got != f[1] {
						t.Violates("nip29/metadata.1", "NIP-29 (nip29/metadata.1): the 39000 should reflect the 9002: %s is %q, want %q (39000 tags: %s)", f[0], got, f[1], framework.TagsOf(meta))
					}
				}
			}},
		{Case: framework.NewCase("base/edit/2", framework.SHOULD,
			"After a 9002 carrying only a new name, the 39000 has that name, and the about and picture set before are kept or cleared, never replaced.",
			"nip29/metadata.1").
			WithReading("edit-metadata carries \"all the fields of group-metadata\": a 9002 may be a patch (what it leaves out is kept) or the whole new metadata (what it leaves out is cleared, flags unset). Both pass, noted as reading nip29-edit-metadata=patch or replace; a relay that keeps some and clears others passes with a note."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				full := fixtures.GroupMetadata{Name: t.Unique("full"), About: "about " + t.Unique("a"), Picture: "https://example.invalid/" + t.Unique("p") + ".png",
					Flags: []string{fixtures.FlagClosed}}
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, full), "edit with every field and the closed flag")
				before := t.RequireFlags(c, ch, fixtures.FlagClosed)
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name}), "edit with the name only")
				meta := t.GroupMetadata(c, ch)
				if got := framework.TagOf(meta, "name"); got != name {
					t.Violates("nip29/metadata.1", "NIP-29 (nip29/metadata.1): the 39000 should reflect the 9002's name: it is %q, want %q (39000 tags: %s)", got, name, framework.TagsOf(meta))
				}
				kept := map[string]bool{}
				for _, f := range []string{"about", "picture"} {
					if framework.TagOf(before, f) != "" {
						kept[f] = framework.TagOf(meta, f) == framework.TagOf(before, f)
						if v := framework.TagOf(meta, f); v != "" && !kept[f] {
							t.Violates("nip29/metadata.1", "NIP-29 (nip29/metadata.1): the name-only 9002 changed %s to %q (was %q); it may keep or clear it, not replace it", f, v, framework.TagOf(before, f))
						}
					}
				}
				kept["closed"] = fixtures.HasFlag(meta, fixtures.FlagClosed)
				all, none := true, true
				for _, k := range kept {
					all, none = all && k, none && !k
				}
				switch {
				case all:
					t.Reading(clause.ReadingNIP29EditMetadata, "patch")
				case none:
					t.Reading(clause.ReadingNIP29EditMetadata, "replace")
				default:
					t.Note("the name-only 9002 kept some fields and cleared others: %v", kept)
				}
			}},
	}
	// Flags: a 9002 carrying a flag makes the 39000 carry it.
	for _, f := range groupFlags {
		flag := f.flag
		out = append(out, framework.Spec{Case: framework.NewCase(f.id, framework.SHOULD,
			fmt.Sprintf("After the creator's 9002 with every field and the %s flag, the 39000 carries %s.", flag, flag),
			f.clauses...),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Flags: []string{flag}})
				meta := t.GroupMetadata(c, ch)
				if !fixtures.HasFlag(meta, flag) {
					t.Violates("nip29/metadata.2", "NIP-29 (nip29/metadata.2): the 39000 should reflect the 9002's [%q] flag; its tags: %s", flag, framework.TagsOf(meta))
				}
			}})
	}
	return out
}

// groupFlags are NIP-29's 39000 flags a 9002 sets, one case each.
var groupFlags = []struct {
	id      string
	clauses []string
	flag    string
}{{"base/flags/1", []string{"nip29/metadata.2"}, fixtures.FlagPrivate}, {"base/flags/2", []string{"nip29/metadata.2"}, fixtures.FlagClosed}, {"base/flags/3", []string{"nip29/metadata.2"}, fixtures.FlagHidden}, {"base/flags/4", []string{"nip29/metadata.2"}, fixtures.FlagRestricted}}
