package labels

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// valuesAndLimitsSpecs are the cases of labels/values-and-limits.
func valuesAndLimitsSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/limits/11", framework.MUST,
			"64 add-label tags repeating one value are within the raw tag limit and one stored label: the mutation answers OK true \"\" and the snapshot carries the value once.",
			"labels/values-and-limits.5", "labels/values-and-limits.7"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.5")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				v := lbl(t, "same")
				copies := make([]string, maxRawTags)
				for i := range copies {
					copies[i] = v
				}
				t.Checking("labels/values-and-limits.7") // 64 raw tags are within the mutation's limit
				acceptNew(t, c, mutationEv(c.Actor(), ch, copies, nil), fmt.Sprintf("%d copies of one value", len(copies)))
				t.Checking("labels/values-and-limits.5")
				expectLabels(t, c, ch, v)
			}},
		{Case: framework.NewCase("labels/limits/12", framework.MUST,
			"A mutation whose 40 distinct values stay within the 64 raw tags but exceed the 32 stored labels is refused (nip-cl-rejected) and applies nothing, even on a channel without labels.",
			"labels/values-and-limits.5"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				before := snapshot(t, c, ch)
				base := lbl(t, "many")
				vs := make([]string, 40)
				for i := range vs {
					vs[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, vs, nil), "40 distinct values in one mutation", "invalid", "restricted")
				t.Reading(clause.ReadingLabelsLimitPrefix, prefixOf(ok.Reason))
				expectUnchanged(t, c, ch, before, "refused 40-value mutation")
			}},
		{Case: framework.NewCase("labels/limits/13", framework.MUST,
			"64 remove-label tags naming 64 distinct absent values are within the raw tag limit and leave the set as it is: OK true \"\" and the same snapshot (a relay that caps the distinct values of one command refuses them).",
			"labels/values-and-limits.7", "labels/add-remove.10", "labels/add-remove.7"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.7")
				c := t.Connect(t.Actor("owner"))
				keep := []string{lbl(t, "keep-a"), lbl(t, "keep-b")}
				ch := createLabeled(t, c, "", fixtures.Open, keep...)
				before := snapshot(t, c, ch)
				base := lbl(t, "absent")
				rm := make([]string, maxRawTags)
				for i := range rm {
					rm[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, rm), fmt.Sprintf("%d remove-label tags of %d distinct absent values", len(rm), len(rm)))
				expectUnchanged(t, c, ch, before, "64 distinct absent removes")
				expectLabels(t, c, ch, keep...)
			}},
		{Case: framework.NewCase("labels/limits/14", framework.MUST,
			"A 9007 with 64 label tags of one value is within the raw tag limit and creates the channel with that one label.",
			"labels/values-and-limits.6", "labels/initial-labels.2"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.6")
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "one")
				copies := make([]string, maxRawTags)
				for i := range copies {
					copies[i] = v
				}
				ch := createLabeled(t, c, "", fixtures.Open, copies...)
				expectLabels(t, c, ch, v)
			}},
		{Case: framework.NewCase("labels/commands/15", framework.MUST,
			"Label command tags must have exactly two elements: a three-element label or add-label, or a one-element remove-label, is rejected with invalid: nip-cl-rejected.",
			"labels/values-and-limits.8", "labels/compatibility.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/compatibility.3")
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "shape")
				ev, id := createEv(c.Actor(), "", fixtures.Open)
				ev = resign(c.Actor(), ev, nostr.Tag{"label", v, labelNS})
				rejectCL(t, c, ev, "three-element label tag", "invalid")
				goneChannel(t, c, id, "rejected create")
				ch := createLabeled(t, c, "", fixtures.Open, v)
				before := snapshot(t, c, ch)
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "x"), labelNS}), "three-element add-label", "invalid")
				t.Checking("labels/values-and-limits.8")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"remove-label"}), "one-element remove-label", "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}},
	}
	// "Label values and limits" — the value grammar, one
	// case per table row.
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
		{"labels/grammar/6", []string{"labels/values-and-limits.1"}, true, "trailing punctuation", "x-"},
		{"labels/grammar/7", []string{"labels/values-and-limits.1", "labels/values-and-limits.3", "labels/compatibility.3", "labels/responses.10"}, false, "uppercase", "Team:infra"},
		{"labels/grammar/8", []string{"labels/values-and-limits.1"}, false, "leading dot", ".a"},
		{"labels/grammar/9", []string{"labels/values-and-limits.1"}, false, "leading hyphen", "-a"},
		{"labels/grammar/10", []string{"labels/values-and-limits.1"}, false, "leading underscore", "_a"},
		{"labels/grammar/11", []string{"labels/values-and-limits.1"}, true, "underscore inside", "a_b"},
		{"labels/grammar/12", []string{"labels/values-and-limits.1"}, false, "space inside", "a b"},
		{"labels/grammar/13", []string{"labels/values-and-limits.1", "labels/values-and-limits.3"}, false, "trailing space", "a "},
		{"labels/grammar/14", []string{"labels/values-and-limits.1"}, false, "non-ASCII", "café"},
		{"labels/grammar/15", []string{"labels/values-and-limits.2", "labels/compatibility.3"}, false, "65 bytes", "a" + strings.Repeat("0123456789abcdef", 5)[:64]},
		{"labels/grammar/16", []string{"labels/values-and-limits.1"}, false, "empty", ""},
	}
	for _, row := range rows {
		row := row
		if row.valid {
			out = append(out, framework.Spec{Case: framework.NewCase(row.id, framework.MUST,
				fmt.Sprintf("A valid label value (%s: %q) is accepted on 9007 and on add-label and published byte for byte.", row.name, row.v),
				row.clauses...),
				Run: func(t *framework.T) { t.Checking(valueClause(row.clauses)); acceptValidLabel(t, row.v) }})
			continue
		}
		out = append(out, framework.Spec{Case: framework.NewCase(row.id, framework.MUST,
			fmt.Sprintf("An invalid label value (%s: %q) is rejected, not rewritten, with invalid: nip-cl-rejected on 9007 and on add-label; nothing is applied.", row.name, row.v),
			row.clauses...),
			Run: func(t *framework.T) {
				t.Checking(valueClause(row.clauses))
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
	out = append(out, framework.Spec{Case: framework.NewCase("labels/grammar/17", framework.MUST,
		"A remove-label with a noncanonical value is rejected with invalid: nip-cl-rejected, even though no such label can be stored.",
		"labels/values-and-limits.1", "labels/values-and-limits.3"),
		Run: func(t *framework.T) {
			t.Checking("labels/values-and-limits.1")
			c := t.Connect(t.Actor("owner"))
			keep := lbl(t, "keep")
			ch := createLabeled(t, c, "", fixtures.Open, keep)
			before := snapshot(t, c, ch)
			rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"remove-label", strings.ToUpper(keep)}), "remove-label uppercase", "invalid")
			expectUnchanged(t, c, ch, before, "rejected mutation")
		}})
	// "Label values and limits" — counts.
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/limits/1", framework.MUST,
			"A 9007 with 32 distinct labels is accepted and all 32 are published.",
			"labels/values-and-limits.5"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, maxLabels)
				ch := createLabeled(t, c, "", fixtures.Open, vs...)
				expectLabels(t, c, ch, vs...)
			}},
		{Case: framework.NewCase("labels/limits/2", framework.MUST,
			"A 9007 with 33 distinct labels is rejected with invalid: nip-cl-rejected and creates nothing.",
			"labels/values-and-limits.5", "labels/compatibility.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.5")
				c := t.Connect(t.Actor("owner"))
				ev, id := createEv(c.Actor(), "", fixtures.Open, nValues(t, maxLabels+1)...)
				rejectCL(t, c, ev, "33 labels", "invalid")
				goneChannel(t, c, id, "rejected create")
			}},
		{Case: framework.NewCase("labels/limits/3", framework.MUST,
			"A 9007 with 64 raw label tags (32 values, each twice) is accepted and stores the 32 distinct values.",
			"labels/values-and-limits.6"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, maxLabels)
				ch := createLabeled(t, c, "", fixtures.Open, append(vs, vs...)...)
				expectLabels(t, c, ch, vs...)
			}},
		{Case: framework.NewCase("labels/limits/4", framework.MUST,
			"A 9007 with 65 raw label tags is rejected even though they hold only two distinct values (the raw count is taken before deduplication).",
			"labels/values-and-limits.6"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, 2)
				raw := make([]string, maxRawTags+1)
				for i := range raw {
					raw[i] = vs[i%2]
				}
				ev, id := createEv(c.Actor(), "", fixtures.Open, raw...)
				rejectCL(t, c, ev, "65 raw label tags", "invalid")
				goneChannel(t, c, id, "rejected create")
			}},
		{Case: framework.NewCase("labels/limits/5", framework.MUST,
			"A mutation whose result would exceed 32 labels is rejected (nip-cl-rejected) before anything is applied.",
			"labels/values-and-limits.10").
			WithReading("The command itself is well formed; only the channel's state makes it exceed the limit. The draft fixes invalid: for malformed commands and restricted: for permission and lifecycle denials but names no prefix for a state limit, so either is accepted with the nip-cl-rejected marker and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, 33)
				ch := createLabeled(t, c, "", fixtures.Open, vs[:30]...)
				before := snapshot(t, c, ch)
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, vs[30:], nil), "add 3 labels to 30", "invalid", "restricted")
				t.Note("a mutation over the stored-label limit: %s", prefixOf(ok.Reason))
				t.Reading(clause.ReadingLabelsLimitPrefix, prefixOf(ok.Reason))
				expectUnchanged(t, c, ch, before, "rejected mutation")
			}},
		{Case: framework.NewCase("labels/limits/7", framework.MUST,
			"A mutation with 65 add-label/remove-label tags combined is rejected even though they hold two values; nothing is applied.",
			"labels/values-and-limits.7"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, 3)
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
		{Case: framework.NewCase("labels/limits/8", framework.MUST,
			"A mutation with exactly 64 add-label/remove-label tags (repeats included) is accepted.",
			"labels/values-and-limits.7"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, 3)
				ch := createLabeled(t, c, "", fixtures.Open, vs[1], vs[2])
				var add, rm []string
				for i := 0; i < 32; i++ {
					add = append(add, vs[0])
					rm = append(rm, vs[1])
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, add, rm), "64 raw mutation tags")
				expectLabels(t, c, ch, vs[0], vs[2])
			}},
	}...)
	// "Label values and limits" swept rather than
	// sampled — every disallowed byte class in every position, the arity of
	// every command tag on both kinds, and the counts with repeats and
	// absent-value removes. Each case checks many values on one connection
	// and names every value that was wrongly accepted.
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/grammar/18", framework.MUST,
			"Every byte outside the label alphabet (a-z 0-9 . _ : / -), as first, middle or last byte, and every 2-, 3- and 4-byte UTF-8 character is rejected on 9007 label and on 9002 add-label; the first byte must also not be one of . _ : / -; nothing is applied.",
			"labels/values-and-limits.1", "labels/values-and-limits.2", "labels/values-and-limits.3").
			WithReading("Printable values must be answered invalid: nip-cl-rejected. A rate-limited: answer (the draft's rate-limited: nip-cl-rejected, or a generic one) judges nothing: the command is sent again later, paced, and values the relay still rate-limits make the case unsupported with that reason, never a failure. A value with a control byte (NUL, a newline, DEL …) may instead be refused before command handling by the relay's generic event admission, with an ordinary NIP-01 refusal; that is accepted and noted. A trailing newline is swept like every other byte: a validator whose end anchor matches before a final newline accepts it and fails.").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.1")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open, lbl(t, "keep"))
				before := snapshot(t, c, ch)
				var accepted, unmarked []string
				type try struct {
					kind, id string
					value    LabelSweepValue
				}
				var tries []try
				var evs []*nostr.Event
				for _, s := range LabelSweepValues() {
					ev, id := createEv(c.Actor(), "", fixtures.Open, s.Value)
					tries = append(tries, try{"9007 label", id, s}, try{"9002 add-label", "", s})
					evs = append(evs, ev, mutationEv(c.Actor(), ch, []string{s.Value}, nil))
				}
				oks := t.PublishAll(c, evs)
				// A rate-limited answer judges nothing: the draft lists
				// rate-limited: nip-cl-rejected as a refusal by cause. Those
				// values are sent again, one at a time and paced, until they
				// are answered for what they are.
				limited := 0
				for i, ok := range oks {
					if rateLimited(ok) {
						limited++
						oks[i] = resendPaced(t, c, evs[i])
					}
				}
				var still []string
				for i, ok := range oks {
					try, s := tries[i], tries[i].value
					switch {
					case rateLimited(ok):
						still = append(still, fmt.Sprintf("%s %s: %q", try.kind, s.Name, ok.Reason))
					case ok.Accepted:
						accepted = append(accepted, fmt.Sprintf("%s %s (%q)", try.kind, s.Name, s.Value))
						if try.id != "" {
							t.Note("the create of %s was accepted: channel %s", s.Name, try.id)
						}
					case hasFixedPrefix(ok.Reason, "invalid: "+markRejected):
					case s.Control && !strings.Contains(ok.Reason, "nip-cl-"):
						unmarked = append(unmarked, fmt.Sprintf("%s %s: %q", try.kind, s.Name, ok.Reason))
					default:
						accepted = append(accepted, fmt.Sprintf("%s %s (%q) answered %q, not invalid: %s", try.kind, s.Name, s.Value, ok.Reason, markRejected))
					}
				}
				if len(unmarked) > 0 {
					t.Note("%d control-byte values were refused by generic admission (no nip-cl marker), e.g. %s", len(unmarked), unmarked[0])
				}
				if limited > 0 {
					t.Note("%d of %d sweep commands were answered rate-limited: and sent again, paced", limited, len(evs))
				}
				if len(accepted) > 0 {
					framework.Failf("%d of %d swept values were not rejected with invalid: %s:\n  %s", len(accepted), 2*len(LabelSweepValues()), markRejected, strings.Join(accepted, "\n  "))
				}
				expectUnchanged(t, c, ch, before, "swept rejections")
				if len(still) > 0 {
					t.Unsupported(fmt.Sprintf("the relay's rate limit left %d of %d sweep commands unjudged (still rate-limited after paced resends), e.g. %s", len(still), len(evs), still[0]))
				}
			}},
		{Case: framework.NewCase("labels/limits/9", framework.MUST,
			"The raw tag limit counts absent-value removes and repeats like any tag: 64 remove-label tags naming absent values are a no-op (OK true \"\", same snapshot), 65 are rejected with invalid: nip-cl-rejected; at 32 stored labels, re-adding a present value with absent removes is a no-op.",
			"labels/values-and-limits.7", "labels/add-remove.10", "labels/add-remove.13", "labels/add-remove.7"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.7")
				c := t.Connect(t.Actor("owner"))
				vs := make([]string, maxLabels)
				base := lbl(t, "full")
				for i := range vs {
					vs[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				ch := createLabeled(t, c, "", fixtures.Open, vs...)
				before := snapshot(t, c, ch)
				absent := lbl(t, "absent")
				rm := make([]string, maxRawTags)
				for i := range rm {
					rm[i] = fmt.Sprintf("%s-%d", absent, i%3)
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, rm), "64 absent-value removes")
				expectUnchanged(t, c, ch, before, "64 absent-value removes")
				rejectCL(t, c, mutationEv(c.Actor(), ch, nil, append(rm, absent+"-x")), "65 absent-value removes", "invalid")
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{vs[0]}, rm), "one present add and 64 absent removes (65 raw tags)", "invalid")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{vs[0], vs[0], vs[31]}, rm[:61]), "re-add present values with absent removes at 32 labels")
				expectUnchanged(t, c, ch, before, "no-ops at the stored-label limit")
			}},
		{Case: framework.NewCase("labels/limits/10", framework.MUST,
			"The stored-label limit counts distinct values, with repeats on both sides of it: a 9007 with 33 distinct values in 64 raw tags is rejected; at 31 labels, one new value repeated 20 times (plus absent removes) is accepted, two new values repeated are rejected with nip-cl-rejected (invalid: or restricted:, as labels/limits/5) and nothing is applied.",
			"labels/values-and-limits.10", "labels/values-and-limits.5"),
			Run: func(t *framework.T) {
				t.Checking("labels/values-and-limits.5")
				c := t.Connect(t.Actor("owner"))
				vs := make([]string, 34)
				base := lbl(t, "cnt")
				for i := range vs {
					vs[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				raw := append(append([]string{}, vs[:33]...), vs[:31]...)
				ev, id := createEv(c.Actor(), "", fixtures.Open, raw...)
				rejectCL(t, c, ev, "33 distinct values in 64 raw label tags", "invalid")
				goneChannel(t, c, id, "rejected create")
				ch := createLabeled(t, c, "", fixtures.Open, append(vs[:31], vs[:31]...)...)
				expectLabels(t, c, ch, vs[:31]...)
				add := make([]string, 20)
				for i := range add {
					add[i] = vs[31]
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, add, []string{lbl(t, "absent"), lbl(t, "absent")}), "one new value repeated 20 times at 31 labels")
				before := expectLabels(t, c, ch, vs[:32]...)
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, []string{vs[32], vs[33], vs[32], vs[33], vs[0]}, nil), "two new values, repeated, at 32 labels", "invalid", "restricted")
				t.Note("a mutation over the stored-label limit: %s (the draft names no prefix for it; see labels/limits/5)", prefixOf(ok.Reason))
				expectUnchanged(t, c, ch, before, "rejected mutation over the stored limit")
			}},
	}...)
	return out
}

