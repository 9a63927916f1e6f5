package labels

import (
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsRetrySpecs: "Acknowledgements, retries and recovery: Retry admission".
func labelsRetrySpecs() []framework.Spec {
	sec := "labels/retry-admission"
	return []framework.Spec{
		{Case: lcase("labels/retry/1", []string{"labels/compatibility.1", "labels/responses.12", "labels/retry-admission.11", "labels/retry-admission.6"}, "retry-admission", sec, framework.MUST, "A retry by an author demoted to member is rejected with restricted: nip-cl-rejected; the earlier committed effect stays in place."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				m := mutationEv(admin.Actor(), ch, []string{x}, nil)
				acceptNew(t, admin, m, "admin adds")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, admin.Actor().PubKey, "member"), "demote")
				before := expectLabels(t, owner, ch, x)
				rejectCL(t, admin, m, "retry after demotion", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected retry")
			}},
		{Case: lcase("labels/retry/2", []string{"labels/compatibility.1", "labels/retry-admission.11", "labels/retry-admission.6"}, "retry-admission", sec, framework.MUST, "A retry by an author removed from the channel is rejected with restricted: nip-cl-rejected; the effect stays."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				m := mutationEv(admin.Actor(), ch, []string{x}, nil)
				acceptNew(t, admin, m, "admin adds")
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, admin.Actor().PubKey), "remove the admin")
				before := expectLabels(t, owner, ch, x)
				rejectCL(t, admin, m, "retry after removal", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected retry")
			}},
		{Case: lcase("labels/retry/3", []string{"labels/retry-admission.12", "labels/retry-admission.4", "labels/retry-admission.8", "labels/retry-admission.9"}, "retry-admission", sec, framework.MUST, "A retry on an archived channel is rejected with restricted: nip-cl-rejected; after unarchiving, the same retry answers duplicate: nip-cl-committed without reapplying a superseded effect."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add x")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove x")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := expectLabels(t, c, ch)
				rejectCL(t, c, add, "retry on the archived channel", "restricted")
				expectUnchanged(t, c, ch, before, "rejected retry")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "false"}), "unarchive")
				before = expectLabels(t, c, ch)
				acceptCommitted(t, c, add, "retry after unarchive")
				expectUnchanged(t, c, ch, before, "committed retry")
			}},
		{Case: framework.WithReading(lcase("labels/retry/4", []string{"labels/retry-admission.12", "labels/retry-admission.5"}, "retry-admission", sec, framework.MUST, "A retry on a deleted channel is rejected (nip-cl-rejected) and no snapshot reappears."), readingDeletedPrefix),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add x")
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				ok := rejectCL(t, c, add, "retry on the deleted channel", "restricted", "invalid")
				t.Note("retry on a deleted channel: %s", prefixOf(ok.Reason))
				t.Reading(clause.ReadingLabelsDeletedPrefix, prefixOf(ok.Reason))
				goneChannel(t, c, ch, "deleted channel")
			}},
		{Case: lcase("labels/retry/5", []string{"labels/retry-admission.6"}, "retry-admission", sec, framework.MUST, "A retry of a committed create by a creator who is no longer owner or admin is rejected with restricted: nip-cl-rejected; the channel is unchanged."),
			Run: func(t *framework.T) {
				first := t.Connect(t.Actor("creator"))
				ev, ch := createEv(first.Actor(), "", fixtures.Open, lbl(t, "a"))
				acceptNew(t, first, ev, "create")
				heir := withRoles(t, first, ch, "owner")[0]
				t.Accept(heir, fixtures.PutUser(heir.Actor(), ch, first.Actor().PubKey, "member"), "demote the creator")
				before := snapshot(t, heir, ch)
				rejectCL(t, first, ev, "creator retries the create", "restricted")
				expectUnchanged(t, heir, ch, before, "rejected retry")
			}},
		{Case: framework.WithReading(lcase("labels/retry/6", []string{"labels/retry-admission.4", "labels/retry-admission.5"}, "retry-admission", sec, framework.MUST, "A retry of a committed create on an archived channel is rejected with restricted:, on a deleted one with restricted:, invalid: or duplicate: (nip-cl-rejected)."),
			readingDeletedPrefix+" A retried create of a deleted channel is also a create of a used UUID, which the draft refuses as a conflict: duplicate: nip-cl-rejected is accepted too (reading labels-deleted-create-retry)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open, lbl(t, "a"))
				acceptNew(t, c, ev, "create")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := snapshot(t, c, ch)
				rejectCL(t, c, ev, "retry the create of an archived channel", "restricted")
				expectUnchanged(t, c, ch, before, "archived")
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				ok := rejectCL(t, c, ev, "retry the create of a deleted channel", "restricted", "invalid", "duplicate")
				t.Note("create retry on a deleted channel: %s", prefixOf(ok.Reason))
				if prefixOf(ok.Reason) == "duplicate" {
					t.Reading(clause.ReadingLabelsDeletedCreate, "conflict")
				} else {
					t.Reading(clause.ReadingLabelsDeletedCreate, "lifecycle")
					t.Reading(clause.ReadingLabelsDeletedPrefix, prefixOf(ok.Reason))
				}
				goneChannel(t, c, ch, "deleted channel")
			}},
		{Case: framework.Case{ID: "labels/retry/7", Clauses: []string{"labels/retention.5", "labels/retry-admission.11", "labels/retry-admission.2"}, Profile: framework.ProfileLabels, Area: "retry-admission", Section: sec, Level: framework.MUST, Slow: true,
			Requirement: "A command committed near the edge of the ±900 s window and retried once after the window closed is refused, never acknowledged (invalid: nip-cl-rejected, or an ordinary NIP-01 refusal from the shared timestamp check); its effect stays.",
			Reading: "The relay clock is estimated from a fresh snapshot's created_at; the command is signed 893 s before it and retried once 2 s after the window closes (about 9 s of waiting). " +
				readingAdmission},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				relayNow := snapshot(t, c, ch).CreatedAt
				offset := int64(relayNow) - time.Now().Unix()
				x := lbl(t, "edge")
				signedAt := time.Unix(int64(relayNow)-893, 0)
				m := c.Actor().EventAt(signedAt, fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, labelOps([]string{x}, nil)...), "")
				acceptNew(t, c, m, "mutation signed 893 s ago")
				before := expectLabels(t, c, ch, x)
				closes := time.Unix(signedAt.Unix()+900+2-offset, 0)
				t.Note("waiting %s for the admission window of %.12s to close", time.Until(closes).Round(time.Second), m.ID)
				for time.Now().Before(closes) {
					select {
					case <-t.Ctx().Done():
						t.Must(t.Ctx().Err(), "waiting for the window to close")
					case <-time.After(time.Until(closes)):
					}
				}
				t.Note("retry outside the window: %s", admissionRefusal(t, c, m, "retry outside the window", []string{"invalid"}, nil))
				expectUnchanged(t, t.Connect(c.Actor()), ch, before, "expired retry")
			}},
	}
}
