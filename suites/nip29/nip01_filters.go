package nip29

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01FiltersSpecs are the cases of nip01/filters.
func nip01FiltersSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/filters/1", framework.SHOULD,
			"With limit 1, a REQ by #h and #t returns the one older match behind newer non-matching messages.",
			"nip01/filters.2"),
			Run: func(t *framework.T) {
				c, ch, want, _ := needleChannel(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}, Limit: 1})
				t.Expect(framework.IDs(got)).To(Equal([]string{want.ID}), "REQ #h #t limit 1 returns the one match, the newest n matching events (NIP-01 limit)")
			}},
		{Case: framework.NewCase("base/filters/3", framework.MUST,
			"Every event a REQ returns matches its filter: a REQ by #h and #t returns no event without that t tag.",
			"nip01/filters.1"),
			Run: func(t *framework.T) {
				c, ch, want, distractors := needleChannel(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}}
				for _, ev := range t.Query(c, f) {
					if !f.Matches(ev) {
						t.Violates("nip01/filters.1", "NIP-01 (nip01/filters.1): REQ %s returned %s, which does not match it (one of %d distractors)", f, ev.ID, distractors)
					}
				}
			}},
		{Case: framework.NewCase("base/filters/2", framework.MUST,
			"A REQ with two id filters returns the events matching either.",
			"nip01/filters.3"),
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{IDs: []string{m1.ID}}, nostr.Filter{IDs: []string{m2.ID}})
				t.Checking("nip01/filters.3")
				t.Expect(framework.IDs(got)).To(ConsistOf(m1.ID, m2.ID), "NIP-01 (nip01/filters.3): several filters are || conditions")
			}},
		{Case: framework.NewCase("base/filters/4", framework.SHOULD,
			"With a limit, stored events come newest first: a REQ with limit 10 for a group's two messages gets the newer first.",
			"nip01/filters.4").
			WithReading("NIP-01: \"When limit: n is present it is assumed that the events returned in the initial query will be the last n events ordered by the created_at. Newer events should appear first\": the order is set for a REQ with a limit only, so the case reads with one (10, above the two messages); a REQ without a limit may get its events in any order."),
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {mustH(m1)}}, Limit: 10})
				t.Checking("nip01/filters.4")
				t.Expect(framework.IDs(got)).To(Equal([]string{m2.ID, m1.ID}), "NIP-01 (nip01/filters.4): newer events should come first")
			}},
		{Case: framework.NewCase("base/filters/5", framework.SHOULD,
			"A list condition matches by any of its values: ids, authors, kinds, #h and #t lists with the message's value first, second and last among values nothing carries each return the message, and nothing that does not match.",
			"nip01/filters.1", "nip01/filters.5").
			WithReading("NIP-01: the relay SHOULD return events that match, and a list matches when at least one of its values does; the decoy values match no event, so every order has the same one answer."),
			Run: func(t *framework.T) {
				t.Checking("nip01/filters.1")
				w := newSweepWorld(t)
				m := w.mid
				kind9, h := []int{fixtures.KindMessage}, nostr.TagMap{"h": {w.ch}}
				// A window around mid that holds neither bracket (they are two
				// seconds away) nor puts mid on a boundary (base/filters/6's).
				since, until := m.CreatedAt-1, m.CreatedAt+1
				var reads []nostr.Filter
				for _, ids := range positions(m.ID, []string{decoyHex(), decoyHex()}) {
					reads = append(reads, nostr.Filter{IDs: ids})
				}
				for _, authors := range positions(m.PubKey, []string{decoyKey(), decoyKey()}) {
					reads = append(reads, nostr.Filter{Authors: authors, Kinds: kind9, Tags: h, Since: &since, Until: &until})
				}
				for _, kinds := range positions(fixtures.KindMessage, []int{1, 7}) {
					reads = append(reads, nostr.Filter{Kinds: kinds, Tags: h, Since: &since, Until: &until})
				}
				for _, groups := range positions(w.ch, []string{t.NewGroupID(), t.NewGroupID()}) {
					reads = append(reads, nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": groups}, Since: &since, Until: &until})
				}
				for _, ts := range positions(framework.TagOf(m, "t"), []string{t.Unique("decoy"), t.Unique("decoy")}) {
					reads = append(reads, nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {w.ch}, "t": ts}})
				}
				for _, f := range reads {
					got := t.Query(w.c, f)
					sweepSound(t, f, got)
					if !slices.Contains(framework.IDs(got), m.ID) {
						t.Violates("nip01/filters.5", "NIP-01 (nip01/filters.5): REQ %s must return %s, which matches one value of each list; got %d event(s): %v", f, m.ID, len(got), framework.IDs(got))
					}
				}
			}},
		{Case: framework.NewCase("base/filters/6", framework.SHOULD,
			"since and until are inclusive: since = t, until = t and both return the message of second t, and none returns the messages one second before or after outside its range.",
			"nip01/filters.1", "nip01/filters.6"),
			Run: func(t *framework.T) {
				t.Checking("nip01/filters.1")
				w := newSweepWorld(t)
				at := w.mid.CreatedAt
				base := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.ch}}}
				since, until, both := base, base, base
				since.Since = &at
				until.Until = &at
				both.Since, both.Until = &at, &at
				for _, f := range []nostr.Filter{since, until, both} {
					got := t.Query(w.c, f)
					sweepSound(t, f, got)
					if !slices.Contains(framework.IDs(got), w.mid.ID) {
						t.Violates("nip01/filters.6", "NIP-01 (nip01/filters.6): REQ %s must return %s, whose created_at %d is on the boundary (since <= created_at <= until); got %v", f, w.mid.ID, at, framework.IDs(got))
					}
				}
			}},
		{Case: framework.NewCase("base/filters/7", framework.MUST,
			"A REQ with three filters of different shapes (ids; kinds, #h and #t; kinds, #h and since) returns the message each matches, whichever place each filter has in the REQ.",
			"nip01/filters.1", "nip01/filters.3"),
			Run: func(t *framework.T) {
				t.Checking("nip01/filters.1")
				w := newSweepWorld(t)
				a := nostr.Filter{IDs: []string{w.before.ID}}
				b := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.ch}, "t": {framework.TagOf(w.mid, "t")}}}
				since := w.mid.CreatedAt + 1 // between mid and after, on neither
				c := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.ch}}, Since: &since}
				want := []string{w.before.ID, w.mid.ID, w.after.ID}
				for _, fs := range [][]nostr.Filter{{a, b, c}, {c, a, b}, {b, c, a}} {
					got := t.Query(w.c, fs...)
					for _, ev := range got {
						if !a.Matches(ev) && !b.Matches(ev) && !c.Matches(ev) {
							t.Violates("nip01/filters.1", "NIP-01 (nip01/filters.1): REQ %s returned %s, which matches none of its filters", framework.FilterString(fs), ev.ID)
						}
					}
					for _, id := range want {
						if !slices.Contains(framework.IDs(got), id) {
							t.Violates("nip01/filters.3", "NIP-01 (nip01/filters.3): REQ %s must return every event matching any of its filters (%v); %s is missing from %v", framework.FilterString(fs), want, id, framework.IDs(got))
						}
					}
				}
			}},
		{Case: framework.NewCase("base/filters/8", framework.MUST,
			"A filter with an empty list (ids, authors, kinds, #h, #t or #l: []) matches no event: the REQ is refused with CLOSED or returns nothing, never the events its other conditions match.",
			"nip01/filters.1").
			WithReading("NIP-01 has clients send lists of one or more values, and a list matches when one of its values does: an empty list has none, so a relay may refuse the filter or answer it with no event. A relay that answers neither (no EOSE, no CLOSED) is noted, not judged here."),
			Run: func(t *framework.T) {
				w := newSweepWorld(t)
				h, tv := strconv.Quote(w.ch), strconv.Quote(framework.TagOf(w.mid, "t"))
				for _, raw := range []string{
					`{"kinds":[9],"#h":[` + h + `],"ids":[]}`,
					`{"kinds":[9],"#h":[` + h + `],"authors":[]}`,
					`{"#h":[` + h + `],"kinds":[]}`,
					`{"kinds":[9],"#t":[` + tv + `],"#h":[]}`,
					`{"kinds":[9],"#h":[` + h + `],"#t":[]}`,
					`{"kinds":[39000],"#d":[` + h + `],"#l":[]}`,
				} {
					c := t.Connect(w.c.Actor())
					r, err := c.QueryJSON(t.Ctx(), json.RawMessage(raw))
					if err != nil {
						t.Note("REQ %s: no EOSE or CLOSED (%v)", raw, err)
						continue
					}
					if len(r.Events) > 0 {
						t.Violates("nip01/filters.1", "NIP-01 (nip01/filters.1): REQ %s has an empty list, which no value of any event matches, yet returned %d event(s): %v", raw, len(r.Events), framework.IDs(r.Events))
					}
					if r.Closed {
						framework.CheckPrefix("CLOSED", r.ClosedReason)
						t.Note("REQ %s refused with CLOSED %q", raw, r.ClosedReason)
					}
				}
			}},
	}
}
