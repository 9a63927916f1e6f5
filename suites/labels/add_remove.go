package labels

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// addRemoveSpecs are the cases of labels/add-remove.
func addRemoveSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/add-remove/13", framework.MUST,
			"A label mutation never also changes topic, purpose, TTL or the NIP-29 visibility flags (private, hidden): each such command is rejected with invalid: nip-cl-rejected and applies nothing, or — where the relay has no such field — its label operation applies and the field stays unchanged in the 39000.",
			"labels/add-remove.2").
			WithReading("The draft names these fields but not their tag names; the case sends [\"topic\"], [\"purpose\"], [\"ttl\"], [\"private\"] and [\"hidden\"]. A relay that rejects the command keeps the label-only rule; a relay that does not know the tag and ignores it changes no field either. Both are accepted and noted per tag; applying the field with the label operation fails."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				rows := []struct {
					tag nostr.Tag
					// changed reports whether the snapshot shows the field set by tag.
					changed func(ev *nostr.Event) bool
				}{
					{nostr.Tag{"topic", "mixed-topic"}, func(ev *nostr.Event) bool { v, _ := fixtures.TagValue(ev, "topic"); return v == "mixed-topic" }},
					{nostr.Tag{"purpose", "mixed-purpose"}, func(ev *nostr.Event) bool { v, _ := fixtures.TagValue(ev, "purpose"); return v == "mixed-purpose" }},
					{nostr.Tag{"ttl", "3600"}, func(ev *nostr.Event) bool { v, _ := fixtures.TagValue(ev, "ttl"); return v == "3600" }},
					{nostr.Tag{"private"}, func(ev *nostr.Event) bool { return ev.Tags.Find("private") != nil }},
					{nostr.Tag{"hidden"}, func(ev *nostr.Event) bool { return ev.Tags.Find("hidden") != nil }},
				}
				want := []string{a}
				for _, row := range rows {
					x := lbl(t, "x")
					before := snapshot(t, c, ch)
					t.Expect(row.changed(before)).To(BeFalse(), "the %q field is already set before the case sets it", row.tag[0])
					ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", x}, row.tag))
					if !ok.Accepted {
						requireRejected(t, ok, "add-label with "+row.tag[0], "invalid")
						expectUnchanged(t, c, ch, before, "rejected add-label with "+row.tag[0])
						t.Note("add-label with %q: rejected (%s)", row.tag[0], prefixOf(ok.Reason))
						mixedReading(t, row.tag[0], "rejected")
						continue
					}
					t.Expect(ok.Reason).To(Equal(""), "an accepted label mutation answers OK true \"\": %s", ok)
					want = append(want, x)
					after := expectLabels(t, c, ch, want...)
					t.Expect(row.changed(after)).To(BeFalse(), "the label mutation with %q also changed that field: %v", row.tag[0], after.Tags)
					t.Note("add-label with %q: accepted, the tag was ignored (the field is unchanged)", row.tag[0])
					mixedReading(t, row.tag[0], "ignored")
				}
			}},
		{Case: framework.NewCase("labels/add-remove/14", framework.MUST,
			"A combined no-op — adding a present value and removing an absent one in one command — answers OK true \"\", keeps the snapshot's id and created_at, and its exact retry answers duplicate: nip-cl-committed.",
			"labels/add-remove.10", "labels/add-remove.7", "labels/add-remove.9", "labels/responses.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.7")
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				before := snapshot(t, c, ch)
				noop := mutationEv(c.Actor(), ch, []string{a, b, a}, []string{lbl(t, "absent"), lbl(t, "absent")})
				acceptNew(t, c, noop, "add present values and remove absent ones")
				expectUnchanged(t, c, ch, before, "combined no-op")
				acceptCommitted(t, c, noop, "retry the combined no-op")
				expectUnchanged(t, c, ch, before, "combined no-op and its retry")
				expectLabels(t, c, ch, a, b)
			}},
		{Case: framework.NewCase("labels/add-remove/12", framework.MUST,
			"Malformed or unknown tags never let a label operation skip the owner/admin check: a member's malformed or odd mutation is rejected and applies nothing.",
			"labels/add-remove.4"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				for _, tags := range [][]nostr.Tag{
					{{"add-label", lbl(t, "x")}, {"x-unknown", "1"}},
					{{"add-label", lbl(t, "x"), "extra"}},
					{{"add-label", lbl(t, "x")}, {"label", lbl(t, "y")}},
					{{"remove-label", a}, {"h", ch}},
				} {
					rejectCL(t, member, fixtures.EditChannel(member.Actor(), ch, tags...), fmt.Sprintf("member mutation %v", tags), "restricted", "invalid")
				}
				expectUnchanged(t, owner, ch, before, "member mutations")
			}},
		{Case: framework.NewCase("labels/add-remove/16", framework.MUST,
			"A label mutation carrying channel_type (a creation tag) beside add-label is label-only or nothing: it is refused with invalid: nip-cl-rejected and applies nothing, or the tag is ignored and only the label is added; the channel's type never changes.",
			"labels/add-remove.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, a)
				before := snapshot(t, c, ch)
				ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", x}, nostr.Tag{"channel_type", fixtures.TypeForum}))
				if !ok.Accepted {
					requireRejected(t, ok, "add-label with [\"channel_type\",\"forum\"]", "invalid")
					expectUnchanged(t, c, ch, before, "refused add-label with channel_type")
					t.Note("add-label beside channel_type: refused (%s)", ok.Reason)
					return
				}
				if ok.Reason != "" {
					framework.Failf(`add-label with ["channel_type","forum"]: an accepted label mutation answers ["OK",…,true,""], got %s`, ok)
				}
				after := expectLabels(t, c, ch, a, x)
				if typ := typeOf(after); typ != fixtures.TypeStream {
					framework.Failf("add-label with [\"channel_type\",\"forum\"] was accepted and also changed the channel type: the snapshot's t tag is %q, expected %q", typ, fixtures.TypeStream)
				}
				t.Note("add-label beside channel_type: tag ignored, label applied")
			}},
		{Case: framework.NewCase("labels/limits/6", framework.MUST,
			"The resulting set decides the stored-label limit: with 32 labels, adding one and removing another in one command is accepted.",
			"labels/add-remove.13"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				vs := nValues(t, 33)
				ch := createLabeled(t, c, "", fixtures.Open, vs[:32]...)
				acceptNew(t, c, mutationEv(c.Actor(), ch, vs[32:], vs[:1]), "add 1 remove 1 at 32")
				expectLabels(t, c, ch, vs[1:]...)
			}},
	}
	// "Add and remove labels: kind 9002".
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/add-remove/1", framework.MUST,
			"add-label adds a value and keeps every other label.",
			"labels/add-remove.14", "labels/add-remove.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.3")
				c := t.Connect(t.Actor("owner"))
				a, b, x := lbl(t, "a"), lbl(t, "b"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
				expectLabels(t, c, ch, a, b, x)
			}},
		{Case: framework.NewCase("labels/add-remove/2", framework.MUST,
			"remove-label removes a value and keeps every other label.",
			"labels/add-remove.14"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b, x := lbl(t, "a"), lbl(t, "b"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a, b, x)
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{b}), "remove")
				expectLabels(t, c, ch, a, x)
			}},
		{Case: framework.NewCase("labels/add-remove/3", framework.MUST,
			"One command with disjoint adds and removes yields (L ∪ A) \\ R.",
			"labels/add-remove.6"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b, x, y := lbl(t, "a"), lbl(t, "b"), lbl(t, "x"), lbl(t, "y")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x, y, x}, []string{a, a}), "add and remove")
				expectLabels(t, c, ch, b, x, y)
			}},
		{Case: framework.NewCase("labels/add-remove/4", framework.MUST,
			"A command whose add-label and remove-label values intersect is rejected with invalid: nip-cl-rejected and nothing is applied.",
			"labels/add-remove.5", "labels/responses.10", "labels/responses.5", "labels/responses.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.5")
				c := t.Connect(t.Actor("owner"))
				a, x, y := lbl(t, "a"), lbl(t, "x"), lbl(t, "y")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{x, y}, []string{y}), "overlapping add/remove", "invalid")
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{a}, []string{a}), "overlap on an existing label", "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}},
		{Case: framework.NewCase("labels/add-remove/5", framework.MUST,
			"Adding an existing label is a no-op: OK true \"\" and the snapshot keeps its id and created_at.",
			"labels/add-remove.10", "labels/add-remove.11", "labels/add-remove.7", "labels/responses.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.7")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{a}, nil), "add existing")
				t.Checking("labels/add-remove.11")
				expectUnchanged(t, c, ch, before, "no-op add")
			}},
		{Case: framework.NewCase("labels/add-remove/6", framework.MUST,
			"Removing an absent label is a no-op: OK true \"\" and the snapshot keeps its id and created_at.",
			"labels/add-remove.10", "labels/add-remove.11", "labels/add-remove.7"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.7")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{lbl(t, "absent")}), "remove absent")
				t.Checking("labels/add-remove.11")
				expectUnchanged(t, c, ch, before, "no-op remove")
				empty := createLabeled(t, c, "", fixtures.Open)
				before = snapshot(t, c, empty)
				acceptNew(t, c, mutationEv(c.Actor(), empty, nil, []string{a}), "remove from an empty set")
				t.Checking("labels/add-remove.11")
				expectUnchanged(t, c, empty, before, "no-op remove on an empty set")
			}},
		{Case: framework.NewCase("labels/add-remove/7", framework.MUST,
			"Labels a command does not name are preserved byte for byte, whatever their prefix.",
			"labels/add-remove.14", "labels/scope.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.14")
				c := t.Connect(t.Actor("owner"))
				keep := []string{"0", "a._:/-z", "team:" + lbl(t, "infra"), "workflow/" + lbl(t, "build"), "stream"}
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, keep...)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove")
				expectLabels(t, c, ch, keep...)
			}},
		{Case: framework.NewCase("labels/add-remove/8", framework.MUST,
			"A 9002 without label operations is an ordinary edit: name and about change and the labels are kept.",
			"labels/add-remove.15", "labels/compatibility.1", "labels/serialization.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.15")
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", name}, nostr.Tag{"about", "about " + name}), "ordinary edit")
				ev := expectLabels(t, c, ch, a, b)
				t.Expect(framework.TagOf(ev, "name")).To(Equal(name))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "false"}), "unarchive")
				expectLabels(t, c, ch, a, b)
			}},
		{Case: framework.NewCase("labels/add-remove/9", framework.MUST,
			"A label mutation that also changes name, about, visibility, archive state, topic, purpose or TTL is rejected with invalid: nip-cl-rejected and nothing is applied (the snapshot stays the same event, the channel stays open and unarchived); a relay may instead ignore a topic, purpose, ttl or visibility tag beside a label operation as long as nothing but the labels changes.",
			"labels/add-remove.2", "labels/responses.5").
			WithReading("name, about and archived are fields every relay keeps: beside a label operation they are refused. The draft gives no tag names for topic, purpose or TTL, and visibility is NIP-29's private flag (the harness also sends [\"visibility\",\"private\"]): a relay may refuse those commands (invalid:, nothing applied) or ignore the tag, applying the label operation only. Both are accepted and noted per tag (reading labels-mixed-extended-fields for topic, purpose and ttl); a command that changes the field fails."),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.2")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				// Fields every relay keeps: refused outright.
				for _, extra := range []nostr.Tag{{"name", "mixed"}, {"about", "mixed"}, {"archived", "true"}} {
					rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "x")}, extra), "add-label with "+extra[0], "invalid")
					rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, extra, nostr.Tag{"remove-label", a}), "remove-label with "+extra[0], "invalid")
				}
				expectUnchanged(t, c, ch, before, "rejected mixed edits")
				// Fields a relay may not have (topic, purpose, ttl) and the
				// private flag in both spellings: refused, or ignored with
				// only the label operation applied.
				labels := []string{a}
				for _, extra := range []nostr.Tag{{"visibility", "private"}, {"private"}, {"topic", "mixed-topic"}, {"purpose", "mixed-purpose"}, {"ttl", "3600"}} {
					x := lbl(t, "x")
					if mixedLabelOp(t, c, ch, "add-label with "+fmt.Sprintf("%q", []string(extra)),
						fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", x}, extra), extra, append(slices.Clone(labels), x)) {
						labels = append(labels, x)
						if mixedLabelOp(t, c, ch, "remove-label with "+fmt.Sprintf("%q", []string(extra)),
							fixtures.EditChannel(c.Actor(), ch, extra, nostr.Tag{"remove-label", x}), extra, labels[:len(labels)-1]) {
							labels = labels[:len(labels)-1]
						}
					}
				}
				// Nothing was applied behind the answers either: the channel
				// is still open to an outsider and not archived (a
				// label-only mutation is still accepted).
				outsider := t.Connect(t.Actor("outsider"))
				t.Expect(framework.DTags(t.Query(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))).To(Equal([]string{ch}), "the channel is still open to an outsider after the mixed edits")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "after")}, nil), "a label-only mutation after the mixed edits (the channel is not archived)")
			}},
		{Case: framework.NewCase("labels/add-remove/10", framework.MUST,
			"A no-op is validated and authorized like any mutation: a member's no-op is rejected with restricted: nip-cl-rejected, a malformed no-op with invalid: nip-cl-rejected.",
			"labels/add-remove.8"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				rejectCL(t, member, mutationEv(member.Actor(), ch, []string{a}, nil), "member no-op", "restricted")
				rejectCL(t, owner, fixtures.EditChannel(owner.Actor(), ch, nostr.Tag{"add-label", a, "x"}), "malformed no-op", "invalid")
				expectUnchanged(t, owner, ch, before, "rejected no-ops")
			}},
		{Case: framework.NewCase("labels/add-remove/11", framework.MUST,
			"Removing the last label publishes a snapshot without L or l; removing it again is a no-op that publishes nothing.",
			"labels/add-remove.10", "labels/add-remove.11", "labels/snapshot.5"),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.10")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "last")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				first := mutationEv(c.Actor(), ch, nil, []string{a})
				acceptNew(t, c, first, "remove the last label")
				before := expectLabels(t, c, ch)
				// Signed one second before the first, so it is always a different event.
				again := mutationAt(c.Actor(), ch, nil, []string{a}, time.Unix(int64(first.CreatedAt)-1, 0))
				acceptNew(t, c, again, "remove it again (a new event)")
				t.Checking("labels/add-remove.11")
				expectUnchanged(t, c, ch, before, "no-op")
			}},
		{Case: framework.NewCase("labels/add-remove/17", framework.MUST,
			"A label-only 9002 that also carries an envelope or authentication tag (NIP-89 client, NIP-40 expiration, NIP-13 nonce, NIP-70 [\"-\"]), one tag per command, is accepted and applied: each adds its value and keeps every other label.",
			"labels/add-remove.3", "labels/add-remove.14").
			WithReading("The draft: \"Required envelope and authentication tags remain permitted\" beside a label mutation; the tags are those of published NIPs a client or its relay may require. [\"-\"] is sent only on a connection authenticated as the author (NIP-70 lets a relay refuse a protected event otherwise); without AUTH it is left out, noted."),
			Run: func(t *framework.T) {
				t.Checking("labels/add-remove.3")
				c := t.Connect(t.Actor("owner"))
				want := []string{lbl(t, "kept")}
				ch := createLabeled(t, c, "", fixtures.Open, want[0])
				for _, env := range []struct {
					name string
					tag  nostr.Tag
				}{
					{"client", nostr.Tag{"client", "nipcl-conform"}},
					{"expiration", nostr.Tag{"expiration", strconv.FormatInt(time.Now().Add(24*time.Hour).Unix(), 10)}},
					{"nonce", nostr.Tag{"nonce", "0", "0"}},
					{"protected", nostr.Tag{"-"}},
				} {
					if env.name == "protected" && !c.Authed() {
						t.Note("the connection is not authenticated (the relay sent no challenge): the [\"-\"] row is left out")
						continue
					}
					x := lbl(t, env.name)
					ev := fixtures.EditChannel(c.Actor(), ch, append(labelOps([]string{x}, nil), env.tag)...)
					acceptNew(t, c, ev, fmt.Sprintf("label-only 9002 adding %s with the %s tag %v", x, env.name, env.tag))
					want = append(want, x)
					expectLabels(t, c, ch, want...)
				}
			}},
	}...)
	return out
}
