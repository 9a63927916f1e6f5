package policies

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var allProfiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

// expectation is what a policy leaves unmet for generated keys: the one
// precondition its blocked cases may name, and words its advice must hold.
type expectation struct {
	policy       string
	precondition string
	advice       string
}

var expectations = []expectation{
	{"every-key-moderates", framework.PreUnprivilegedKey.ID, "unprivileged=HEX"},
	{"listed-keys-only", framework.PreAdmitKeys.ID, "--actor-key"},
	{"listed-creators", framework.PreCreateGroup.ID, "--actor-key"},
}

// faultsUnderPolicy are faults whose cases a policy may block: each must
// still be caught, or every case citing its clause be blocked by the
// policy's precondition (masked, and said so), never pass unnoticed. (A
// case of the section that cites another clause — base/restricted/2 beside
// restricted-writes-accepted — runs under the policy since its actors ask
// only for the power its verdict needs.)
var faultsUnderPolicy = []string{"admins-without-roles", "member-can-edit", "private-messages-readable", "restricted-writes-accepted", "leave-ignored"}

type plan struct {
	name, profile string
	exp           expectation
	fault         string
}

func TestPolicies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per policy and profile")
	}
	var plans []plan
	for _, e := range expectations {
		for _, p := range allProfiles {
			plans = append(plans, plan{name: p + " policy=" + e.policy, profile: p, exp: e})
		}
	}
	for _, f := range faultsUnderPolicy {
		plans = append(plans, plan{name: "nip29 policy=every-key-moderates fault=" + f, profile: framework.ProfileNIP29, exp: expectations[0], fault: f})
	}
	sections, clauses := map[string]string{}, map[string]string{}
	for _, f := range reference.Faults() {
		sections[f.Name], clauses[f.Name] = f.Section, f.Clause
	}
	var runPlans []runner.Plan
	for _, pl := range plans {
		cfg := reference.Config{Profile: pl.profile, Policies: []string{pl.exp.policy}}
		rp := runner.Plan{Name: pl.name, Profile: pl.profile, Target: &runner.ReferenceTarget{Config: cfg}}
		if pl.fault != "" {
			sec, ok := sections[pl.fault]
			if !ok {
				t.Fatalf("unknown fault %s", pl.fault)
			}
			cfg.Faults = []string{pl.fault}
			rp.Target = &runner.ReferenceTarget{Config: cfg}
			rp.Sections = []string{sec}
		}
		runPlans = append(runPlans, rp)
	}
	// The plans mostly wait (the policy probes, step timeouts): four
	// processes at once overlap the waits (conformance.RunShares).
	res := conformance.RunShares(t, runner.Options{
		Plans: runPlans, ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute, Scale: 25,
	}, 4)
	if res == nil {
		return // a share, in its child process
	}
	byPlan := conformance.ByPlan(res.Cases)
	incompat := map[string][]reports.Incompatibility{}
	for _, in := range res.Incompatibilities() {
		incompat[in.Plan] = append(incompat[in.Plan], in)
	}
	for _, pl := range plans {
		cases := byPlan[pl.name]
		if len(cases) == 0 {
			t.Errorf("%s: no cases ran", pl.name)
			continue
		}
		failed, blocked := check(t, pl, cases)
		switch {
		case pl.fault == "" && blocked == 0:
			t.Errorf("%s: no case was blocked by %s: the probe did not see the policy", pl.name, pl.exp.precondition)
		case pl.fault != "" && failed == 0:
			citing := conformance.CitingCases(clauses[pl.fault])
			for _, c := range cases {
				if slices.Contains(citing, c.ID) && !(c.Outcome == reports.Blocked && c.Precondition == pl.exp.precondition) {
					t.Errorf("%s: the fault survived: no case failed, and %s, which cites its clause %s, was %s, not blocked by the policy", pl.name, c.ID, clauses[pl.fault], c.Outcome)
				}
			}
		}
		seen := map[string]int{}
		for _, in := range incompat[pl.name] {
			seen[in.Precondition]++
			if !strings.Contains(in.Message, pl.exp.advice) {
				t.Errorf("%s: the incompatible line for %s lacks the advice %q: %s", pl.name, in.Precondition, pl.exp.advice, in.Message)
			}
		}
		for pre, n := range seen {
			if n != 1 {
				t.Errorf("%s: precondition %s reported %d times, want once", pl.name, pre, n)
			}
		}
		t.Logf("%-55s %3d cases, %3d blocked by %s, %d failed", pl.name, len(cases), blocked, pl.exp.precondition, failed)
	}
}

// check requires every case of a plan to pass, be unsupported or slow, be
// blocked by the policy's precondition, or (a fault plan) fail; it
// returns how many failed and how many were blocked.
func check(t *testing.T, pl plan, cases []reports.CaseResult) (failed, blocked int) {
	t.Helper()
	for _, c := range cases {
		switch {
		case conformance.CleanOutcome(c):
		case c.Outcome == reports.Blocked && c.Precondition == pl.exp.precondition:
			blocked++
		case c.Outcome == reports.Fail && pl.fault != "":
			failed++
		default:
			t.Errorf("%s: %s", pl.name, conformance.Describe(c))
		}
	}
	return failed, blocked
}
