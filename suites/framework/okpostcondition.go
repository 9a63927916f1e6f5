package framework

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
)

// ClauseOKTruth is NIP-01's OK sentence: true when the event was
// accepted, false otherwise. The OK postcondition reports a lie against it.
const ClauseOKTruth = "nip01/ok-prefix.3"

// The OK postcondition: every event a case sends through Send (Publish,
// Accept, Reject, PublishAll ...) is logged with its OK, and when the case
// ends, the events the relay refused are read back by ids on the
// connection that sent them and on the case's first connection (usually
// the group's creator, who may read what an outsider may not). A refused
// event the relay serves afterwards was accepted after all: the OK false
// was a lie (nip01/ok-prefix.3, MUST). The REQ follows the OK on the same
// connection, so the relay has had it in hand; no wait is needed.
//
// Lawful answers it leaves alone: an event the case also got OK true for,
// or got no answer for (its fate is unknown), or sent by another path than
// Send (Begin, a bare Client.Send: answers the log never saw), or signed
// by a key not the case's own (a relay-signed event sent back), or that was answered
// "duplicate:" (NIP-01 writes duplicates with either answer) or with the
// labels draft's "nip-cl-unknown" (application unknown, by the draft's
// table); a served event that is not the refused one byte for byte (a
// tampered copy that reuses an accepted event's id); a refused 9021 join
// request (NIP-29 rejects it while the request is pending review, which a
// relay may keep for the group's admins). An accepted event the
// relay no longer serves is not judged: NIP-01's OK says accepted, not
// stored, and later commands of a case may lawfully remove it.

// okLog is what the postcondition keeps of a case's sends.
type okLog struct {
	mu   sync.Mutex
	sent []sentEvent
}

// sentEvent is one send of an event and what the relay answered.
type sentEvent struct {
	c        *fixtures.Client
	ev       *nostr.Event
	ok       fixtures.OK
	answered bool
}

// logOK records one send (err != nil: no OK came).
func (t *T) logOK(c *fixtures.Client, ev *nostr.Event, ok fixtures.OK, err error) {
	t.oks.mu.Lock()
	defer t.oks.mu.Unlock()
	t.oks.sent = append(t.oks.sent, sentEvent{c: c, ev: ev, ok: ok, answered: err == nil})
}

// refusals are the refusals the postcondition judges, by the connection
// that sent them. ours tells the case's own keys; sent counts the EVENTs
// the case's connections wrote for an id, by any path.
func (l *okLog) refusals(ours func(pubkey string) bool, sent func(id string) int) (map[*fixtures.Client][]*nostr.Event, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	spared := map[string]bool{}
	logged := map[string]int{}
	for _, s := range l.sent {
		logged[s.ev.ID]++
		if !s.answered || s.ok.Accepted || strings.HasPrefix(s.ok.Reason, "duplicate:") || strings.Contains(s.ok.Reason, "nip-cl-unknown") || !ours(s.ev.PubKey) || s.ev.Kind == fixtures.KindJoinRequest {
			spared[s.ev.ID] = true
		}
	}
	byClient := map[*fixtures.Client][]*nostr.Event{}
	n := 0
	for _, s := range l.sent {
		if spared[s.ev.ID] || sent(s.ev.ID) > logged[s.ev.ID] || slices.ContainsFunc(byClient[s.c], func(e *nostr.Event) bool { return e.ID == s.ev.ID }) {
			continue
		}
		byClient[s.c] = append(byClient[s.c], s.ev)
		n++
	}
	return byClient, n
}

