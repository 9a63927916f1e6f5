package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip45FiltersSpecs are the cases of nip45/filters.
func nip45FiltersSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/count/3", framework.MUST,
			"A COUNT's filters are OR'd into one count: over a group with two messages, {ids:[first]} with the group's filter counts 2, the group's filter twice counts 2, {ids:[first]} with {ids:[second]} counts 2.",
			"nip45/filters.1"),
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				group := groupMessages(mustH(m1))
				for _, fs := range [][]nostr.Filter{
					{{IDs: []string{m1.ID}}, group},
					{group, {IDs: []string{m1.ID}}},
					{group, group},
					{{IDs: []string{m1.ID}}, {IDs: []string{m2.ID}}},
				} {
					if n := t.Count(c, fs...); n != 2 {
						t.Violates("nip45/filters.1", "NIP-45 (nip45/filters.1): COUNT %s over the group's two messages answered %d; multiple filters are OR'd together into a single count, so each matching event counts once: 2", framework.FilterString(fs), n)
					}
				}
			}},
	}
}
