package labels

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// retentionSpecs are the cases of labels/retention.
func retentionSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/retention/3", framework.MUST,
			"Application evidence of a create and of a no-op survives a NIP-09 deletion of those command events: once the relay has deleted both (their ids no longer read), and after later commands, both exact retries answer duplicate: nip-cl-committed and nothing is reapplied.",
			"labels/retention.1", "labels/retry-admission.14").
			WithReading("The clause is about a deletion that happened: as labels/retention/1 does, the case first observes that the relay serves both stored commands by id and, after the kind 5 requests, that it no longer does. NIP-09 lets a relay keep deleted events; a relay that refuses the kind 5, keeps serving a command, or never serves stored commands by id makes the case unsupported, with what was seen."),
			Run: func(t *framework.T) {
				t.Checking("labels/retention.1")
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
		{Case: framework.NewCase("labels/retention/1", framework.MUST,
			"Application evidence survives a NIP-09 deletion of the command event: once the relay has deleted the command (its id no longer reads), the exact retry is still duplicate: nip-cl-committed and nothing is reapplied.",
			"labels/retention.1", "labels/retry-admission.14").
			WithReading("The clause is about a deletion that happened: the case first observes that the relay serves the stored command by id and that after the kind 5 it no longer does. NIP-09 lets a relay keep deleted events; a relay that refuses the kind 5, keeps serving the command, or never serves stored commands by id makes the case unsupported, with what was seen."),
			Run: func(t *framework.T) {
				t.Checking("labels/retention.1")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "kept")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove")
				byID := nostr.Filter{IDs: []string{add.ID}}
				if r := t.QueryResult(c, byID); r.Closed || len(r.Events) == 0 {
					t.Unsupported(fmt.Sprintf("the relay does not serve the stored command by id to its author (%d event(s), CLOSED %q): a NIP-09 deletion of it cannot be observed", len(r.Events), r.ClosedReason))
				}
				del := c.Actor().Event(5, nostr.Tags{{"e", add.ID}, {"k", "9002"}}, "")
				ok := t.Publish(c, del)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refused the NIP-09 deletion request for the command: " + ok.String())
				}
				// A relay may apply the deletion asynchronously: wait for it.
				if !t.WithinDeferred(func(g Gomega) { g.Expect(t.QueryResult(c, byID).Events).To(BeEmpty()) }) {
					t.Unsupported("the relay accepted the kind 5 but still serves the command by id (NIP-09 lets it keep deleted events): evidence surviving a deletion cannot be observed")
				}
				t.Note("kind 5 %s; the command no longer reads by id", ok)
				before := expectLabels(t, c, ch)
				// The retry is this case's observation of the evidence: an
				// answer other than the committed duplicate breaks
				// retention.1 here (the evidence did not survive), which is
				// the sentence the fault breaks, not only the answer's own.
				if ok := t.Publish(c, add); !ok.Accepted || !hasFixedPrefix(ok.Reason, markCommitted) {
					t.Violates("labels/retention.1", `retry after the deletion request: expected ["OK",…,true,"duplicate: nip-cl-committed"] (the application evidence survives a NIP-09 deletion of the command), got %s`, ok)
				}
				expectUnchanged(t, c, ch, before, "retry after deletion request")
			}},
		{Case: framework.NewCase("labels/retention/2", framework.MUST,
			"Evidence is kept while the command can pass admission: retries spread over the case, after later commands, stay duplicate: nip-cl-committed.",
			"labels/retention.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				first := mutationEv(c.Actor(), ch, []string{lbl(t, "first")}, nil)
				acceptNew(t, c, first, "first")
				for i := 0; i < 5; i++ {
					acceptNew(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "later")}, nil), "later command")
					acceptCommitted(t, t.Connect(c.Actor()), first, "retry on a fresh connection")
				}
			}},
	}
}
