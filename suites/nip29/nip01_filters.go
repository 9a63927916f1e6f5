package nip29

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01FiltersSpecs are the cases of nip01/filters.
func nip01FiltersSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/filters/1", Clauses: []string{"nip01/filters.2"}, Area: "filters", Section: "nip01/filters", Level: framework.SHOULD,
			Requirement: "With limit 1, a REQ by #h and #t returns the one older match behind newer non-matching messages."},
			Run: func(t *framework.T) {
				c, ch, want, _ := needleChannel(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}, Limit: 1})
				t.Expect(framework.IDs(got)).To(Equal([]string{want.ID}), "REQ #h #t limit 1 returns the one match, the newest n matching events (NIP-01 limit)")
			}},
		{Case: framework.Case{ID: "base/filters/3", Clauses: []string{"nip01/filters.1"}, Area: "filters", Section: "nip01/filters", Level: framework.MUST,
			Requirement: "Every event a REQ returns matches its filter: a REQ by #h and #t returns no event without that t tag."},
			Run: func(t *framework.T) {
				c, ch, want, distractors := needleChannel(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}}
				for _, ev := range t.Query(c, f) {
					if !f.Matches(ev) {
						framework.Failf("NIP-01 (nip01/filters.1): REQ %s returned %s, which does not match it (one of %d distractors)", f, ev.ID, distractors)
					}
				}
			}},
		{Case: framework.Case{ID: "base/filters/2", Clauses: []string{"nip01/filters.3"}, Area: "filters", Section: "nip01/filters", Level: framework.MUST,
			Requirement: "A REQ with two id filters returns the events matching either."},
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{IDs: []string{m1.ID}}, nostr.Filter{IDs: []string{m2.ID}})
				t.Expect(framework.IDs(got)).To(ConsistOf(m1.ID, m2.ID), "NIP-01 (nip01/filters.3): several filters are || conditions")
			}},
		{Case: framework.Case{ID: "base/filters/4", Clauses: []string{"nip01/filters.4"}, Area: "filters", Section: "nip01/filters", Level: framework.SHOULD,
			Requirement: "Stored events come newest first."},
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {mustH(m1)}}})
				t.Expect(framework.IDs(got)).To(Equal([]string{m2.ID, m1.ID}), "NIP-01 (nip01/filters.4): newer events should come first")
			}},
	}
}
