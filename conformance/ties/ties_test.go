// Package ties proves that no verdict rests on how a relay orders events
// with equal created_at: the whole suite, every profile, passes against the
// clean reference relay under each clock-tie order policy.
package ties

import (
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// tiePolicies are the reference relay's clock-tie order policies.
var tiePolicies = []string{"ties-newest-stored-first", "ties-first-stored-first"}

// TestEveryProfilePassesUnderEachTieOrder runs, in three processes
// (conformance.RunShares), every profile's whole suite against the clean
// reference relay under each tie-order policy. Every case must pass
// (unsupported and slow cases as in TestKill's clean plans).
func TestEveryProfilePassesUnderEachTieOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per tie-order policy and profile")
	}
	known := map[string]bool{}
	for _, p := range reference.Policies() {
		known[p.Name] = true
	}
	var plans []runner.Plan
	for _, pol := range tiePolicies {
		if !known[pol] {
			t.Fatalf("the reference relay has no policy %q", pol)
		}
		for _, p := range []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels} {
			plans = append(plans, runner.Plan{Name: p + " policy=" + pol, Profile: p,
				Target: &runner.ReferenceTarget{Config: reference.Config{Profile: p, Policies: []string{pol}}}})
		}
	}
	dir := conformance.KeepReportDir(t, "ties")
	// Three processes side by side overlap the cases' waits.
	res := conformance.RunShares(t, runner.Options{
		Plans: plans, ReportDir: dir, StepTimeout: 5 * time.Second, Deadline: 15 * time.Minute, Scale: 25,
	}, 3)
	if res == nil {
		return // a share, in its child process
	}
	ran := map[string]int{}
	for _, c := range res.Cases {
		ran[c.Plan]++
		if !conformance.CleanOutcome(c) {
			t.Errorf("%s: %s", c.Plan, conformance.Describe(c))
		}
	}
	for _, p := range plans {
		if ran[p.Name] == 0 {
			t.Errorf("%s: no cases ran", p.Name)
		}
	}
	t.Logf("%d cases over %d plans in %s", len(res.Cases), len(plans), res.Finished.Sub(res.Started).Round(time.Millisecond))
}
