package identity

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// labelRulesSpecs are the cases of identity/label-rules.
func labelRulesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/label-sweep/1", framework.MUST,
			"Every byte outside the identity label alphabet (a-z 0-9 . : -) — _, /, @, space, uppercase, NUL and the other control bytes, a trailing newline — as first, middle or last byte, and every 2-, 3- and 4-byte UTF-8 character, makes a 9007 or a 9002 with that t label rejected whole: no channel, the labels unchanged.",
			"identity/label-rules.2", "identity/label-rules.5").
			WithReading("The identity draft fixes no rejection prefix: any OK false is accepted. A trailing newline is swept like every other byte: a validator whose end anchor matches before a final newline accepts it and fails.").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.2")
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				var accepted []string
				values := identitySweepValues()
				var evs []*nostr.Event
				var what []string
				for _, s := range values {
					ev, id := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Labels: []string{s.Value}})
					evs = append(evs, ev, fixtures.EditChannel(c.Actor(), ch, tTags(s.Value)...))
					what = append(what, fmt.Sprintf("9007 %s (%q): channel %s", s.Name, s.Value, id), fmt.Sprintf("9002 %s (%q)", s.Name, s.Value))
				}
				for i, ok := range t.PublishAll(c, evs) {
					if ok.Accepted {
						accepted = append(accepted, what[i])
					} else {
						framework.CheckPrefix("OK", ok.Reason)
					}
				}
				if len(accepted) > 0 {
					framework.Failf("%d of %d swept values were accepted:\n  %s", len(accepted), 2*len(values), strings.Join(accepted, "\n  "))
				}
				t.Expect(metaLabels(t, c, ch)).To(Equal(labels), "labels after the rejected 9002s")
			}},
		{Case: framework.NewCase("identity/labels/17", framework.MUST,
			`A one-element ["t"] on a 9007 is no label: alone, the 9007 is refused (no channel) or creates a channel without labels; beside ["t",label], it is refused as an invalid or empty label (no channel) or ignored (the channel has exactly that label). An empty label is never stored.`,
			"identity/label-rules.2", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.2")
				c := t.Connect(t.Actor("creator"))
				for _, shape := range []struct {
					why    string
					labels []string
				}{{`9007 with ["t"] alone`, nil}, {`9007 with ["t"] and ["t",label]`, []string{freshLabel(t)}}} {
					ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Extra: append(nostr.Tags{{"t"}}, tTags(shape.labels...)...)})
					ok := t.Publish(c, ev)
					if !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						requireNoChannel(t, c, ch, "refused "+shape.why)
						t.Note("%s: refused (%s)", shape.why, ok.Reason)
						continue
					}
					requireIdentityAll(t, c, ch, fixtures.TypeStream, shape.labels, c.Actor().PubKey)
					t.Note("%s: accepted, the bare t tag ignored (labels %v)", shape.why, shape.labels)
				}
			}},
		{Case: framework.NewCase("identity/labels/2", framework.MUST,
			"A 9007 with 9 distinct labels is rejected and creates no channel.",
			"identity/label-rules.1", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.1")
				c := t.Connect(t.Actor("creator"))
				rejectCreate(t, c, tTags(freshLabels(t, 9)...), "9007 with 9 distinct labels")
			}},
		{Case: framework.NewCase("identity/labels/3", framework.MUST,
			"Repeated labels are stored once and do not count toward 8: 8 distinct labels plus repeats are accepted and listed once each.",
			"identity/label-rules.6"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 8)
				sent := append(append([]string{}, labels...), labels[0], labels[3], labels[7], labels[0])
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: sent})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				// The same on 9002.
				next := freshLabels(t, 8)
				sent = append(append([]string{}, next...), next[1], next[1], next[6])
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, tTags(sent...)...), "9002 with 8 distinct labels plus repeats")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/4", framework.MUST,
			"A 9007 whose labels break the grammar (uppercase, _, /, space, non-ASCII, 65 characters) is rejected whole and creates no channel.",
			"identity/label-rules.2", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.2")
				c := t.Connect(t.Actor("creator"))
				for _, bad := range invalidLabels(t) {
					rejectCreate(t, c, tTags(freshLabel(t), bad[0]), "9007 with a label with "+bad[1])
				}
			}},
		{Case: framework.NewCase("identity/labels/5", framework.MUST,
			"Labels of 1 and of 64 characters using every allowed character class (a-z 0-9 . : -) are accepted.",
			"identity/label-rules.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				base := freshLabel(t) + ".v1:x-"
				long := base + strings.Repeat("z", 64-len(base))
				t.Expect(long).To(HaveLen(64))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: []string{long, "q"}})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, []string{long, "q"}, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/6", framework.MUST,
			"A channel type name (stream, forum, dm, workflow, system) is refused as a label on 9007 and on 9002; a refused 9002 changes nothing: 39000-39002 keep every tag (type, labels, creator, name).",
			"identity/label-rules.3", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.3")
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				before := stateTags(t, c, ch)
				for _, name := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem} {
					rejectCreate(t, c, tTags(freshLabel(t), name), "9007 with the reserved label "+name)
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, tTags(name)...), "", "9002 with the reserved label "+name)
					requireStateUnchanged(t, c, ch, before, "after the refused 9002 with "+name)
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/7", framework.MUST,
			`["t",""] together with labels is rejected on 9007 (no channel) and on 9002 (39000-39002 unchanged: type, labels, creator and every other tag).`,
			"identity/label-rules.4", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.4")
				c := t.Connect(t.Actor("creator"))
				rejectCreate(t, c, nostr.Tags{{"t", freshLabel(t)}, {"t", ""}}, `9007 with a label and ["t",""]`)
				labels := freshLabels(t, 2)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				before := stateTags(t, c, ch)
				t.Reject(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}, nostr.Tag{"t", freshLabel(t)}), "", `9002 with ["t",""] and a label`)
				requireStateUnchanged(t, c, ch, before, `after the refused 9002 with ["t",""] and a label`)
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/14", framework.MUST,
			"A 9002 rejected for its labels (invalid, reserved, 9 distinct, mixed empty) applies nothing else: the rename and about in it do not happen.",
			"identity/label-rules.5"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 2)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				before := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				bads := []nostr.Tags{
					tTags("Upper-" + freshLabel(t)),
					tTags(freshLabel(t), fixtures.TypeForum),
					tTags(freshLabels(t, 9)...),
					{{"t", ""}, {"t", freshLabel(t)}},
				}
				for _, bad := range bads {
					tags := append(nostr.Tags{{"name", t.Unique("renamed")}, {"about", t.Unique("about")}}, bad...)
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, tags...), "", "9002 with a rename and bad labels")
				}
				after := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				t.Expect(framework.TagOf(after, "name")).To(Equal(framework.TagOf(before, "name")), "name after refused 9002s")
				t.Expect(framework.TagOf(after, "about")).To(Equal(framework.TagOf(before, "about")), "about after refused 9002s")
				t.Expect(labelsOf(after)).To(Equal(labels), "labels after refused 9002s")
			}},
		{Case: framework.NewCase("identity/labels/15", framework.MUST,
			"On 9002 too, 9 distinct labels are rejected (39000-39002 unchanged: type, labels, creator and every other tag) while 8 distinct are accepted.",
			"identity/label-rules.1", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.1")
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				before := stateTags(t, c, ch)
				t.Reject(c, fixtures.EditChannel(c.Actor(), ch, tTags(freshLabels(t, 9)...)...), "", "9002 with 9 distinct labels")
				requireStateUnchanged(t, c, ch, before, "after the refused 9002 with 9 distinct labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				eight := freshLabels(t, 8)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, tTags(eight...)...), "9002 with 8 distinct labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, eight, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/16", framework.MUST,
			"A 9002 whose labels break the grammar (uppercase, _, /, space, non-ASCII, 65 characters) is rejected and changes nothing: 39000-39002 keep every tag (type, labels, creator, name).",
			"identity/label-rules.2", "identity/label-rules.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/label-rules.2")
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				before := stateTags(t, c, ch)
				for _, bad := range invalidLabels(t) {
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, tTags(freshLabel(t), bad[0])...), "", "9002 with a label with "+bad[1])
					requireStateUnchanged(t, c, ch, before, "after the refused 9002 with a label with "+bad[1])
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/10", framework.MUST,
			`Repeated ["t",""] tags (and no other t tag) clear the labels like one.`,
			"identity/label-rules.7").
			WithReading(`Newest revision: "repeated ["t", ""] tags clear the set like one" (r1 allowed exactly one).`),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: freshLabels(t, 2)})
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}, nostr.Tag{"t", ""}, nostr.Tag{"t", ""}), `9002 with three ["t",""]`)
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
	}
}

