package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
func TestKill(t *testing.T) {
	index := suites.ClauseIndex()
	faults, only := killFaults(t, os.Getenv("NIPCL_KILL_FAULTS"))
	var clean []string
	if !only {
		clean = profiles
	}
	dir := KeepReportDir(t, "kill")
	res := runKillShares(t, dir, killShares(clean, faults, killProcs))

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
			})
			if !v.Survived {
				table = append(table, fmt.Sprintf("%-40s %-9s %-30s killed by %s", f.Name, p, f.Clause, strings.Join(v.Killers, " ")))
			}
		}
	}
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

// killProcs is how many child processes share the kill run. A fault's
// plan mostly waits (a case citing its clause waits out a step timeout for
// what the fault withholds), so runs in separate processes overlap their
// waits; the clean plans are CPU-bound, each in a share of its own.
const killProcs = 4

// killChildEnv carries a child's share of the kill run (TestKillChild).
const killChildEnv = "NIPCL_KILL_CHILD"

// killShare is one child process's part of the kill run: clean relays of
// these profiles, and these faults' plans (KillPlan, in every profile of
// KillProfiles), with reports written to ReportDir.
type killShare struct {
	Clean     []string
	Faults    []string
	ReportDir string
}

// killShares splits the kill run into n shares: each clean profile leads
// a share of its own (the longest plans, the whole suite each), then the
// faults are dealt out one by one to the share with the fewest cases so
// far, counting a clean plan as its catalogue's cases.
func killShares(clean []string, faults []reference.Fault, n int) []killShare {
	if n < 1 {
		n = 1
	}
	shares := make([]killShare, n)
	cost := make([]int, n)
	cheapest := func() int {
		best := 0
		for i := range cost {
			if cost[i] < cost[best] {
				best = i
			}
		}
		return best
	}
	for _, p := range clean {
		i := cheapest()
		shares[i].Clean = append(shares[i].Clean, p)
		for _, c := range suites.Catalogue() {
			if c.Profile == "" || c.Profile == p || c.Profile == framework.ProfileNIP29 {
				cost[i]++
			}
		}
	}
	index := suites.ClauseIndex()
	for _, f := range faults {
		i := cheapest()
		shares[i].Faults = append(shares[i].Faults, f.Name)
		cost[i] += len(killCases(f, index)) * len(KillProfiles(f))
	}
	out := shares[:0]
	for _, s := range shares {
		if len(s.Clean)+len(s.Faults) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// killPlans is the plans of a share: a clean plan per profile, named by
// it, and a plan per fault and profile (faultPlanName).
func killPlans(t testing.TB, share killShare) []runner.Plan {
	var plans []runner.Plan
	for _, p := range share.Clean {
		plans = append(plans, runner.Plan{Name: p, Profile: p,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: p}}})
	}
	faults, _ := killFaults(t, strings.Join(share.Faults, ","))
	for _, f := range faults {
		for _, p := range KillProfiles(f) {
			plans = append(plans, KillPlan(faultPlanName(f, p), p, f, nil))
		}
	}
	return plans
}

// runKillShares runs each share in a child process of this test binary
// (Ginkgo allows one RunSpecs per process), all at once, and returns
// their results joined, also written as one set of reports into dir.
func runKillShares(t *testing.T, dir string, shares []killShare) *reports.Results {
	t.Helper()
	parts := make([]*reports.Results, len(shares))
	errs := make([]error, len(shares))
	var wg sync.WaitGroup
	for i := range shares {
		shares[i].ReportDir = filepath.Join(t.TempDir(), fmt.Sprintf("share-%d", i))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			parts[i], errs[i] = runKillChild(shares[i])
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("share %d: clean %v, %d faults, %d cases in %s", i, shares[i].Clean, len(shares[i].Faults), len(parts[i].Cases),
			parts[i].Finished.Sub(parts[i].Started).Round(time.Millisecond))
	}
	res, err := reports.Merge(parts...)
	if err != nil {
		t.Fatalf("joining the shares' results: %v", err)
	}
	if err := runner.WriteReports(dir, "", res); err != nil {
		t.Fatalf("reports: %v", err)
	}
	return res
}

// runKillChild runs share in a child process and reads its results.
func runKillChild(share killShare) (*reports.Results, error) {
	raw, err := json.Marshal(share)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKillChild$", "-test.count=1", "-test.timeout=15m")
	cmd.Env = append(os.Environ(), killChildEnv+"="+string(raw))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("kill share %s: %w\n%s", raw, err, out)
	}
	return reports.ReadJSON(filepath.Join(share.ReportDir, "results.json"))
}

// TestKillChild is one share of TestKill, in a child process TestKill
// starts (skipped otherwise).
func TestKillChild(t *testing.T) {
	raw := os.Getenv(killChildEnv)
	if raw == "" {
		t.Skip("a share of TestKill; runs only when TestKill starts it")
	}
	var share killShare
	if err := json.Unmarshal([]byte(raw), &share); err != nil {
		t.Fatalf("%s: %v", killChildEnv, err)
	}
	if _, err := runner.Run(context.Background(), runner.Options{
		Plans: killPlans(t, share), ReportDir: share.ReportDir, StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute,
	}); err != nil {
		t.Fatalf("run: %v", err)
	}
}
