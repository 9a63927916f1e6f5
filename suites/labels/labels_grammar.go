package labels

import (
	"fmt"
	"strings"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsGrammarSpecs: "Label values and limits" — the value grammar, one
// case per table row.
func labelsGrammarSpecs() []framework.Spec {
	rows := []struct {
		id      string
		clauses []string
		valid   bool
		name, v string
	}{
		{"labels/grammar/1", []string{"labels/values-and-limits.1"}, true, "single letter", "a"},
		{"labels/grammar/2", []string{"labels/values-and-limits.1"}, true, "single digit", "0"},
		{"labels/grammar/3", []string{"labels/values-and-limits.1"}, true, "every punctuation character", "a._:/-z"},
		{"labels/grammar/4", []string{"labels/values-and-limits.2"}, true, "exactly 64 bytes", "a" + strings.Repeat("0123456789abcdef", 4)[:63]},
		{"labels/grammar/5", []string{"labels/scope.3", "labels/snapshot.9"}, true, "a channel type name", "stream"},
		{"labels/grammar/6", []string{"labels/values-and-limits.1"}, true, "trailing punctuation", "x-"},
		{"labels/grammar/7", []string{"labels/compatibility.3", "labels/responses.10", "labels/values-and-limits.1", "labels/values-and-limits.3"}, false, "uppercase", "Team:infra"},
		{"labels/grammar/8", []string{"labels/values-and-limits.1"}, false, "leading dot", ".a"},
		{"labels/grammar/9", []string{"labels/values-and-limits.1"}, false, "leading hyphen", "-a"},
		{"labels/grammar/10", []string{"labels/values-and-limits.1"}, false, "leading underscore", "_a"},
		{"labels/grammar/11", []string{"labels/values-and-limits.1"}, true, "underscore inside", "a_b"},
		{"labels/grammar/12", []string{"labels/values-and-limits.1"}, false, "space inside", "a b"},
		{"labels/grammar/13", []string{"labels/values-and-limits.1", "labels/values-and-limits.3"}, false, "trailing space", "a "},
		{"labels/grammar/14", []string{"labels/values-and-limits.1"}, false, "non-ASCII", "café"},
		{"labels/grammar/15", []string{"labels/compatibility.3", "labels/values-and-limits.2"}, false, "65 bytes", "a" + strings.Repeat("0123456789abcdef", 5)[:64]},
		{"labels/grammar/16", []string{"labels/values-and-limits.1"}, false, "empty", ""},
	}
	var out []framework.Spec
	for _, row := range rows {
		row := row
		if row.valid {
			out = append(out, framework.Spec{Case: lcase(row.id, row.clauses, "grammar", "labels/values-and-limits", framework.MUST,
				fmt.Sprintf("A valid label value (%s: %q) is accepted on 9007 and on add-label and published byte for byte.", row.name, row.v)),
				Run: func(t *framework.T) {
					c := t.Connect(t.Actor("owner"))
					ch := createLabeled(t, c, "", fixtures.Open, row.v)
					expectLabels(t, c, ch, row.v)
					other := createLabeled(t, c, "", fixtures.Open)
					acceptNew(t, c, mutationEv(c.Actor(), other, []string{row.v}, nil), "add-label "+row.v)
					expectLabels(t, c, other, row.v)
				}})
			continue
		}
		out = append(out, framework.Spec{Case: lcase(row.id, row.clauses, "grammar", "labels/values-and-limits", framework.MUST,
			fmt.Sprintf("An invalid label value (%s: %q) is rejected, not rewritten, with invalid: nip-cl-rejected on 9007 and on add-label; nothing is applied.", row.name, row.v)),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				good := lbl(t, "ok")
				ev, id := createEv(c.Actor(), "", fixtures.Open, good, row.v)
				rejectCL(t, c, ev, fmt.Sprintf("9007 with label %q", row.v), "invalid")
				goneChannel(t, c, id, "rejected create")
				ch := createLabeled(t, c, "", fixtures.Open, good)
				before := snapshot(t, c, ch)
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "ok2"), row.v}, nil), fmt.Sprintf("add-label %q", row.v), "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutation")
			}})
	}
	out = append(out, framework.Spec{Case: lcase("labels/grammar/17", []string{"labels/values-and-limits.1", "labels/values-and-limits.3"}, "grammar", "labels/values-and-limits", framework.MUST,
		"A remove-label with a noncanonical value is rejected with invalid: nip-cl-rejected, even though no such label can be stored."),
		Run: func(t *framework.T) {
			c := t.Connect(t.Actor("owner"))
			keep := lbl(t, "keep")
			ch := createLabeled(t, c, "", fixtures.Open, keep)
			before := snapshot(t, c, ch)
			rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"remove-label", strings.ToUpper(keep)}), "remove-label uppercase", "invalid")
			expectUnchanged(t, c, ch, before, "rejected mutation")
		}})
	return append(out, labelsGrammarSweepSpecs()...)
}

