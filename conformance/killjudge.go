package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// killVerdict is the kill test's judgement of one fault in one profile.
type killVerdict struct {
	Fault, Profile, Clause string
	Ran                    int      // cases that ran with the fault on
	Killers                []string // cases citing Clause that failed at it or timed out
	// Bystanders failed or timed out without breaking Clause: cases that
	// do not cite it, and citing cases whose failure recorded another of
	// their clauses. They do not count (a fault caught only by them is
	// mislabelled, or its clause's cases do not observe it).
	Bystanders []string
	// Unattributed failed without recording the clause they broke
	// (reports.CaseResult.Violates): a harness bug in the case (a step
	// with no t.Checking scope in a case citing several clauses); the kill
	// test reports each one.
	Unattributed []string
	// Survived is true when no case citing Clause failed; Why says what was
	// missing.
	Survived bool
	Why      string
}

// judgeKill decides whether the fault f was killed in profile: killed means
// at least one case that the clause → cases index lists for f.Clause failed
// or timed out among results (the cases of the plan that ran with f on),
// and a failure that recorded the clause it broke recorded f.Clause. A
// failure of any other case, even of the same section, or of a citing case
// at another of its clauses, does not count. It is a pure function of its
// inputs.
func judgeKill(f reference.Fault, profile string, results []reports.CaseResult, index map[string][]string) killVerdict {
	v := killVerdict{Fault: f.Name, Profile: profile, Clause: f.Clause, Ran: len(results)}
	citing := map[string]bool{}
	for _, id := range index[f.Clause] {
		citing[id] = true
	}
	for _, c := range results {
		if c.Outcome != reports.Fail && c.Outcome != reports.Timeout {
			continue
		}
		if c.Outcome == reports.Fail && c.Violates == "" {
			v.Unattributed = append(v.Unattributed, c.ID)
		}
		if citing[c.ID] && (c.Violates == "" || c.Violates == f.Clause) {
			v.Killers = append(v.Killers, c.ID)
		} else {
			v.Bystanders = append(v.Bystanders, c.ID)
		}
	}
	sort.Strings(v.Killers)
	sort.Strings(v.Bystanders)
	sort.Strings(v.Unattributed)
	switch {
	case f.Clause == "":
		v.Why = "it names no clause (give its row a Clause in reference/faults_<profile>.go)"
	case len(citing) == 0:
		v.Why = fmt.Sprintf("no case cites its clause %s (no case lists it in its Clauses)", f.Clause)
	case len(results) == 0:
		v.Why = fmt.Sprintf("no case ran (the cases citing %s: %s)", f.Clause, strings.Join(index[f.Clause], " "))
	case len(v.Killers) == 0 && len(v.Bystanders) > 0:
		v.Why = fmt.Sprintf("no case citing %s failed (ran %d); only cases of other clauses did: %s",
			f.Clause, len(results), strings.Join(v.Bystanders, " "))
	case len(v.Killers) == 0:
		v.Why = fmt.Sprintf("no case citing %s failed (ran %d)", f.Clause, len(results))
	}
	v.Survived = len(v.Killers) == 0
	return v
}

// killCases lists the cases the kill run needs for f: the cases citing
// its clause, sorted, each once. Only they can kill it (judgeKill), so
// they are all a fault's plan runs.
func killCases(f reference.Fault, index map[string][]string) []string {
	set := map[string]bool{}
	for _, id := range index[f.Clause] {
		set[id] = true
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// KillPlan is the plan that runs the reference relay of profile with
// fault f (and the lawful variants given) on, restricted to the cases
// citing the fault's clause: the only cases that can kill it. A fault
// whose clause no case cites gets a plan of no case, which Killed
// judges survived.
func KillPlan(name, profile string, f reference.Fault, variants []string) runner.Plan {
	cases := killCases(f, suites.ClauseIndex())
	if len(cases) == 0 {
		// An empty list would select every case; no case ID is empty.
		cases = []string{""}
	}
	return runner.Plan{Name: name, Profile: profile, Cases: cases,
		Target: &runner.ReferenceTarget{Config: reference.Config{Profile: profile, Faults: []string{f.Name}, Variants: variants}}}
}

// KillProfiles lists the profiles a fault is exercised in: its own, or
// nip29 for a core fault (the baseline cases that cite core sections run
// in every profile, so one is enough to prove the kill).
func KillProfiles(f reference.Fault) []string {
	if f.Profile != "" {
		return []string{f.Profile}
	}
	return []string{framework.ProfileNIP29}
}

// KillVerdict is the judgement of one fault in one profile (Judge).
type KillVerdict = killVerdict

// Judge judges a kill plan's results as the kill test does, with the
// cases that killed the fault and the failing cases that did not count.
func Judge(f reference.Fault, profile string, results []reports.CaseResult) KillVerdict {
	return judgeKill(f, profile, results, suites.ClauseIndex())
}

// Killed judges a kill plan's results as the kill test does: a case citing
// the fault's clause failed or timed out. why says what was missing.
func Killed(f reference.Fault, profile string, results []reports.CaseResult) (killed bool, why string) {
	v := judgeKill(f, profile, results, suites.ClauseIndex())
	return !v.Survived, v.Why
}

// CitingCases lists the cases whose clauses include clause: the cases
// that can kill a fault breaking it.
func CitingCases(clause string) []string { return suites.ClauseIndex()[clause] }

// attribution measures, over the fault plans of a kill run (plan names
// holding " fault="), how many failing case runs recorded the clause they
// broke, and how many fault plans show more than one root cause among
// their failures and timeouts (reports.Causes; blocked cases aside).
func attribution(r *reports.Results) string {
	failed, recorded := 0, 0
	for _, c := range r.Cases {
		if !strings.Contains(c.Plan, " fault=") || c.Outcome != reports.Fail {
			continue
		}
		failed++
		if c.Violates != "" {
			recorded++
		}
	}
	causes := map[string]int{}
	for _, k := range r.Causes() {
		if strings.Contains(k.Plan, " fault=") && k.Outcome != reports.Blocked {
			causes[k.Plan]++
		}
	}
	plans, several := 0, 0
	for _, n := range causes {
		plans++
		if n > 1 {
			several++
		}
	}
	pct := 100.0
	if failed > 0 {
		pct = 100 * float64(recorded) / float64(failed)
	}
	return fmt.Sprintf("clause attribution: %d of %d failing case runs in the fault plans recorded their clause (%.1f %%); %d of %d fault plans with failures give more than one root cause",
		recorded, failed, pct, several, plans)
}