// rateLimited reports whether an OK is a rate-limit refusal (NIP-01's
// rate-limited: prefix, with or without the nip-cl marker).
func rateLimited(ok fixtures.OK) bool {
	return !ok.Accepted && strings.HasPrefix(ok.Reason, "rate-limited:")
}

// resendPaced sends ev again, alone; while the relay answers
// rate-limited:, it pauses (from 250 ms, doubling to 2 s) and sends it once
// more, for at most the step deadline in all. It returns the last answer.
func resendPaced(t *framework.T, c *fixtures.Client, ev *nostr.Event) fixtures.OK {
	GinkgoHelper()
	deadline := time.Now().Add(t.Env.StepTimeout)
	for pause := 250 * time.Millisecond; ; pause = min(2*pause, 2*time.Second) {
		ok := t.Publish(c, ev)
		if !rateLimited(ok) || time.Now().Add(pause).After(deadline) {
			return ok
		}
		timer := time.NewTimer(pause)
		select {
		case <-timer.C:
		case <-t.Ctx().Done():
			timer.Stop()
			t.Must(t.Ctx().Err(), "pausing before a resend")
		}
	}
}

// nValues returns n distinct run-unique label values.
func nValues(t *framework.T, n int) []string {
	base := lbl(t, "n")
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%02d", base, i)
	}
	return out
}

// acceptValidLabel checks that a valid label value v is accepted on 9007
// and on add-label and published byte for byte.
func acceptValidLabel(t *framework.T, v string) {
	c := t.Connect(t.Actor("owner"))
	ch := createLabeled(t, c, "", fixtures.Open, v)
	expectLabels(t, c, ch, v)
	other := createLabeled(t, c, "", fixtures.Open)
	acceptNew(t, c, mutationEv(c.Actor(), other, []string{v}, nil), "add-label "+v)
	expectLabels(t, c, other, v)
}

// valueClause is the clause a grammar row's steps check: refused outright,
// never rewritten (labels/values-and-limits.3) for the values a relay could
// rewrite into valid ones, else its first clause of
// labels/values-and-limits (the value's grammar or length), else its first
// clause.
func valueClause(clauses []string) string {
	if slices.Contains(clauses, "labels/values-and-limits.3") {
		return "labels/values-and-limits.3"
	}
	for _, id := range clauses {
		if strings.HasPrefix(id, "labels/values-and-limits.") {
			return id
		}
	}
	return clauses[0]
}