// labelsLimitsSpecs: "Label values and limits" — counts.
func labelsLimitsSpecs() []framework.Spec {
	sec := "labels/values-and-limits"
	values := func(t *framework.T, n int) []string {
		base := lbl(t, "n")
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s-%02d", base, i)
		}
		return out
	}
	return []framework.Spec{
		{Case: lcase("labels/limits/1", []string{"labels/values-and-limits.5"}, "limits", sec, framework.MUST, "A 9007 with 32 distinct labels is accepted and all 32 are published."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, maxLabels)
				ch := createLabeled(t, c, "", fixtures.Open, vs...)
				expectLabels(t, c, ch, vs...)
			}},
		{Case: lcase("labels/limits/2", []string{"labels/compatibility.3", "labels/values-and-limits.5"}, "limits", sec, framework.MUST, "A 9007 with 33 distinct labels is rejected with invalid: nip-cl-rejected and creates nothing."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev, id := createEv(c.Actor(), "", fixtures.Open, values(t, maxLabels+1)...)
				rejectCL(t, c, ev, "33 labels", "invalid")
				goneChannel(t, c, id, "rejected create")
			}},
		{Case: lcase("labels/limits/3", []string{"labels/values-and-limits.6"}, "limits", sec, framework.MUST, "A 9007 with 64 raw label tags (32 values, each twice) is accepted and stores the 32 distinct values."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, maxLabels)
				ch := createLabeled(t, c, "", fixtures.Open, append(vs, vs...)...)
				expectLabels(t, c, ch, vs...)
			}},
		{Case: lcase("labels/limits/4", []string{"labels/values-and-limits.6"}, "limits", sec, framework.MUST, "A 9007 with 65 raw label tags is rejected even though they hold only two distinct values (the raw count is taken before deduplication)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, 2)
				raw := make([]string, maxRawTags+1)
				for i := range raw {
					raw[i] = vs[i%2]
				}
				ev, id := createEv(c.Actor(), "", fixtures.Open, raw...)
				rejectCL(t, c, ev, "65 raw label tags", "invalid")
				goneChannel(t, c, id, "rejected create")
			}},
		{Case: framework.WithReading(lcase("labels/limits/5", []string{"labels/values-and-limits.10"}, "limits", sec, framework.MUST, "A mutation whose result would exceed 32 labels is rejected (nip-cl-rejected) before anything is applied."),
			"The command itself is well formed; only the channel's state makes it exceed the limit. The draft fixes invalid: for malformed commands and restricted: for permission and lifecycle denials but names no prefix for a state limit, so either is accepted with the nip-cl-rejected marker and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, 33)
				ch := createLabeled(t, c, "", fixtures.Open, vs[:30]...)
				before := snapshot(t, c, ch)
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, vs[30:], nil), "add 3 labels to 30", "invalid", "restricted")
				t.Note("a mutation over the stored-label limit: %s", prefixOf(ok.Reason))
				t.Reading(clause.ReadingLabelsLimitPrefix, prefixOf(ok.Reason))
				expectUnchanged(t, c, ch, before, "rejected mutation")
			}},
		{Case: lcase("labels/limits/6", []string{"labels/add-remove.13"}, "limits", sec, framework.MUST, "The resulting set decides the stored-label limit: with 32 labels, adding one and removing another in one command is accepted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, 33)
				ch := createLabeled(t, c, "", fixtures.Open, vs[:32]...)
				acceptNew(t, c, mutationEv(c.Actor(), ch, vs[32:], vs[:1]), "add 1 remove 1 at 32")
				expectLabels(t, c, ch, vs[1:]...)
			}},
		{Case: lcase("labels/limits/7", []string{"labels/values-and-limits.7"}, "limits", sec, framework.MUST, "A mutation with 65 add-label/remove-label tags combined is rejected even though they hold two values; nothing is applied."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, 3)
				ch := createLabeled(t, c, "", fixtures.Open, vs[2])
				before := snapshot(t, c, ch)
				var add, rm []string
				for i := 0; i < 33; i++ {
					add = append(add, vs[0])
				}
				for i := 0; i < 32; i++ {
					rm = append(rm, vs[1])
				}
				rejectCL(t, c, mutationEv(c.Actor(), ch, add, rm), "65 raw mutation tags", "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutation")
			}},
		{Case: lcase("labels/limits/8", []string{"labels/values-and-limits.7"}, "limits", sec, framework.MUST, "A mutation with exactly 64 add-label/remove-label tags (repeats included) is accepted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := values(t, 3)
				ch := createLabeled(t, c, "", fixtures.Open, vs[1], vs[2])
				var add, rm []string
				for i := 0; i < 32; i++ {
					add = append(add, vs[0])
					rm = append(rm, vs[1])
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, add, rm), "64 raw mutation tags")
				expectLabels(t, c, ch, vs[0], vs[2])
			}},
	}
}
