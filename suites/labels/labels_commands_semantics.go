package labels

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsCommandSemanticsSpecs: command semantics the older cases sampled
// only: the label-only rule against every field the draft names, combined
// no-ops, retries of unlabeled creates and of superseded or NIP-09-deleted
// commands, refused conflicts re-sent, and a 9002 replayed in another
// community.
func labelsCommandSemanticsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.WithReading(lcase("labels/add-remove/13", []string{"labels/add-remove.2"}, "mixed", "labels/add-remove", framework.MUST,
			"A label mutation never also changes topic, purpose, TTL or the NIP-29 visibility flags (private, hidden): each such command is rejected with invalid: nip-cl-rejected and applies nothing, or — where the relay has no such field — its label operation applies and the field stays unchanged in the 39000."),
			"The draft names these fields but not their tag names; the case sends [\"topic\"], [\"purpose\"], [\"ttl\"], [\"private\"] and [\"hidden\"]. A relay that rejects the command keeps the label-only rule; a relay that does not know the tag and ignores it changes no field either. Both are accepted and noted per tag; applying the field with the label operation fails."),
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
						requireRejected(ok, "add-label with "+row.tag[0], "invalid")
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
		{Case: lcase("labels/add-remove/14", []string{"labels/add-remove.10", "labels/add-remove.7", "labels/add-remove.9", "labels/responses.9"}, "no-op", "labels/add-remove", framework.MUST,
			"A combined no-op — adding a present value and removing an absent one in one command — answers OK true \"\", keeps the snapshot's id and created_at, and its exact retry answers duplicate: nip-cl-committed."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/initial/8", []string{"labels/initial-labels.7", "labels/responses.9"}, "create", "labels/initial-labels", framework.MUST,
			"An exact retry of a committed unlabeled h-tagged 9007 is recognized before the UUID conflict: OK true \"duplicate: nip-cl-committed\", no label appears and no new snapshot."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open)
				acceptNew(t, c, ev, "unlabeled h-tagged create")
				before := expectLabels(t, c, ch)
				acceptCommitted(t, c, ev, "exact retry of the unlabeled create")
				expectUnchanged(t, c, ch, before, "retried unlabeled create")
				acceptCommitted(t, t.Connect(c.Actor()), ev, "second retry on a fresh connection")
				expectUnchanged(t, c, ch, before, "retried unlabeled create")
			}},
		{Case: lcase("labels/initial/9", []string{"labels/initial-labels.8", "labels/responses.2"}, "conflict", "labels/initial-labels", framework.MUST,
			"A refused conflicting 9007 (the channel owner's different create on a used UUID) re-sent exactly stays refused with duplicate: nip-cl-rejected every time — never duplicate: nip-cl-committed — and leaves no trace in the channel."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/retry/12", []string{"labels/responses.9", "labels/retry-admission.9"}, "retry-admission", "labels/retry-admission", framework.MUST,
			"Retries after the state was superseded: a committed create and a committed no-op, retried after later commands removed and added labels, answer duplicate: nip-cl-committed and reapply nothing (the later state and snapshot stay)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				create, ch := createEv(c.Actor(), "", fixtures.Open, a)
				acceptNew(t, c, create, "create with a")
				noop := mutationEv(c.Actor(), ch, []string{a}, nil)
				acceptNew(t, c, noop, "no-op add of a")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{b}, []string{a}), "remove a, add b")
				before := expectLabels(t, c, ch, b)
				acceptCommitted(t, c, create, "retry the superseded create")
				acceptCommitted(t, c, noop, "retry the superseded no-op")
				expectUnchanged(t, c, ch, before, "superseded retries")
				expectLabels(t, c, ch, b)
			}},
		{Case: framework.WithReading(lcase("labels/retention/3", []string{"labels/retention.1", "labels/retry-admission.14"}, "retention", "labels/retention", framework.MUST,
			"Application evidence of a create and of a no-op survives a NIP-09 deletion of those command events: once the relay has deleted both (their ids no longer read), and after later commands, both exact retries answer duplicate: nip-cl-committed and nothing is reapplied."),
			"The clause is about a deletion that happened: as labels/retention/1 does, the case first observes that the relay serves both stored commands by id and, after the kind 5 requests, that it no longer does. NIP-09 lets a relay keep deleted events; a relay that refuses the kind 5, keeps serving a command, or never serves stored commands by id makes the case unsupported, with what was seen."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				create, ch := createEv(c.Actor(), "", fixtures.Open, a)
				acceptNew(t, c, create, "create with a")
				noop := mutationEv(c.Actor(), ch, []string{a}, nil)
				acceptNew(t, c, noop, "no-op add of a")
				deleteObserved(t, c, create, noop)
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{a}), "remove a")
				before := expectLabels(t, c, ch)
				acceptCommitted(t, c, create, "retry the create after its deletion")
				acceptCommitted(t, c, noop, "retry the no-op after its deletion")
				expectUnchanged(t, c, ch, before, "retries after deletions")
			}},
		{Case: framework.WithReading(lcase("labels/community/4", []string{"labels/community.2"}, "community", "labels/community", framework.MUST,
			"A 9002 committed in one community and replayed in another never recovers the first community's evidence, even where the other community has a channel with the same UUID and the same owner: it is a new application there (OK true \"\") or refused, never duplicate: nip-cl-committed."),
			"Where the second community refuses the UUID (reading labels-uuid-across-communities \"refused\"), the replayed 9002 names a channel the community does not have and may be refused in any form community admission uses; each outcome is noted."),
			Run: func(t *framework.T) {
				if len(t.Env.Hosts) == 0 {
					t.Unsupported(needHost)
				}
				owner := t.Actor("owner")
				a, b := t.Connect(owner), t.ConnectHost(owner, t.Env.Hosts[0])
				x := lbl(t, "replayed")
				ch := createLabeled(t, a, "", fixtures.Open)
				m := mutationEv(owner, ch, []string{x}, nil)
				acceptNew(t, a, m, "mutation in community A")
				okB := t.Publish(b, fixtures.CreateChannel(owner, &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "same uuid in b"}))
				sameUUID := okB.Accepted
				t.Note("creating the same UUID in community B: %s", okB)
				ok := t.Publish(b, m)
				t.Expect(hasFixedPrefix(ok.Reason, markCommitted)).To(BeFalse(), "community B answered the replayed 9002 with A's evidence: %s", ok)
				switch {
				case ok.Accepted:
					t.Expect(ok.Reason).To(Equal(""), "a new application in B answers OK true \"\": %s", ok)
					t.Expect(sameUUID).To(BeTrue(), "community B acknowledged a mutation of a channel it does not have: %s", ok)
					expectLabels(t, b, ch, x)
					t.Note("community B applied the replayed 9002 to its own channel")
				default:
					otherCommunityRefusal(ok, "the replayed 9002 in community B")
					t.Note("community B refused the replayed 9002: %s", ok.Reason)
					if sameUUID {
						expectLabels(t, b, ch)
					}
				}
				acceptCommitted(t, a, m, "exact retry in community A")
				expectLabels(t, a, ch, x)
			}},
	}
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
	if !t.Within(func(g Gomega) { g.Expect(t.QueryResult(c, byID).Events).To(BeEmpty()) }) {
		t.Unsupported("the relay accepted the kind 5 requests but still serves a command by id (NIP-09 lets it keep deleted events): evidence surviving a deletion cannot be observed")
	}
	t.Note("kind 5 for %d commands; none reads by id any more", len(evs))
}
