package framework

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

// EntryVerdict is the report entry whose value (a Verdict) carries what a
// case decided about itself across Ginkgo: a typed value, never message
// text. The runner reads it with VerdictOf.
const EntryVerdict = "nipcl.verdict"

// Verdict is what a case recorded about its own outcome, beside Ginkgo's
// spec state: an outcome class overriding a failed or skipped state
// (blocked, timeout, harness-error, unsupported), the precondition that
// blocked it, the clause its failure breaks, or that another worker ran
// it. The last verdict a case records wins.
type Verdict struct {
	// Outcome overrides Ginkgo's state when set.
	Outcome reports.Outcome `json:"outcome,omitempty"`
	// Precondition is the ID of the unmet precondition of a blocked case.
	Precondition string `json:"precondition,omitempty"`
	// Violates is the clause ID (one of the case's Clauses) a failure
	// breaks.
	Violates string `json:"violates,omitempty"`
	// Unclaimed marks a case another worker of a shared queue ran
	// (Env.Claim): it is not a result of this process.
	Unclaimed bool `json:"unclaimed,omitempty"`
}

// recordVerdict adds v to the current case's report.
func recordVerdict(v Verdict) {
	AddReportEntry(EntryVerdict, v, ReportEntryVisibilityNever)
}

// recordOutcome records an outcome class overriding Ginkgo's state.
func recordOutcome(o reports.Outcome) { recordVerdict(Verdict{Outcome: o}) }

// VerdictOf merges the verdicts a spec report carries, in the order they
// were recorded (later fields win), and says whether there was any.
func VerdictOf(r types.SpecReport) (Verdict, bool) {
	var out Verdict
	found := false
	for _, e := range r.ReportEntries {
		if e.Name != EntryVerdict {
			continue
		}
		v, ok := e.GetRawValue().(Verdict)
		if !ok {
			// A report that crossed a process boundary holds the JSON.
			if err := json.Unmarshal([]byte(e.Value.AsJSON), &v); err != nil {
				continue
			}
		}
		found = true
		if v.Outcome != "" {
			out.Outcome = v.Outcome
		}
		if v.Precondition != "" {
			out.Precondition = v.Precondition
		}
		if v.Violates != "" {
			out.Violates = v.Violates
		}
		out.Unclaimed = out.Unclaimed || v.Unclaimed
	}
	return out, found
}

// The clause a failure breaks is data, never read back from a message.
// Every failure of a case records the clause it breaks (Verdict.Violates),
// by one of three rules, in this order:
//
//  1. t.Violates(clause, format, args...) fails now, at clause;
//  2. otherwise the case's step scope: t.Checking(clause) says that the
//     steps after it check clause, so a plain failure after it (Failf,
//     Fail, t.Expect, t.Eventually, t.Must, or a failure inside a shared
//     helper: Accept, Query, WaitState …) breaks clause, until the next
//     Checking;
//  3. otherwise a case that cites exactly one clause breaks that one.
//
// A shared check of a sentence that holds on everything it reads (a labels
// snapshot's shape) scopes itself with t.Invariant(clause): its failure
// breaks that sentence whatever the case cites.
//
// A clause named by Violates or Checking must be one of the case's own
// Clauses, or a clause of the case's own Section that a shared step of the
// section breaks (adopting a subgroup, which every subgroup case needs and
// a subgroup case of its own checks): then the failure is that clause's, reported
// and grouped with the case that checks it. Any other is a harness error,
// reported at once (the case ends harness-error, never failed).
//
// The framework's own rules are NIP-01 sentences every case observes on
// every write and read: an OK false or a CLOSED without its prefix
// (CheckPrefix: ClauseOKPrefix, ClauseClosedPrefix) and an OK false for an
// event the relay serves afterwards (the OK postcondition:
// ClauseOKTruth). They are recorded by the framework, whether or not the
// case cites them. A plain failure of a case citing several
// clauses with no scope set records no clause: that is a harness bug to
// fix in the case (a Checking before the step, or a Violates), and the
// kill test reports every such failure (killVerdict.Unattributed).
// Timeouts, blocked and unsupported outcomes record no clause.

// Violates fails the case for breaking clauseID, one of the case's own
// Clauses, with a message in our words; the clause travels as data
// (Verdict.Violates), so reports group failures by it without reading
// the message.
func (t *T) Violates(clauseID, format string, args ...any) {
	GinkgoHelper()
	t.mustCite("Violates", clauseID)
	recordVerdict(Verdict{Violates: clauseID})
	// The failing goroutine's scope is the clause: judgeFailure finds it
	// there when the failure was a worker's (scope.go), whatever another
	// goroutine recorded.
	t.scope(clauseID)
	Failf(format, args...)
}

