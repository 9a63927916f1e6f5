package labels

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsCommandSpecs: "Events" — command shape, misplaced tags, the h tag.
func labelsCommandSpecs() []framework.Spec {
	sec := "labels/events"
	var out []framework.Spec

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
		out = append(out, framework.Spec{Case: lcase(row.id, row.clauses, "command-shape", sec, framework.MUST,
			fmt.Sprintf("A 9007 carrying a misplaced %q tag is rejected with invalid: nip-cl-rejected (labeled or not) and creates nothing.", row.name)),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "mis")
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "ok"))
				ev = resign(c.Actor(), ev, row.tag(v))
				rejectCL(t, c, ev, "labeled 9007 with "+row.name, "invalid")
				goneChannel(t, c, id, "rejected create")
				ev2, id2 := createEv(c.Actor(), "", fixtures.Open)
				ev2 = resign(c.Actor(), ev2, row.tag(v))
				rejectCL(t, c, ev2, "unlabeled 9007 with "+row.name, "invalid")
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
		out = append(out, framework.Spec{Case: lcase(row.id, row.clauses, "command-shape", sec, framework.MUST,
			fmt.Sprintf("A 9002 carrying a misplaced %q tag is rejected with invalid: nip-cl-rejected, alone or beside add-label, and nothing is applied.", row.name)),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				keep := lbl(t, "keep")
				ch := createLabeled(t, c, "", fixtures.Open, keep)
				before := snapshot(t, c, ch)
				v := lbl(t, "mis")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "ok")}, row.tag(v)), "add-label with "+row.name, "invalid")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, row.tag(v)), "9002 with only "+row.name, "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}})
	}
	out = append(out,
		framework.Spec{Case: lcase("labels/commands/10", []string{"labels/events.7", "labels/initial-labels.6"}, "command-shape", sec, framework.MUST, "A labeled 9007 with two h tags is rejected with invalid: nip-cl-rejected; neither UUID gets a channel."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev, id := createEv(c.Actor(), "", fixtures.Open, lbl(t, "two-h"))
				other := fixtures.NewChannelID()
				ev = resign(c.Actor(), ev, nostr.Tag{"h", other})
				rejectCL(t, c, ev, "9007 with two h tags", "invalid")
				goneChannel(t, c, id, "first h")
				goneChannel(t, c, other, "second h")
			}},
		framework.Spec{Case: lcase("labels/commands/11", []string{"labels/events.7"}, "command-shape", sec, framework.MUST, "A label mutation with two h tags (the same channel twice, or two channels) is rejected with invalid: nip-cl-rejected; nothing is applied."),
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
		framework.Spec{Case: lcase("labels/commands/12", []string{"labels/events.8"}, "command-shape", sec, framework.MUST, "A labeled 9007 whose h value is not a UUID, or is the nil UUID, or whose h tag has three elements, is rejected with invalid: nip-cl-rejected."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "bad-h")
				for _, h := range []nostr.Tag{{"h", "not-a-uuid"}, {"h", "00000000-0000-0000-0000-000000000000"}, {"h", fixtures.NewChannelID(), "extra"}} {
					ev := c.Actor().Event(fixtures.KindCreateGroup, nostr.Tags{h, {"name", "bad h"}, {"channel_type", "stream"}, {"label", v}}, "")
					rejectCL(t, c, ev, fmt.Sprintf("9007 with %v", []string(h)), "invalid")
				}
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the label of the rejected creates")
			}},
		framework.Spec{Case: lcase("labels/commands/13", []string{"labels/events.8"}, "command-shape", sec, framework.MUST, "A label mutation whose h value is not a UUID or is the nil UUID is rejected with invalid: nip-cl-rejected."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				for _, h := range []string{"not-a-uuid", "00000000-0000-0000-0000-000000000000"} {
					rejectCL(t, c, mutationEv(c.Actor(), h, []string{lbl(t, "x")}, nil), "mutation with h "+h, "invalid")
				}
			}},
		framework.Spec{Case: lcase("labels/commands/14", []string{"labels/events.10"}, "command-shape", sec, framework.MUST, "A labeled 9007 without an h tag is rejected with invalid: nip-cl-rejected and creates no channel."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "no-h")
				spec := &fixtures.ChannelSpec{NoH: true, Type: fixtures.TypeStream, Extra: labelTags(v)}
				rejectCL(t, c, fixtures.CreateChannel(c.Actor(), spec), "labeled 9007 without h", "invalid")
				t.Expect(findL(t, c, []string{v}, nil, 10)).To(BeEmpty(), "no channel carries the label")
			}},
		framework.Spec{Case: lcase("labels/commands/15", []string{"labels/compatibility.3", "labels/values-and-limits.8"}, "command-shape", sec, framework.MUST, "Label command tags must have exactly two elements: a three-element label or add-label, or a one-element remove-label, is rejected with invalid: nip-cl-rejected."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "shape")
				ev, id := createEv(c.Actor(), "", fixtures.Open)
				ev = resign(c.Actor(), ev, nostr.Tag{"label", v, labelNS})
				rejectCL(t, c, ev, "three-element label tag", "invalid")
				goneChannel(t, c, id, "rejected create")
				ch := createLabeled(t, c, "", fixtures.Open, v)
				before := snapshot(t, c, ch)
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", lbl(t, "x"), labelNS}), "three-element add-label", "invalid")
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"remove-label"}), "one-element remove-label", "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}},
	)
	out = append(out, labelsAritySpecs()...)
	return append(out, labelsCommandSemanticsSpecs()...)
}

