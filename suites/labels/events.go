package labels

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// eventsSpecs are the cases of labels/events.
func eventsSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/commands/17", framework.MUST,
			"Arity sweep: label, add-label, remove-label, h and t with no value, with one value plus an extra element, and (t) with a value, on 9007 and on 9002 (beside a valid add-label where the tag is not h), are each rejected with invalid: nip-cl-rejected and apply nothing; a 9007 whose over-long h tag names the existing channel may be refused with duplicate: nip-cl-rejected instead.",
			"labels/events.5", "labels/events.8", "labels/values-and-limits.8").
			WithReading("A 9007 whose 3- or 4-element h tag names the existing channel is both malformed (invalid:) and a create of a used UUID (duplicate:), and the draft does not order the two checks: both are accepted (nip-cl-rejected) and noted as reading labels-malformed-used-h."),
			Run: func(t *framework.T) {
				t.Checking("labels/events.5")
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
				// rowClause is the sentence the tag under test falls under
				// (label command arity, the h tag, a misplaced t); the
				// failure breaks the first wrong row's.
				rowClause := map[string]string{"label": "labels/values-and-limits.8", "add-label": "labels/values-and-limits.8", "remove-label": "labels/values-and-limits.8", "h": "labels/events.8", "t": "labels/events.5"}
				var first, under string
				// check requires invalid: nip-cl-rejected, or one of the other
				// prefixes given; it returns the prefix seen.
				check := func(what string, ev *nostr.Event, also ...string) string {
					ok := t.Publish(c, ev)
					for _, p := range append([]string{"invalid"}, also...) {
						if !ok.Accepted && hasFixedPrefix(ok.Reason, p+": "+markRejected) {
							return p
						}
					}
					if first == "" {
						first = under
					}
					wrong = append(wrong, fmt.Sprintf("%s: %s", what, ok))
					return ""
				}
				for _, name := range []string{"label", "add-label", "remove-label", "t", "h"} {
					under = rowClause[name]
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
				under = rowClause["t"]
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "ok"))
				check(`9007 with ["t", v]`, resign(c.Actor(), ev, nostr.Tag{"t", v}))
				goneChannel(t, c, id, `9007 with ["t", v]`)
				check(`9002 with ["t", v]`, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "ok")}, nostr.Tag{"t", v}))
				if len(wrong) > 0 {
					t.Violates(first, "%d malformed commands were not rejected with invalid: %s:\n  %s", len(wrong), markRejected, strings.Join(wrong, "\n  "))
				}
				expectUnchanged(t, c, ch, before, "rejected malformed mutations")
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the value of a rejected command")
			}},
		{Case: framework.NewCase("labels/commands/18", framework.MUST,
			"l and L are misplaced on a command whatever their namespace: an unmarked [\"l\",v], a foreign [\"l\",v,\"ugc\"], a differently cased [\"l\",v,\"NIP-CL\"], a foreign [\"L\",\"ugc\"] (alone or with its l) and a repeated [\"L\",\"nip-cl\"], on a labeled and an unlabeled 9007 and on a 9002 (beside add-label and alone), are each rejected with invalid: nip-cl-rejected and apply nothing.",
			"labels/events.5", "labels/events.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/events.5")
				c := t.Connect(t.Actor("owner"))
				keep := lbl(t, "keep")
				ch := createLabeled(t, c, "", fixtures.Open, keep)
				before := snapshot(t, c, ch)
				v := lbl(t, "ns")
				var wrong []string
				created := map[string]string{} // the 9007s' ids, by what they carried
				check := func(what string, ev *nostr.Event) {
					if ok := t.Publish(c, ev); ok.Accepted || !hasFixedPrefix(ok.Reason, "invalid: "+markRejected) {
						wrong = append(wrong, fmt.Sprintf("%s: %s", what, ok))
					}
				}
				for _, extra := range [][]nostr.Tag{
					{{"l", v}},
					{{"l", v, "ugc"}},
					{{"l", v, "NIP-CL"}},
					{{"L", "ugc"}},
					{{"L", "ugc"}, {"l", v, "ugc"}},
					{{"L", labelNS}, {"L", labelNS}},
				} {
					name := fmt.Sprintf("%q", extra)
					labeled, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "ok"))
					check("labeled 9007 with "+name, resign(c.Actor(), labeled, extra...))
					created[id] = "labeled 9007 with " + name
					bare, id2 := createEv(c.Actor(), "", fixtures.Open)
					check("unlabeled 9007 with "+name, resign(c.Actor(), bare, extra...))
					created[id2] = "unlabeled 9007 with " + name
					check("9002 add-label with "+name, fixtures.EditChannel(c.Actor(), ch, append([]nostr.Tag{{"add-label", lbl(t, "ok")}}, extra...)...))
					check("9002 with only "+name, fixtures.EditChannel(c.Actor(), ch, extra...))
				}
				if len(wrong) > 0 {
					t.Violates("labels/events.5", "%d commands carrying an l or L tag were not rejected with invalid: %s; l, L and t are misplaced on 9007 and 9002 whatever their namespace (labels/events.5):\n  %s",
						len(wrong), markRejected, strings.Join(wrong, "\n  "))
				}
				for id, what := range created {
					goneChannel(t, c, id, what)
				}
				expectUnchanged(t, c, ch, before, "rejected mutations")
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the value of a rejected command")
			}},
		{Case: framework.NewCase("labels/commands/19", framework.MUST,
			"The channel-identifier rule covers every h-tagged 9007, labels or not: an unlabeled 9007 whose h value is not a UUID or is the nil UUID, whose h tag has three elements, or that carries two h tags, is rejected with invalid: nip-cl-rejected and creates no channel under any id it names (an unlabeled 9007 with one valid UUID is the control).",
			"labels/events.7", "labels/events.8", "labels/scope.1"),
			Run: func(t *framework.T) {
				t.Checking("labels/events.7")
				c := t.Connect(t.Actor("owner"))
				// The control: the relay takes unlabeled h-tagged creation at all.
				expectLabels(t, c, createLabeled(t, c, "", fixtures.Open))
				notUUID := t.Unique("not-a-uuid")
				nilUUID := "00000000-0000-0000-0000-000000000000"
				long, first, second := fixtures.NewChannelID(), fixtures.NewChannelID(), fixtures.NewChannelID()
				var wrong []string
				created := map[string]string{} // the ids the 9007s named, by what they carried
				broken := ""                   // the clause of the first wrongly answered row
				for _, row := range []struct {
					what, clause string
					h            nostr.Tags
					ids          []string
				}{
					{"an h value that is not a UUID", "labels/events.8", nostr.Tags{{"h", notUUID}}, []string{notUUID}},
					{"the nil UUID", "labels/events.8", nostr.Tags{{"h", nilUUID}}, []string{nilUUID}},
					{"a three-element h tag", "labels/events.8", nostr.Tags{{"h", long, "extra"}}, []string{long}},
					{"two h tags", "labels/events.7", nostr.Tags{{"h", first}, {"h", second}}, []string{first, second}},
				} {
					tags := append(append(nostr.Tags{}, row.h...), nostr.Tag{"name", "unlabeled bad h"}, nostr.Tag{"channel_type", fixtures.TypeStream})
					if ok := t.Publish(c, c.Actor().Event(fixtures.KindCreateGroup, tags, "")); ok.Accepted || !hasFixedPrefix(ok.Reason, "invalid: "+markRejected) {
						wrong = append(wrong, fmt.Sprintf("unlabeled 9007 with %s %q (%s): %s", row.what, []nostr.Tag(row.h), row.clause, ok))
						if broken == "" {
							broken = row.clause
						}
					}
					for _, id := range row.ids {
						created[id] = "unlabeled 9007 with " + row.what
					}
				}
				if len(wrong) > 0 {
					t.Violates(broken, "%d unlabeled h-tagged creations with a malformed channel identifier were not rejected with invalid: %s; the rule covers every h-tagged 9007:\n  %s",
						len(wrong), markRejected, strings.Join(wrong, "\n  "))
				}
				for id, what := range created {
					goneChannel(t, c, id, what)
				}
			}},
		{Case: framework.NewCase("labels/commands/16", framework.MUST,
			"A label mutation without an h tag is rejected with invalid: nip-cl-rejected.",
			"labels/events.9"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev := c.Actor().Event(fixtures.KindEditMetadata, nostr.Tags{{"add-label", lbl(t, "no-h")}}, "")
				rejectCL(t, c, ev, "mutation without h", "invalid")
			}},
	}
	// "Events" — command shape, misplaced tags, the h tag.
	misplacedCreate := []struct {
		id      string
		clauses []string
		name    string
		tag     func(v string) nostr.Tag
	}{
		{"labels/commands/1", []string{"labels/events.3", "labels/events.6", "labels/initial-labels.6", "labels/responses.10"}, "add-label", func(v string) nostr.Tag { return nostr.Tag{"add-label", v} }},
		{"labels/commands/2", []string{"labels/events.3", "labels/events.6"}, "remove-label", func(v string) nostr.Tag { return nostr.Tag{"remove-label", v} }},
		{"labels/commands/3", []string{"labels/events.5", "labels/events.6"}, "l", func(v string) nostr.Tag { return nostr.Tag{"l", v, labelNS} }},
		{"labels/commands/4", []string{"labels/events.5", "labels/events.6"}, "L", func(string) nostr.Tag { return nostr.Tag{"L", labelNS} }},
		{"labels/commands/5", []string{"labels/events.5", "labels/events.6", "labels/initial-labels.6"}, "t", func(v string) nostr.Tag { return nostr.Tag{"t", v} }},
	}
	for _, row := range misplacedCreate {
		row := row
		out = append(out, framework.Spec{Case: framework.NewCase(row.id, framework.MUST,
			fmt.Sprintf("A 9007 carrying a misplaced %q tag is rejected with invalid: nip-cl-rejected (labeled or not) and creates nothing.", row.name),
			row.clauses...),
			Run: func(t *framework.T) {
				t.Checking(row.clauses[0])
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "mis")
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "ok"))
				ev = resign(c.Actor(), ev, row.tag(v))
				t.Checking(row.clauses[0]) // the refusal of the misplaced tag
				rejectCL(t, c, ev, "labeled 9007 with "+row.name, "invalid")
				t.Checking("labels/events.6")
				goneChannel(t, c, id, "rejected create")
				ev2, id2 := createEv(c.Actor(), "", fixtures.Open)
				ev2 = resign(c.Actor(), ev2, row.tag(v))
				t.Checking(row.clauses[0])
				rejectCL(t, c, ev2, "unlabeled 9007 with "+row.name, "invalid")
				t.Checking("labels/events.6")
				goneChannel(t, c, id2, "rejected create")
			}})
	}
	misplacedEdit := []struct {
		id      string
		clauses []string
		name    string
		tag     func(v string) nostr.Tag
	}{
		{"labels/commands/6", []string{"labels/events.4", "labels/events.6"}, "label", func(v string) nostr.Tag { return nostr.Tag{"label", v} }},
		{"labels/commands/7", []string{"labels/events.5", "labels/events.6"}, "l", func(v string) nostr.Tag { return nostr.Tag{"l", v, labelNS} }},
		{"labels/commands/8", []string{"labels/events.5", "labels/events.6"}, "L", func(string) nostr.Tag { return nostr.Tag{"L", labelNS} }},
		{"labels/commands/9", []string{"labels/events.5", "labels/events.6"}, "t", func(v string) nostr.Tag { return nostr.Tag{"t", v} }},
	}
	for _, row := range misplacedEdit {
		row := row
		out = append(out, framework.Spec{Case: framework.NewCase(row.id, framework.MUST,
			fmt.Sprintf("A 9002 carrying a misplaced %q tag is rejected with invalid: nip-cl-rejected, alone or beside add-label, and nothing is applied.", row.name),
			row.clauses...),
			Run: func(t *framework.T) {
				t.Checking(row.clauses[0]) // the refusal of the misplaced tag
				c := t.Connect(t.Actor("owner"))
				keep := lbl(t, "keep")
				ch := createLabeled(t, c, "", fixtures.Open, keep)
				before := snapshot(t, c, ch)
				v := lbl(t, "mis")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "ok")}, row.tag(v)), "add-label with "+row.name, "invalid")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, row.tag(v)), "9002 with only "+row.name, "invalid")
				t.Checking("labels/events.6")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}})
	}
	out = append(out,
		framework.Spec{Case: framework.NewCase("labels/commands/10", framework.MUST,
			"A labeled 9007 with two h tags is rejected with invalid: nip-cl-rejected; neither UUID gets a channel.",
			"labels/events.7", "labels/initial-labels.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/events.7")
				c := t.Connect(t.Actor("owner"))
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "two-h"))
				other := fixtures.NewChannelID()
				ev = resign(c.Actor(), ev, nostr.Tag{"h", other})
				rejectCL(t, c, ev, "9007 with two h tags", "invalid")
				goneChannel(t, c, id, "first h")
				goneChannel(t, c, other, "second h")
			}},
		framework.Spec{Case: framework.NewCase("labels/commands/11", framework.MUST,
			"A label mutation with two h tags (the same channel twice, or two channels) is rejected with invalid: nip-cl-rejected; nothing is applied.",
			"labels/events.7"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := createLabeled(t, c, "", fixtures.Open)
				b := createLabeled(t, c, "", fixtures.Open)
				ba, bb := snapshot(t, c, a), snapshot(t, c, b)
				v := lbl(t, "two-h")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), a, nostr.Tag{"h", a}, nostr.Tag{"add-label", v}), "h twice", "invalid")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), a, nostr.Tag{"h", b}, nostr.Tag{"add-label", v}), "two channels", "invalid")
				expectUnchanged(t, c, a, ba, "first channel")
				expectUnchanged(t, c, b, bb, "second channel")
			}},
		framework.Spec{Case: framework.NewCase("labels/commands/12", framework.MUST,
			"A labeled 9007 whose h value is not a UUID, or is the nil UUID, or whose h tag has three elements, is rejected with invalid: nip-cl-rejected.",
			"labels/events.8"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "bad-h")
				for _, h := range []nostr.Tag{{"h", "not-a-uuid"}, {"h", "00000000-0000-0000-0000-000000000000"}, {"h", fixtures.NewChannelID(), "extra"}} {
					ev := c.Actor().Event(fixtures.KindCreateGroup, nostr.Tags{h, {"name", "bad h"}, {"channel_type", "stream"}, {"label", v}}, "")
					rejectCL(t, c, ev, fmt.Sprintf("9007 with %v", []string(h)), "invalid")
				}
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the label of the rejected creates")
			}},
		framework.Spec{Case: framework.NewCase("labels/commands/13", framework.MUST,
			"A label mutation whose h value is not a UUID or is the nil UUID is rejected with invalid: nip-cl-rejected.",
			"labels/events.8"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				for _, h := range []string{"not-a-uuid", "00000000-0000-0000-0000-000000000000"} {
					rejectCL(t, c, mutationEv(c.Actor(), h, []string{lbl(t, "x")}, nil), "mutation with h "+h, "invalid")
				}
			}},
		framework.Spec{Case: framework.NewCase("labels/commands/14", framework.MUST,
			"A labeled 9007 without an h tag is rejected with invalid: nip-cl-rejected and creates no channel.",
			"labels/events.10"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "no-h")
				spec := &fixtures.ChannelSpec{NoH: true, Type: fixtures.TypeStream, Extra: labelTags(v)}
				rejectCL(t, c, fixtures.CreateChannel(c.Actor(), spec), "labeled 9007 without h", "invalid")
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the label")
			}},
	)
	return out
}