// okLies reads the refused events back and returns one line per refused
// event the relay serves.
func (t *T) okLies() []string {
	t.mu.Lock()
	clients := slices.Clone(t.clients)
	actors := make(map[string]bool, len(t.actors))
	for pk := range t.actors {
		actors[pk] = true
	}
	t.mu.Unlock()
	sent := func(id string) int {
		n := 0
		for _, c := range clients {
			n += c.EventsSent(id)
		}
		return n
	}
	byClient, n := t.oks.refusals(func(pk string) bool { return actors[pk] }, sent)
	if n == 0 {
		return nil
	}
	var first *fixtures.Client
	if len(clients) > 0 {
		first = clients[0]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*t.Env.StepTimeout)
	defer cancel()
	lied := map[string]string{}
	read := func(c *fixtures.Client, evs []*nostr.Event) {
		if c == nil || c.Err() != nil {
			return
		}
		for chunk := range slices.Chunk(evs, 50) {
			ids := make([]string, len(chunk))
			for i, ev := range chunk {
				ids[i] = ev.ID
			}
			r, err := c.Query(ctx, nostr.Filter{IDs: ids, Limit: len(ids)})
			if err != nil || r.Closed {
				continue
			}
			for _, got := range r.Events {
				for _, ev := range chunk {
					if sameEvent(got, ev) && lied[ev.ID] == "" {
						lied[ev.ID] = fmt.Sprintf("kind %d %s, refused with %s, is served by {\"ids\":[…]} to %s afterwards", ev.Kind, ev.ID, t.refusal(ev.ID), ActorName(c))
					}
				}
			}
		}
	}
	var all []*nostr.Event
	for c, evs := range byClient {
		read(c, evs)
		all = append(all, evs...)
	}
	if first != nil {
		var rest []*nostr.Event
		for _, ev := range all {
			if lied[ev.ID] == "" {
				rest = append(rest, ev)
			}
		}
		read(first, rest)
	}
	var out []string
	for _, line := range lied {
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// refusal is the OK false the case got for id.
func (t *T) refusal(id string) string {
	t.oks.mu.Lock()
	defer t.oks.mu.Unlock()
	for _, s := range t.oks.sent {
		if s.ev.ID == id && s.answered && !s.ok.Accepted {
			return fmt.Sprintf("OK false %q", s.ok.Reason)
		}
	}
	return "OK false"
}

// sameEvent reports whether got is the event sent, byte for byte.
func sameEvent(got, sent *nostr.Event) bool {
	return got.ID == sent.ID && got.Sig == sent.Sig && got.PubKey == sent.PubKey && got.Kind == sent.Kind &&
		got.CreatedAt == sent.CreatedAt && got.Content == sent.Content && slices.EqualFunc(got.Tags, sent.Tags, slices.Equal)
}

// checkOKs is the postcondition, run when the case body has ended (a
// cleanup node registered after the case's own cleanup, so it runs first,
// while the case's connections are open). A lie fails a case that passed
// or was skipped; a case that failed or was blocked without naming a clause
// of its own (no Violates, no step scope: a case's only clause is not a
// name) is recorded as failing at ClauseOKTruth (the lie may be why its
// step did not go through), and one that failed at a clause it named keeps
// that verdict, with the lie as a note. ClauseOKTruth is the one clause a
// failure may break without the case citing it: every case sends through
// the postcondition. Timed-out and interrupted
// cases are left alone.
func (t *T) checkOKs() {
	report := CurrentSpecReport()
	if report.State.Is(types.SpecStateTimedout | types.SpecStateInterrupted | types.SpecStateAborted | types.SpecStatePanicked) {
		return
	}
	lies := t.okLies()
	if len(lies) == 0 {
		return
	}
	msg := fmt.Sprintf("NIP-01 (%s): an OK false means the event was not accepted, but %d refused event(s) were stored: %s",
		ClauseOKTruth, len(lies), strings.Join(lies, "; "))
	t.tr.Note("OK postcondition: %s", msg)
	t.reportAfterCase(report, ClauseOKTruth, msg)
}

// reportAfterCase records a finding a check made once the case body had
// ended (the OK postcondition, the subscription-id watch) at clauseID: it
// fails a case that passed or was skipped; a case that failed or was
// blocked without naming a clause of its own is recorded as failing at
// clauseID; one that failed at a clause it named keeps that verdict, with
// the finding as a note.
func (t *T) reportAfterCase(report types.SpecReport, clauseID, msg string) {
	if report.State.Is(types.SpecStateFailed) {
		prior, _ := VerdictOf(report)
		scoped, _ := t.failureScope(report.Failure.Location)
		if prior.Outcome != reports.Blocked && (prior.Violates != "" || scoped != "") {
			AddReportEntry(EntryNote, "also: "+msg, ReportEntryVisibilityNever)
			return
		}
		recordVerdict(Verdict{Outcome: reports.Fail, Violates: clauseID})
		AddReportEntry(EntryNote, msg, ReportEntryVisibilityNever)
		return
	}
	recordVerdict(Verdict{Violates: clauseID})
	Fail(msg)
}
