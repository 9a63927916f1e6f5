package identity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// identityLabelSweepSpecs: the identity draft's label rules swept: every
// byte outside its alphabet (a-z 0-9 . : -) in every position, and the
// arity of t tags, on 9007 and 9002.
func identityLabelSweepSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Heavy(idCase("identity/label-sweep/1", []string{"identity/label-rules.2", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"Every byte outside the identity label alphabet (a-z 0-9 . : -) — _, /, @, space, uppercase, NUL and the other control bytes, a trailing newline — as first, middle or last byte, and every 2-, 3- and 4-byte UTF-8 character, makes a 9007 or a 9002 with that t label rejected whole: no channel, the labels unchanged.",
			"The identity draft fixes no rejection prefix: any OK false is accepted. A trailing newline is swept like every other byte: a validator whose end anchor matches before a final newline accepts it and fails.")),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 1)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				var accepted []string
				values := identitySweepValues()
				var evs []*nostr.Event
				var what []string
				for _, s := range values {
					ev, id := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Labels: []string{s.Value}})
					evs = append(evs, ev, fixtures.EditChannel(c.Actor(), ch, idTTags(s.Value)...))
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
				t.Expect(idMetaLabels(t, c, ch)).To(Equal(labels), "labels after the rejected 9002s")
			}},
		{Case: idCase("identity/label-sweep/2", []string{"identity/labels.2", "identity/labels.3"}, "identity/labels", framework.MUST,
			"A t tag with an extra element (a label value, then more) on 9007 or 9002 is either rejected whole or read by its value: the channel then carries exactly that label, never the extra element.",
			"The identity draft writes label tags as [\"t\", <label>] but does not forbid further elements, and NIP-01 tags may carry them; rejecting the event and taking the value are both accepted and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				v, extra := idLabel(t), idLabel(t)
				ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: nostr.Tags{{"t", v, extra}}})
				if ok := t.Publish(c, ev); ok.Accepted {
					t.Note("9007 with a three-element t tag: accepted")
					t.Expect(idMetaLabels(t, c, ch)).To(Equal([]string{v}), "labels of the channel created with [\"t\", v, extra]")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a three-element t tag: rejected (%s)", ok.Reason)
					idRequireNoChannel(t, c, ch, "9007 with a three-element t tag")
					ch = idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{v}})
				}
				w, extra2 := idLabel(t), idLabel(t)
				if ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", w, extra2})); ok.Accepted {
					t.Note("9002 with a three-element t tag: accepted")
					got := idMetaLabels(t, c, ch)
					t.Expect(got).To(Equal([]string{w}), "labels after the 9002 with [\"t\", w, extra]")
					t.Expect(slices.Contains(got, extra2)).To(BeFalse())
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a three-element t tag: rejected (%s)", ok.Reason)
					t.Expect(idMetaLabels(t, c, ch)).To(Equal([]string{v}), "labels after the rejected 9002")
				}
			}},
	}
}

// identitySweepValues lists every ASCII byte outside a-z 0-9 . : - in first,
// middle and last position, and 2-, 3- and 4-byte UTF-8 characters there.
func identitySweepValues() []framework.LabelSweepValue {
	allowed := func(b byte) bool {
		return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '.' || b == ':' || b == '-'
	}
	var out []framework.LabelSweepValue
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
			out = append(out, framework.LabelSweepValue{Name: fmt.Sprintf("%s %+q", pos, piece), Value: v, Control: piece[0] < 0x20 || piece[0] == 0x7f})
		}
	}
	return out
}

// idMetaLabels returns the labels on a channel's current 39000.
func idMetaLabels(t *framework.T, c *fixtures.Client, ch string) []string {
	return idLabelsOf(t.MustStateEvent(c, fixtures.KindMetadata, ch))
}