// sweepValue is one value of the label grammar sweep.
type sweepValue struct {
	Name, Value string
	Control     bool // holds an ASCII control byte (may fail generic admission)
}

// identitySweepValues lists every ASCII byte outside a-z 0-9 . : - in first,
// middle and last position, and 2-, 3- and 4-byte UTF-8 characters there.
func identitySweepValues() []sweepValue {
	allowed := func(b byte) bool {
		return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '.' || b == ':' || b == '-'
	}
	var out []sweepValue
	for _, pos := range []string{"first", "middle", "last"} {
		var pieces []string
		for b := 0; b < 0x80; b++ {
			if !allowed(byte(b)) {
				pieces = append(pieces, string(rune(b)))
			}
		}
		pieces = append(pieces, "é", "€", "😀")
		for _, piece := range pieces {
			v := "a0" + piece
			switch pos {
			case "first":
				v = piece + "a0"
			case "middle":
				v = "a" + piece + "0"
			}
			out = append(out, sweepValue{Name: fmt.Sprintf("%s %+q", pos, piece), Value: v, Control: piece[0] < 0x20 || piece[0] == 0x7f})
		}
	}
	return out
}

// metaLabels returns the labels on a channel's current 39000.
func metaLabels(t *framework.T, c *fixtures.Client, ch string) []string {
	return labelsOf(t.MustStateEvent(c, fixtures.KindMetadata, ch))
}
