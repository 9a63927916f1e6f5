package labels

import (
	"fmt"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsGrammarSweepSpecs: "Label values and limits" swept rather than
// sampled — every disallowed byte class in every position, the arity of
// every command tag on both kinds, and the counts with repeats and
// absent-value removes. Each case checks many values on one connection
// and names every value that was wrongly accepted.
func labelsGrammarSweepSpecs() []framework.Spec {
	sec := "labels/values-and-limits"
	return []framework.Spec{
		{Case: framework.Heavy(framework.WithReading(lcase("labels/grammar/18", []string{"labels/values-and-limits.1", "labels/values-and-limits.2", "labels/values-and-limits.3"}, "grammar", sec, framework.MUST,
			"Every byte outside the label alphabet (a-z 0-9 . _ : / -), as first, middle or last byte, and every 2-, 3- and 4-byte UTF-8 character is rejected on 9007 label and on 9002 add-label; the first byte must also not be one of . _ : / -; nothing is applied."),
			"Printable values must be answered invalid: nip-cl-rejected. A rate-limited: answer (the draft's rate-limited: nip-cl-rejected, or a generic one) judges nothing: the command is sent again later, paced, and values the relay still rate-limits make the case unsupported with that reason, never a failure. A value with a control byte (NUL, a newline, DEL …) may instead be refused before command handling by the relay's generic event admission, with an ordinary NIP-01 refusal; that is accepted and noted. A trailing newline is swept like every other byte: a validator whose end anchor matches before a final newline accepts it and fails.")),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open, lbl(t, "keep"))
				before := snapshot(t, c, ch)
				var accepted, unmarked []string
				type try struct {
					kind, id string
					value    framework.LabelSweepValue
				}
				var tries []try
				var evs []*nostr.Event
				for _, s := range framework.LabelSweepValues() {
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
					framework.Failf("%d of %d swept values were not rejected with invalid: %s:\n  %s", len(accepted), 2*len(framework.LabelSweepValues()), markRejected, strings.Join(accepted, "\n  "))
				}
				expectUnchanged(t, c, ch, before, "swept rejections")
				if len(still) > 0 {
					t.Unsupported(fmt.Sprintf("the relay's rate limit left %d of %d sweep commands unjudged (still rate-limited after paced resends), e.g. %s", len(still), len(evs), still[0]))
				}
			}},
		{Case: lcase("labels/limits/9", []string{"labels/add-remove.10", "labels/add-remove.13", "labels/add-remove.7", "labels/values-and-limits.7"}, "limits", sec, framework.MUST,
			"The raw tag limit counts absent-value removes and repeats like any tag: 64 remove-label tags naming absent values are a no-op (OK true \"\", same snapshot), 65 are rejected with invalid: nip-cl-rejected; at 32 stored labels, re-adding a present value with absent removes is a no-op."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/limits/10", []string{"labels/values-and-limits.10", "labels/values-and-limits.5"}, "limits", sec, framework.MUST,
			"The stored-label limit counts distinct values, with repeats on both sides of it: a 9007 with 33 distinct values in 64 raw tags is rejected; at 31 labels, one new value repeated 20 times (plus absent removes) is accepted, two new values repeated are rejected with nip-cl-rejected (invalid: or restricted:, as labels/limits/5) and nothing is applied."),
			Run: func(t *framework.T) {
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
	}
}

// labelsAritySpecs: tag arity on every command tag, on 9007 and 9002.
func labelsAritySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.WithReading(lcase("labels/commands/17", []string{"labels/events.5", "labels/events.8", "labels/values-and-limits.8"}, "command-shape", "labels/events", framework.MUST,
			"Arity sweep: label, add-label, remove-label, h and t with no value, with one value plus an extra element, and (t) with a value, on 9007 and on 9002 (beside a valid add-label where the tag is not h), are each rejected with invalid: nip-cl-rejected and apply nothing; a 9007 whose over-long h tag names the existing channel may be refused with duplicate: nip-cl-rejected instead."),
			"A 9007 whose 3- or 4-element h tag names the existing channel is both malformed (invalid:) and a create of a used UUID (duplicate:), and the draft does not order the two checks: both are accepted (nip-cl-rejected) and noted as reading labels-malformed-used-h."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				keep := lbl(t, "keep")
				ch := createLabeled(t, c, "", fixtures.Open, keep)
				before := snapshot(t, c, ch)
				v := lbl(t, "arity")
				shapes := func(name string) []nostr.Tag {
					val := v
					if name == "h" {
						val = ch
					}
					return []nostr.Tag{{name}, {name, val, "extra"}, {name, val, labelNS, "more"}}
				}
				var wrong []string
				// check requires invalid: nip-cl-rejected, or one of the other
				// prefixes given; it returns the prefix seen.
				check := func(what string, ev *nostr.Event, also ...string) string {
					ok := t.Publish(c, ev)
					for _, p := range append([]string{"invalid"}, also...) {
						if !ok.Accepted && hasFixedPrefix(ok.Reason, p+": "+markRejected) {
							return p
						}
					}
					wrong = append(wrong, fmt.Sprintf("%s: %s", what, ok))
					return ""
				}
				for _, name := range []string{"label", "add-label", "remove-label", "t", "h"} {
					for _, tag := range shapes(name) {
						// 9007: a labeled create, plus the odd tag (h: replacing the h tag).
						id := fixtures.NewChannelID()
						tags := nostr.Tags{{"h", id}, {"name", "arity"}, {"channel_type", fixtures.TypeStream}, {"label", lbl(t, "ok")}}
						if name == "h" {
							tags[0] = tag
						} else {
							tags = append(tags, tag)
						}
						if name == "h" && len(tag) > 2 {
							// Malformed and naming the existing channel: the
							// draft does not order the two refusals.
							switch check(fmt.Sprintf("9007 with %q", []string(tag)), c.Actor().Event(fixtures.KindCreateGroup, tags, ""), "duplicate") {
							case "invalid":
								t.Reading(clause.ReadingLabelsMalformedUsedH, "invalid")
							case "duplicate":
								t.Reading(clause.ReadingLabelsMalformedUsedH, "duplicate")
							}
						} else {
							check(fmt.Sprintf("9007 with %q", []string(tag)), c.Actor().Event(fixtures.KindCreateGroup, tags, ""))
						}
						if name != "h" {
							goneChannel(t, c, id, fmt.Sprintf("9007 with %q", []string(tag)))
						}
						// 9002: a valid add-label plus the odd tag (h: replacing the h tag).
						if name == "h" {
							check(fmt.Sprintf("9002 with %q", []string(tag)), c.Actor().Event(fixtures.KindEditMetadata, nostr.Tags{tag, {"add-label", lbl(t, "ok")}}, ""))
						} else {
							check(fmt.Sprintf("9002 with %q", []string(tag)), fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "ok")}, tag))
						}
					}
				}
				// t with a well-formed value is misplaced on either kind.
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "ok"))
				check(`9007 with ["t", v]`, resign(c.Actor(), ev, nostr.Tag{"t", v}))
				goneChannel(t, c, id, `9007 with ["t", v]`)
				check(`9002 with ["t", v]`, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "ok")}, nostr.Tag{"t", v}))
				if len(wrong) > 0 {
					framework.Failf("%d malformed commands were not rejected with invalid: %s:\n  %s", len(wrong), markRejected, strings.Join(wrong, "\n  "))
				}
				expectUnchanged(t, c, ch, before, "rejected malformed mutations")
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the value of a rejected command")
			}},
	}
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