// creatorRoleNote says where, if anywhere, the creator's role shows: the
// 39001 entry (NIP-29) or the 39002 p tag, as read once now.
func creatorRoleNote(t *framework.T, c *fixtures.Client, ch string) string {
	GinkgoHelper()
	var parts []string
	for _, k := range []int{fixtures.KindAdmins, fixtures.KindMembers} {
		r := t.QueryResult(c, nostr.Filter{Kinds: []int{k}, Tags: nostr.TagMap{"d": {ch}}})
		switch {
		case r.Closed:
			parts = append(parts, fmt.Sprintf("kind %d refused (CLOSED %q)", k, r.ClosedReason))
		case len(r.Events) == 0:
			parts = append(parts, fmt.Sprintf("no kind %d published yet", k))
		default:
			var cur *nostr.Event
			for _, ev := range r.Events {
				if cur == nil || ev.CreatedAt > cur.CreatedAt {
					cur = ev
				}
			}
			found, roles := framework.HasP(cur, c.Actor().PubKey)
			parts = append(parts, fmt.Sprintf("kind %d lists the creator: %v, roles %v", k, found, roles))
		}
	}
	return strings.Join(parts, "; ")
}

// resign appends tags to a signed event and signs it again (new id).
func resign(a *fixtures.Actor, ev *nostr.Event, extra ...nostr.Tag) *nostr.Event {
	tags := append(nostr.Tags{}, ev.Tags...)
	tags = append(tags, extra...)
	return a.Sign(&nostr.Event{Kind: ev.Kind, Tags: tags, Content: ev.Content, CreatedAt: ev.CreatedAt})
}

