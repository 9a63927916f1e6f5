package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
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

// killSections lists the sections whose cases the kill run needs for f in
// profile: the fault's own section and the section of every case citing its
// clause (a case may cite a clause of another section). sectionOf maps a
// case ID to its section ("" when the case is unknown).
func killSections(f reference.Fault, index map[string][]string, sectionOf func(caseID string) string) []string {
	set := map[string]bool{f.Section: true}
	for _, id := range index[f.Clause] {
		if s := sectionOf(id); s != "" {
			set[s] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// KillPlan is the plan that runs the reference relay of profile with
// fault f (and the lawful variants given) on, restricted to the sections
// whose cases can kill it.
func KillPlan(name, profile string, f reference.Fault, variants []string) runner.Plan {
	index := suites.ClauseIndex()
	sectionOf := func(id string) string {
		c, _ := suites.Lookup(id)
		return c.Section
	}
	return runner.Plan{Name: name, Profile: profile, Sections: killSections(f, index, sectionOf),
		Target: &runner.ReferenceTarget{Config: reference.Config{Profile: profile, Faults: []string{f.Name}, Variants: variants}}}
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
