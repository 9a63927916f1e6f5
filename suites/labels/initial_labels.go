package labels

import (
	"fmt"

	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// initialLabelsSpecs are the cases of labels/initial-labels.
func initialLabelsSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/initial/8", framework.MUST,
			"An exact retry of a committed unlabeled h-tagged 9007 is recognized before the UUID conflict: OK true \"duplicate: nip-cl-committed\", no label appears and no new snapshot.",
			"labels/initial-labels.7", "labels/responses.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.7")
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open)
				acceptNew(t, c, ev, "unlabeled h-tagged create")
				before := expectLabels(t, c, ch)
				acceptCommitted(t, c, ev, "exact retry of the unlabeled create")
				expectUnchanged(t, c, ch, before, "retried unlabeled create")
				acceptCommitted(t, t.Connect(c.Actor()), ev, "second retry on a fresh connection")
				expectUnchanged(t, c, ch, before, "retried unlabeled create")
			}},
		{Case: framework.NewCase("labels/initial/9", framework.MUST,
			"A refused conflicting 9007 (the channel owner's different create on a used UUID) re-sent exactly stays refused with duplicate: nip-cl-rejected every time — never duplicate: nip-cl-committed — and leaves no trace in the channel.",
			"labels/initial-labels.8", "labels/responses.2"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.8")
				c := t.Connect(t.Actor("owner"))
				x, y := lbl(t, "first"), lbl(t, "conflict")
				ev, ch := createEv(c.Actor(), "", fixtures.Open, x)
				acceptNew(t, c, ev, "create")
				before := snapshot(t, c, ch)
				clash := fixtures.CreateChannel(c.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "conflict", Extra: labelTags(y)})
				for i, conn := range []*fixtures.Client{c, c, t.Connect(c.Actor())} {
					rejectCL(t, conn, clash, fmt.Sprintf("conflicting create, submission %d", i+1), "duplicate")
				}
				expectUnchanged(t, c, ch, before, "refused conflicting creates")
				expectLabels(t, c, ch, x)
				t.Expect(findL(t, c, []string{y}, nil, 10)).To(BeEmpty(), "the refused create's label is on no channel")
				acceptCommitted(t, c, ev, "the original create still retries as committed")
			}},
	}
	// "Initial labels: kind 9007", including conflicts.
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/initial/1", framework.MUST,
			"Repeated label values on a 9007 are applied once: the snapshot has each value once, sorted.",
			"labels/initial-labels.2", "labels/snapshot.4"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.2")
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "b-dup"), lbl(t, "a-dup")
				ch := createLabeled(t, c, "", fixtures.Open, a, b, a, b, a)
				// The case's own observation first, on the snapshot as
				// served: each value once (the shape checks follow).
				raw := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				t.Expect(labelsOf(raw)).To(ConsistOf(a, b), "the snapshot of a 9007 repeating two values lists each once")
				t.Checking("labels/snapshot.4")
				expectLabels(t, c, ch, a, b)
			}},
		{Case: framework.NewCase("labels/initial/2", framework.MUST,
			"An h-tagged 9007 without labels answers OK true \"\" and yields a snapshot with no L or l tags and one t tag with the type.",
			"labels/initial-labels.4", "labels/responses.8", "labels/scope.1", "labels/snapshot.5", "labels/snapshot.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.4")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open)
				ev := expectLabels(t, c, ch)
				t.Expect(typeOf(ev)).To(Equal(fixtures.TypeStream))
			}},
		{Case: framework.NewCase("labels/initial/3", framework.MUST,
			"A forum channel accepts initial labels; its snapshot keeps t=forum.",
			"labels/initial-labels.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				v := lbl(t, "forum")
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, v)
				t.Expect(typeOf(expectLabels(t, c, ch, v))).To(Equal(fixtures.TypeForum))
			}},
		{Case: framework.NewCase("labels/initial/4", framework.MUST,
			"When a labeled create is acknowledged, its fields, labels and snapshot are readable at once and the creator already holds owner authority (an immediate label mutation by the creator is accepted).",
			"labels/initial-labels.1", "labels/initial-labels.5", "labels/application.1", "labels/application.2").
			WithReading("The draft commits owner membership with the create but does not require 39001/39002 to be published atomically (or at all: NIP-29 makes them optional), so owner membership is observed through the creator's owner authority. Where the creator's role shows is only noted: NIP-29 puts roles on 39001; a role on the 39002 p tag is accepted too."),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.1")
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
		{Case: framework.NewCase("labels/initial/5", framework.MUST,
			"A different 9007 on an existing UUID is rejected with duplicate: nip-cl-rejected; the answer names neither the channel's name nor its labels, and the channel is unchanged.",
			"labels/initial-labels.10", "labels/initial-labels.8", "labels/responses.13", "labels/responses.17"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.8")
				owner := t.Connect(t.Actor("owner"))
				secret := lbl(t, "secret")
				ev, ch := createEv(owner.Actor(), "", fixtures.Private, secret)
				acceptNew(t, owner, ev, "private labeled create")
				before := snapshot(t, owner, ch)
				for _, who := range []*fixtures.Client{t.Connect(t.Actor("outsider")), owner} {
					ok := rejectCL(t, who, fixtures.CreateChannel(who.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "other", Extra: labelTags(lbl(t, "other"))}),
						"different create on an existing UUID by "+who.Actor().Name, "duplicate")
					t.Checking("labels/initial-labels.10")
					t.Expect(ok.Reason).NotTo(ContainSubstring(secret), "the conflict answer discloses a label")
					t.Expect(ok.Reason).NotTo(ContainSubstring("labels stream"), "the conflict answer discloses the name")
				}
				expectUnchanged(t, owner, ch, before, "existing channel")
			}},
		{Case: framework.NewCase("labels/initial/6", framework.MUST,
			"A different 9007 on a deleted channel's UUID is rejected with duplicate: nip-cl-rejected without disclosing the old channel's name or labels, and no channel appears.",
			"labels/initial-labels.10", "labels/initial-labels.9", "labels/responses.13", "labels/responses.17", "labels/scope.10"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.9")
				owner := t.Connect(t.Actor("owner"))
				secret := lbl(t, "gone")
				ev, ch := createEv(owner.Actor(), "", fixtures.Open, secret)
				acceptNew(t, owner, ev, "labeled create")
				t.Accept(owner, fixtures.DeleteChannel(owner.Actor(), ch), "delete")
				ok := rejectCL(t, owner, fixtures.CreateChannel(owner.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "again", Extra: labelTags(secret)}),
					"create on a deleted UUID", "duplicate")
				t.Checking("labels/initial-labels.10")
				t.Expect(ok.Reason).NotTo(ContainSubstring(secret), "the conflict answer discloses a label")
				t.Expect(ok.Reason).NotTo(ContainSubstring("labels stream"), "the conflict answer discloses the name")
				goneChannel(t, owner, ch, "deleted UUID")
			}},
		{Case: framework.NewCase("labels/initial/7", framework.MUST,
			"An exact retry of a committed 9007 is recognized before the UUID conflict: OK true \"duplicate: nip-cl-committed\", and no new snapshot.",
			"labels/initial-labels.7", "labels/responses.6", "labels/responses.9", "labels/retry-admission.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/initial-labels.7")
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open, lbl(t, "retry"))
				acceptNew(t, c, ev, "create")
				before := snapshot(t, c, ch)
				acceptCommitted(t, c, ev, "exact retry of the create")
				t.Checking("labels/retry-admission.8")
				expectUnchanged(t, c, ch, before, "retried create")
			}},
	}...)
	return out
}