// deleteObserved sends a NIP-09 kind 5 for each command and waits until
// the relay no longer serves it by id; a relay that does not serve the
// commands by id before, refuses a kind 5 or keeps serving a command after
// it makes the case unsupported (NIP-09 lets a relay keep deleted events),
// so a case about evidence surviving a deletion never passes without one.
func deleteObserved(t *framework.T, c *fixtures.Client, evs ...*nostr.Event) {
	GinkgoHelper()
	ids := framework.IDs(evs)
	byID := nostr.Filter{IDs: ids}
	if r := t.QueryResult(c, byID); r.Closed || len(r.Events) != len(evs) {
		t.Unsupported(fmt.Sprintf("the relay does not serve the %d stored commands by id to their author (%d event(s), CLOSED %q): a NIP-09 deletion of them cannot be observed", len(evs), len(r.Events), r.ClosedReason))
	}
	for _, ev := range evs {
		ok := t.Publish(c, c.Actor().Event(5, nostr.Tags{{"e", ev.ID}, {"k", fmt.Sprint(ev.Kind)}}, ""))
		if !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			t.Unsupported(fmt.Sprintf("the relay refused the NIP-09 deletion request for the kind %d command: %s", ev.Kind, ok))
		}
	}
	// A relay may apply a deletion asynchronously: wait for it.
	if !t.WithinDeferred(func(g Gomega) { g.Expect(t.QueryResult(c, byID).Events).To(BeEmpty()) }) {
		t.Unsupported("the relay accepted the kind 5 requests but still serves a command by id (NIP-09 lets it keep deleted events): evidence surviving a deletion cannot be observed")
	}
	t.Note("kind 5 for %d commands; none reads by id any more", len(evs))
}