// labelsInitialSpecs: "Initial labels: kind 9007", including conflicts.
func labelsInitialSpecs() []framework.Spec {
	sec := "labels/initial-labels"
	return []framework.Spec{
		{Case: lcase("labels/initial/1", []string{"labels/initial-labels.2", "labels/snapshot.4"}, "create", sec, framework.MUST, "Repeated label values on a 9007 are applied once: the snapshot has each value once, sorted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "b-dup"), lbl(t, "a-dup")
				ch := createLabeled(t, c, "", fixtures.Open, a, b, a, b, a)
				expectLabels(t, c, ch, a, b)
			}},
		{Case: lcase("labels/initial/2", []string{"labels/initial-labels.4", "labels/responses.8", "labels/scope.1", "labels/snapshot.5", "labels/snapshot.8"}, "create", sec, framework.MUST, "An h-tagged 9007 without labels answers OK true \"\" and yields a snapshot with no L or l tags and one t tag with the type."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open)
				ev := expectLabels(t, c, ch)
				t.Expect(typeOf(ev)).To(Equal(fixtures.TypeStream))
			}},
		{Case: lcase("labels/initial/3", []string{"labels/initial-labels.1"}, "create", sec, framework.MUST, "A forum channel accepts initial labels; its snapshot keeps t=forum."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "forum")
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, v)
				t.Expect(typeOf(expectLabels(t, c, ch, v))).To(Equal(fixtures.TypeForum))
			}},
		{Case: framework.WithReading(lcase("labels/initial/4", []string{"labels/application.1", "labels/application.2", "labels/initial-labels.1", "labels/initial-labels.5"}, "create", sec, framework.MUST, "When a labeled create is acknowledged, its fields, labels and snapshot are readable at once and the creator already holds owner authority (an immediate label mutation by the creator is accepted)."),
			"The draft commits owner membership with the create but does not require 39001/39002 to be published atomically (or at all: NIP-29 makes them optional), so owner membership is observed through the creator's owner authority. Where the creator's role shows is only noted: NIP-29 puts roles on 39001; a role on the 39002 p tag is accepted too."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v, w := lbl(t, "together"), lbl(t, "after")
				ev, ch := createEv(c.Actor(), "", fixtures.Private, v)
				acceptNew(t, c, ev, "labeled private create")
				snap := expectLabels(t, c, ch, v)
				t.Expect(framework.TagOf(snap, "name")).To(Equal("labels stream"), "name committed with the labels")
				// Label mutations need owner/admin authority, checked against the
				// state the command serializes with: the create's owner
				// membership is committed, so this is accepted at once.
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{w}, nil), "the creator's label mutation right after the create")
				expectLabels(t, c, ch, v, w)
				t.Note("creator's role: %s", creatorRoleNote(t, c, ch))
			}},
		{Case: lcase("labels/initial/5", []string{"labels/initial-labels.10", "labels/initial-labels.8", "labels/responses.13", "labels/responses.17"}, "conflict", sec, framework.MUST, "A different 9007 on an existing UUID is rejected with duplicate: nip-cl-rejected; the answer names neither the channel's name nor its labels, and the channel is unchanged."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				secret := lbl(t, "secret")
				ev, ch := createEv(owner.Actor(), "", fixtures.Private, secret)
				acceptNew(t, owner, ev, "private labeled create")
				before := snapshot(t, owner, ch)
				for _, who := range []*fixtures.Client{t.Connect(t.Actor("outsider")), owner} {
					ok := rejectCL(t, who, fixtures.CreateChannel(who.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "other", Extra: labelTags(lbl(t, "other"))}),
						"different create on an existing UUID by "+who.Actor().Name, "duplicate")
					t.Expect(ok.Reason).NotTo(ContainSubstring(secret), "the conflict answer discloses a label")
					t.Expect(ok.Reason).NotTo(ContainSubstring("labels stream"), "the conflict answer discloses the name")
				}
				expectUnchanged(t, owner, ch, before, "existing channel")
			}},
		{Case: lcase("labels/initial/6", []string{"labels/initial-labels.10", "labels/initial-labels.9", "labels/responses.13", "labels/responses.17", "labels/scope.10"}, "conflict", sec, framework.MUST, "A different 9007 on a deleted channel's UUID is rejected with duplicate: nip-cl-rejected without disclosing the old channel's name or labels, and no channel appears."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				secret := lbl(t, "gone")
				ev, ch := createEv(owner.Actor(), "", fixtures.Open, secret)
				acceptNew(t, owner, ev, "labeled create")
				t.Accept(owner, fixtures.DeleteChannel(owner.Actor(), ch), "delete")
				ok := rejectCL(t, owner, fixtures.CreateChannel(owner.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "again", Extra: labelTags(secret)}),
					"create on a deleted UUID", "duplicate")
				t.Expect(ok.Reason).NotTo(ContainSubstring(secret), "the conflict answer discloses a label")
				t.Expect(ok.Reason).NotTo(ContainSubstring("labels stream"), "the conflict answer discloses the name")
				goneChannel(t, owner, ch, "deleted UUID")
			}},
		{Case: lcase("labels/initial/7", []string{"labels/initial-labels.7", "labels/responses.6", "labels/responses.9", "labels/retry-admission.8"}, "conflict", sec, framework.MUST, "An exact retry of a committed 9007 is recognized before the UUID conflict: OK true \"duplicate: nip-cl-committed\", and no new snapshot."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open, lbl(t, "retry"))
				acceptNew(t, c, ev, "create")
				before := snapshot(t, c, ch)
				acceptCommitted(t, c, ev, "exact retry of the create")
				expectUnchanged(t, c, ch, before, "retried create")
			}},
	}
}

