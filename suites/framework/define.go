package framework

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
)

// Report entry names the runner reads back from Ginkgo's report, beside
// EntryVerdict (verdict.go).
const (
	EntryTranscript = "nipcl.transcript" // wire transcript of a failed case
	EntryNote       = "nipcl.note"       // informational remark (reading seen, rounds run …)
)

// DefineSpecs registers one Ginkgo container for env with one Ginkgo spec
// per applicable case of specs.
func DefineSpecs(env *Env, specs []Spec) {
	env.defaults()
	// Ginkgo sorts the specs by their text before it orders them (every
	// spec here has the same code location); defined in that order, the
	// sort costs one pass over sorted input instead of a full sort in
	// every worker. The order they run in is Ginkgo's either way.
	specs = slices.Clone(specs)
	slices.SortStableFunc(specs, func(a, b Spec) int { return strings.Compare(a.ID, b.ID) })
	Describe(env.Plan, func() {
		for _, s := range specs {
			if !env.Applies(s.Case) {
				continue
			}
			s := s
			if run := env.Override[s.ID]; run != nil {
				s.Run = run
			}
			args := []any{CaseLabels(s.Case), func(ctx SpecContext) { runSpec(ctx, env, s) }, SpecTimeout(env.CaseTimeout)}
			if env.Priority != nil {
				args = append(args, SpecPriority(env.Priority(s.Case)))
			}
			It(s.ID, args...)
		}
	})
}

func runSpec(ctx SpecContext, env *Env, s Spec) {
	if env.Claim != nil && !env.Claim(s.ID) {
		// Another worker's case: the verdict says so and the reports
		// leave the spec out. A plain return, not Skip: Skip records a
		// whole stack trace, and each worker passes over every case the
		// others claimed (3 of 21 CPU-s of 48 workers' run).
		recordVerdict(Verdict{Unclaimed: true})
		return
	}
	if env.SetupErr != nil {
		if env.SetupTimedOut {
			recordOutcome(reports.Timeout)
		} else {
			recordOutcome(reports.HarnessError)
		}
		Fail("setup: " + env.SetupErr.Error())
	}
	if s.Profile != ProfileBaseline && env.Unsupported != "" {
		recordOutcome(reports.Unsupported)
		Skip(env.Unsupported)
	}
	if s.Slow && !env.Slow {
		Skip("slow case: it waits on the relay's clock; run with --slow")
	}
	if s.Heavy && env.Safe && !env.AllowHeavy {
		Skip("safe mode: this case needs many writes; run with --allow-heavy to include it")
	}
	t := newT(ctx, env, s.Case)
	DeferCleanup(func() {
		t.deleteCreated()
		t.closeAll()
		if CurrentSpecReport().State.Is(types.SpecStateFailureStates) {
			AddReportEntry(EntryTranscript, t.tr.String(), ReportEntryVisibilityNever)
			judgeFailure(t, s.Case)
		}
	})
	DeferCleanup(t.checkSubIDs) // the subscription-id watch (subwatch.go), after the OK postcondition
	DeferCleanup(t.checkOKs)    // runs first: the OK postcondition (okpostcondition.go)
	s.Run(t)
	t.endNotJudged()
}

// judgeFailure decides, in one place, what a failed case's failure means
// for the relay, and records it as the case's verdict:
//   - a case whose data left the relay's published limits, and that the
//     relay refused for it, is unsupported (the relay enforced what it
//     published: no verdict);
//   - a plain failure (no outcome recorded, not a timeout or interrupt) of a
//     contract case blocks: a contract point is the harness's need, which no
//     NIP requires;
//   - any other plain failure breaks a clause of the case: the one it
//     named (Violates), else the scope of the step that raised the failure
//     (a t.Go worker's own: failureScope, scope.go) or the case's only
//     clause (breaking, verdict.go), recorded as data (Verdict.Violates). A
//     failure with neither records no clause and says so in a note: a
//     harness bug the kill test reports.
func judgeFailure(t *T, c Case) {
	report := CurrentSpecReport()
	prior, _ := VerdictOf(report)
	stopped := report.State.Is(types.SpecStateTimedout | types.SpecStateInterrupted)
	if refusals := t.LimitRefusals(); len(refusals) > 0 && !stopped {
		recordOutcome(reports.Unsupported)
		AddReportEntry(EntryNote, "unsupported: "+strings.Join(refusals, "; ")+" (the case's data leaves the relay's published limits)", ReportEntryVisibilityNever)
		return
	}
	if prior.Outcome != "" || report.State != types.SpecStateFailed {
		return
	}
	if v, ok := contractBlocked(c); ok {
		recordVerdict(v)
		return
	}
	t.mu.Lock()
	paced := t.paceRefused
	t.mu.Unlock()
	if paced != "" {
		// The relay refused one of the case's writes for its pace (a rate
		// limit): what failed after it rests on a write the relay never
		// judged. Blocked, with the fix (--rate), never failed.
		recordVerdict(Verdict{Outcome: reports.Blocked, Precondition: PreRateLimit.ID})
		AddReportEntry(EntryNote, "blocked on "+PreRateLimit.ID+": the relay answered a write of this case with a rate limit ("+paced+"); "+PreRateLimit.Adapt, ReportEntryVisibilityNever)
		return
	}
	// The scope of the step that raised the spec's failure: a worker's
	// (t.Go) when a worker raised it, else the case's (scope.go). A
	// worker's scope wins over a Violates another goroutine recorded.
	scoped, inWorker := t.failureScope(report.Failure.Location)
	if prior.Violates != "" && (!inWorker || scoped == "" || scoped == prior.Violates) {
		return
	}
	if id := breaking(c, scoped); id != "" {
		recordVerdict(Verdict{Violates: id})
		return
	}
	AddReportEntry(EntryNote, "harness: this failure names no clause (the case cites "+strings.Join(c.Clauses, ", ")+" and no step scope was set: t.Checking or t.Violates)", ReportEntryVisibilityNever)
}

// recordStepError records the outcome class of a step's error: a timeout
// for fixtures.ErrTimeout, a harness error for a relay that can no longer
// be reached (it vanished: no verdict on what it would have answered).
// (The runner's classify maps a finished spec to its class.)
func recordStepError(err error) {
	switch {
	case errors.Is(err, fixtures.ErrTimeout):
		recordOutcome(reports.Timeout)
	case errors.Is(err, fixtures.ErrUnreachable):
		recordOutcome(reports.HarnessError)
	}
}

// Failf fails the case with a message in our words (expected vs.
// observed), reported at its caller.
func Failf(format string, args ...any) {
	Fail(fmt.Sprintf(format, args...), 2)
}

// CaseLabels are a case's metadata as Ginkgo labels, so Ginkgo's own tools
// select cases: the profile ("nip29" for the baseline cases every profile
// runs), the level (MUST, SHOULD, MAY), the source (nip, draft, contract),
// area:<area>, section:<section with '/' as '.'>, and slow / heavy.
// Example: --label-filter 'labels && MUST && !slow'.
func CaseLabels(c Case) Labels {
	profile := c.Profile
	if profile == ProfileBaseline {
		profile = ProfileNIP29
	}
	out := Labels{profile, string(c.Level), "area:" + c.Area, "section:" + strings.ReplaceAll(c.Section, "/", ".")}
	if source, _, _ := CaseSource(c); source != "" {
		out = append(out, source)
	}
	if c.Slow {
		out = append(out, "slow")
	}
	if c.Heavy {
		out = append(out, "heavy")
	}
	return out
}
