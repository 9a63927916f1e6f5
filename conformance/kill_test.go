package conformance

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// profiles are the clean reference relays every suite runs against.
var profiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

// faultPlanName is the plan label of the run with one fault on.
func faultPlanName(f reference.Fault, profile string) string {
	return profile + " fault=" + f.Name
}

// TestKill runs, in one process (Ginkgo allows one RunSpecs), every suite
// against a clean reference relay per profile, and for each fault switch
// the cases citing its clause (KillPlan) against a relay with that fault.
// The clean relays must pass every case; each fault must make at least one
// case citing its clause (reference.Fault.Clause, suites.ClauseIndex)
// fail: a failure of another clause's case would not count (judgeKill),
// so no other case runs.
//
// NIPCL_KILL_FAULTS=name,name runs only those faults' plans and no clean
// relay (a quick look at a few faults; the full test runs them all), each
// judged in its own subtest TestKill/<fault>/<profile>; so does
// `nipcl-conform kill name...`. NIPCL_KEEP_REPORT=1 keeps the reports
// (KeepReportDir).
// killProcs is how many child processes share the kill run (RunShares):
// a fault's plan mostly waits (a case citing its clause waits out a step
// timeout for what the fault withholds), so plans in separate processes
// overlap their waits. The three clean plans lead a share each; with four
// shares the one left for faults took twice as long as theirs (TestKill
// used 51 s of CPU in 142 s at load 20): six deal the fault plans over
// three more.
const killProcs = 6

func TestKill(t *testing.T) {
	index := suites.ClauseIndex()
	faults, only := killFaults(t, os.Getenv("NIPCL_KILL_FAULTS"))
	var plans []runner.Plan
	for _, p := range profiles {
		if only {
			break
		}
		plans = append(plans, runner.Plan{Name: p, Profile: p,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: p}}})
	}
	for _, f := range faults {
		for _, p := range KillProfiles(f) {
			plans = append(plans, KillPlan(faultPlanName(f, p), p, f, nil))
		}
	}
	res := RunShares(t, runner.Options{
		Plans: plans, ReportDir: KeepReportDir(t, "kill"), StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute,
	}, killProcs)
	if res == nil {
		return // a share, in its child process
	}

	byPlan := ByPlan(res.Cases)
	for _, p := range profiles {
		if only {
			break
		}
		cases := byPlan[p]
		if len(cases) == 0 {
			t.Errorf("clean %s relay: no cases ran", p)
		}
		for _, c := range cases {
			switch {
			case !CleanOutcome(c):
				t.Errorf("clean %s relay: %s", p, Describe(c))
			case c.Outcome != reports.Pass:
				t.Logf("clean %s relay: %s", p, Describe(c))
			}
		}
	}
	var table []string
	for _, f := range faults {
		for _, p := range KillProfiles(f) {
			name := faultPlanName(f, p)
			for _, c := range byPlan[name] {
				if c.Outcome != reports.Pass && framework.HasMatcherBoilerplate(c.Message) {
					t.Errorf("fault %s (%s): %s fails with matcher boilerplate instead of expected vs observed in our words:\n%s", f.Name, p, c.ID, c.Message)
				}
			}
			v := judgeKill(f, p, byPlan[name], index)
			t.Run(f.Name+"/"+p, func(t *testing.T) {
				if v.Survived {
					t.Errorf("fault %s (%s, clause %s) survived: %s", f.Name, p, f.Clause, v.Why)
				}
				for _, id := range v.Unattributed {
					t.Errorf("fault %s (%s): %s failed without recording the clause it broke (give the step a t.Checking or t.Violates)", f.Name, p, id)
				}
			})
			if !v.Survived {
				table = append(table, fmt.Sprintf("%-40s %-9s %-30s killed by %s", f.Name, p, f.Clause, strings.Join(v.Killers, " ")))
			}
		}
	}
	t.Log(attribution(res))
	t.Logf("fault kill table (%d faults, %d cases in %s; fault, profile, clause, the cases citing it that failed):\n%s", len(faults), len(res.Cases),
		res.Finished.Sub(res.Started).Round(time.Millisecond), strings.Join(table, "\n"))
}

// killFaults is the faults the kill test runs: every fault, or only the
// comma-separated names of list (then only is true). An unknown name stops
// the test.
func killFaults(t testing.TB, list string) (faults []reference.Fault, only bool) {
	all := reference.Faults()
	if strings.TrimSpace(list) == "" {
		return all, false
	}
	byName := map[string]reference.Fault{}
	for _, f := range all {
		byName[f.Name] = f
	}
	for _, name := range strings.Split(list, ",") {
		f, ok := byName[strings.TrimSpace(name)]
		if !ok {
			t.Fatalf("NIPCL_KILL_FAULTS: unknown fault %q", name)
		}
		faults = append(faults, f)
	}
	return faults, true
}