// labelsAddRemoveSpecs: "Add and remove labels: kind 9002".
func labelsAddRemoveSpecs() []framework.Spec {
	sec := "labels/add-remove"
	return []framework.Spec{
		{Case: lcase("labels/add-remove/1", []string{"labels/add-remove.14", "labels/add-remove.3"}, "mutation", sec, framework.MUST, "add-label adds a value and keeps every other label."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b, x := lbl(t, "a"), lbl(t, "b"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
				expectLabels(t, c, ch, a, b, x)
			}},
		{Case: lcase("labels/add-remove/2", []string{"labels/add-remove.14"}, "mutation", sec, framework.MUST, "remove-label removes a value and keeps every other label."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b, x := lbl(t, "a"), lbl(t, "b"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a, b, x)
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{b}), "remove")
				expectLabels(t, c, ch, a, x)
			}},
		{Case: lcase("labels/add-remove/3", []string{"labels/add-remove.6"}, "mutation", sec, framework.MUST, "One command with disjoint adds and removes yields (L ∪ A) \\ R."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b, x, y := lbl(t, "a"), lbl(t, "b"), lbl(t, "x"), lbl(t, "y")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x, y, x}, []string{a, a}), "add and remove")
				expectLabels(t, c, ch, b, x, y)
			}},
		{Case: lcase("labels/add-remove/4", []string{"labels/add-remove.5", "labels/responses.10", "labels/responses.5", "labels/responses.6"}, "mutation", sec, framework.MUST, "A command whose add-label and remove-label values intersect is rejected with invalid: nip-cl-rejected and nothing is applied."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, x, y := lbl(t, "a"), lbl(t, "x"), lbl(t, "y")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{x, y}, []string{y}), "overlapping add/remove", "invalid")
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{a}, []string{a}), "overlap on an existing label", "invalid")
				expectUnchanged(t, c, ch, before, "rejected mutations")
			}},
		{Case: lcase("labels/add-remove/5", []string{"labels/add-remove.10", "labels/add-remove.11", "labels/add-remove.7", "labels/responses.8"}, "no-op", sec, framework.MUST, "Adding an existing label is a no-op: OK true \"\" and the snapshot keeps its id and created_at."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{a}, nil), "add existing")
				expectUnchanged(t, c, ch, before, "no-op add")
			}},
		{Case: lcase("labels/add-remove/6", []string{"labels/add-remove.10", "labels/add-remove.11", "labels/add-remove.7"}, "no-op", sec, framework.MUST, "Removing an absent label is a no-op: OK true \"\" and the snapshot keeps its id and created_at."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{lbl(t, "absent")}), "remove absent")
				expectUnchanged(t, c, ch, before, "no-op remove")
				empty := createLabeled(t, c, "", fixtures.Open)
				before = snapshot(t, c, empty)
				acceptNew(t, c, mutationEv(c.Actor(), empty, nil, []string{a}), "remove from an empty set")
				expectUnchanged(t, c, empty, before, "no-op remove on an empty set")
			}},
		{Case: lcase("labels/add-remove/7", []string{"labels/add-remove.14", "labels/scope.3"}, "mutation", sec, framework.MUST, "Labels a command does not name are preserved byte for byte, whatever their prefix."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				keep := []string{"0", "a._:/-z", "team:" + lbl(t, "infra"), "workflow/" + lbl(t, "build"), "stream"}
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, keep...)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove")
				expectLabels(t, c, ch, keep...)
			}},
		{Case: lcase("labels/add-remove/8", []string{"labels/add-remove.15", "labels/compatibility.1", "labels/serialization.3"}, "ordinary-edit", sec, framework.MUST, "A 9002 without label operations is an ordinary edit: name and about change and the labels are kept."),
			Run: func(t *framework.T) {
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
		{Case: framework.WithReading(lcase("labels/add-remove/9", []string{"labels/add-remove.2", "labels/responses.5"}, "mixed", sec, framework.MUST, "A label mutation that also changes name, about, visibility, archive state, topic, purpose or TTL is rejected with invalid: nip-cl-rejected and nothing is applied (the snapshot stays the same event, the channel stays open and unarchived); a relay may instead ignore a topic, purpose, ttl or visibility tag beside a label operation as long as nothing but the labels changes."),
			"name, about and archived are fields every relay keeps: beside a label operation they are refused. The draft gives no tag names for topic, purpose or TTL, and visibility is NIP-29's private flag (the harness also sends [\"visibility\",\"private\"]): a relay may refuse those commands (invalid:, nothing applied) or ignore the tag, applying the label operation only. Both are accepted and noted per tag (reading labels-mixed-extended-fields for topic, purpose and ttl); a command that changes the field fails."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/add-remove/10", []string{"labels/add-remove.8"}, "no-op", sec, framework.MUST, "A no-op is validated and authorized like any mutation: a member's no-op is rejected with restricted: nip-cl-rejected, a malformed no-op with invalid: nip-cl-rejected."),
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
		{Case: lcase("labels/add-remove/11", []string{"labels/add-remove.10", "labels/add-remove.11", "labels/snapshot.5"}, "no-op", sec, framework.MUST, "Removing the last label publishes a snapshot without L or l; removing it again is a no-op that publishes nothing."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "last")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				first := mutationEv(c.Actor(), ch, nil, []string{a})
				acceptNew(t, c, first, "remove the last label")
				before := expectLabels(t, c, ch)
				// Signed one second before the first, so it is always a different event.
				again := mutationAt(c.Actor(), ch, nil, []string{a}, time.Unix(int64(first.CreatedAt)-1, 0))
				acceptNew(t, c, again, "remove it again (a new event)")
				expectUnchanged(t, c, ch, before, "no-op")
			}},
	}
}

// mixedLabelOp publishes a label mutation carrying the field tag extra and
// accepts either careful answer: a refusal (invalid: nip-cl-rejected, the
// snapshot unchanged) or OK true "" with the label set next and the field
// unchanged. It reports whether the mutation was applied.
func mixedLabelOp(t *framework.T, c *fixtures.Client, ch, why string, ev *nostr.Event, extra nostr.Tag, next []string) bool {
	GinkgoHelper()
	cur := snapshot(t, c, ch)
	ok := t.Publish(c, ev)
	if !ok.Accepted {
		requireRejected(ok, why, "invalid")
		expectUnchanged(t, c, ch, cur, "rejected "+why)
		mixedReading(t, extra[0], "rejected")
		return false
	}
	if ok.Reason != "" {
		framework.Failf(`%s: an accepted label mutation answers ["OK",…,true,""], got %s`, why, ok)
	}
	after := expectLabels(t, c, ch, next...)
	if fieldSet(after, extra) {
		framework.Failf("%s was accepted and also changed that field: the snapshot now carries %v", why, after.Tags)
	}
	mixedReading(t, extra[0], "ignored")
	return true
}

// mixedReading notes how the relay answered a label mutation carrying a
// field tag: the reading labels-mixed-extended-fields for the fields the
// draft names without a tag (topic, purpose, ttl), a plain note otherwise.
func mixedReading(t *framework.T, field, value string) {
	switch field {
	case "topic", "purpose", "ttl":
		t.Reading(clause.ReadingLabelsMixedExtended, value)
	default:
		t.Note("label mutation with [%q]: %s", field, value)
	}
}

// fieldSet reports whether a 39000 shows the field the tag sets: the same
// tag name and value, or the private flag for either spelling of it.
func fieldSet(ev *nostr.Event, tag nostr.Tag) bool {
	if tag[0] == "private" || (tag[0] == "visibility" && len(tag) > 1 && tag[1] == "private") {
		if ev.Tags.Find("private") != nil {
			return true
		}
		v, _ := fixtures.TagValue(ev, "visibility")
		return v == "private"
	}
	v, ok := fixtures.TagValue(ev, tag[0])
	return ok && len(tag) > 1 && v == tag[1]
}
