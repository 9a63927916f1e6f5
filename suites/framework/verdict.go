package framework

import (
	"encoding/json"
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

// Violates fails the case for breaking clauseID, one of the case's own
// Clauses, with a message in our words; the clause travels as data
// (Verdict.Violates), so reports group failures by it without reading
// the message.
func (t *T) Violates(clauseID, format string, args ...any) {
	GinkgoHelper()
	recordVerdict(Verdict{Violates: clauseID})
	Failf(format, args...)
}

// violatedClause is the clause a failed case breaks: the one of its
// clauses its failure message cites. A message citing none names no
// clause: a shared step (a snapshot's sort order, say) may have failed on
// a rule other than the case's own, and guessing would split one broken
// sentence into many causes.
func violatedClause(c Case, message string) string {
	for _, id := range ClausesInOrder(c) {
		if strings.Contains(message, "("+id+")") || strings.Contains(message, id+":") {
			return id
		}
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