// Checking opens a step that checks clauseID, one the case may break
// (MayBreak): until the next Checking, a plain failure of the case (its
// own or a shared helper's) breaks clauseID (see the rules above). done
// restores the scope before it: a shared helper scopes its own step with
// defer t.Checking(id)(), and leaves the case's scope as it found it.
func (t *T) Checking(clauseID string) (done func()) {
	GinkgoHelper()
	t.mustCite("Checking", clauseID)
	return t.scope(clauseID)
}

// Invariant opens a step of a shared check that holds clauseID on
// everything it reads, whatever the case cites: the shape of every labels
// snapshot, the t/P order of every identity state event. A failure in it
// breaks that sentence, not the case's own (which it keeps the case from
// observing): the failure is reported and grouped with the cases that cite
// clauseID, and the kill judge counts it for their fault only. clauseID
// must be a testable clause; use it in shared helpers only (a case's own
// step is Checking). Use as defer t.Invariant(id)().
func (t *T) Invariant(clauseID string) (done func()) {
	GinkgoHelper()
	if cl, ok := clause.LookupClause(clauseID); !ok || !cl.Testable {
		recordOutcome(reports.HarnessError)
		Fail(fmt.Sprintf("harness: Invariant(%q) in case %s names no testable clause", clauseID, t.Case.ID))
	}
	return t.scope(clauseID)
}

// scope sets the step scope and returns what restores the one before.
// Deferred, it keeps the step's scope when the step fails (a failure
// panics through it): the failure is judged after the case body
// (judgeFailure), and must find the clause of the step that failed.
// The scope is the calling goroutine's (scope.go): a worker of t.Go
// changes its own only, and done restores the goroutine's it was set on.
func (t *T) scope(clauseID string) func() {
	t.mu.Lock()
	s := t.slot()
	prev := s.clause
	s.clause = clauseID
	t.mu.Unlock()
	return func() {
		if r := recover(); r != nil {
			panic(r)
		}
		t.mu.Lock()
		s.clause = prev
		t.mu.Unlock()
	}
}

// The framework's rules (see above).
const (
	ClauseOKPrefix     = "nip01/ok-prefix.1"
	ClauseClosedPrefix = "nip01/ok-prefix.2"
)

// mustCite ends the case as a harness error when id is neither one of
// the case's own clauses nor a testable clause of its section (see above):
// a case may only break what it cites, or a shared step of its section.
func (t *T) mustCite(how, id string) {
	GinkgoHelper()
	if MayBreak(t.Case, id) {
		return
	}
	recordOutcome(reports.HarnessError)
	Fail(fmt.Sprintf("harness: %s(%q) in case %s names a clause the case may not break (its clauses: %s; or a clause of its section %s)",
		how, id, t.Case.ID, strings.Join(t.Case.Clauses, ", "), t.Case.Section))
}

// MayBreak reports whether a failure of case c may name clause id: one of
// c's Clauses, or a testable clause of c's Section (a shared step of the
// section).
func MayBreak(c Case, id string) bool {
	if slices.Contains(c.Clauses, id) {
		return true
	}
	cl, ok := clause.LookupClause(id)
	return ok && cl.Testable && cl.Section == c.Section
}

// Breaking is the clause a plain failure of the calling goroutine breaks
// now: its step scope (Checking), or the case's only clause; "" when the
// case cites several and no step scope is set.
func (t *T) Breaking() string {
	return breaking(t.Case, t.currentScope())
}

// breaking is Breaking's rule: the step scope, else the only clause.
func breaking(c Case, scoped string) string {
	if scoped != "" {
		return scoped
	}
	if len(c.Clauses) == 1 {
		return c.Clauses[0]
	}
	return ""
}

// contractBlocked is the verdict of a failed case whose rule is a contract
// point of the harness, which no NIP requires: an unmet one blocks the
// case, it never fails the relay.
func contractBlocked(c Case) (Verdict, bool) {
	source, _, _ := CaseSource(c)
	if source != clause.SourceContract {
		return Verdict{}, false
	}
	return Verdict{Outcome: reports.Blocked, Precondition: "contract-" + c.Section}, true
}
