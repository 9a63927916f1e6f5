package policykeys

import (
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var allProfiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

type plan struct {
	name, profile string
	cfg           reference.Config
	// allowed are the preconditions the plan's cases may be blocked by;
	// must is the one at least one case must be blocked by ("" = none).
	allowed map[string]bool
	must    string
	advice  string // words the must precondition's incompatible line holds
	// passes are cases that must pass (they ran: the right key was found).
	passes []string
}

// always: cases of the identity profile that read by their actor's own key
// cannot run on keys shared by every case (fresh-keys), and a case with
// more actors of a kind than keys of that kind is blocked (actor-keys).
var always = []string{framework.PreFreshKeys.ID, framework.PreActorKeys.ID}

func allowed(ids ...string) map[string]bool {
	m := map[string]bool{}
	for _, id := range append(ids, always...) {
		m[id] = true
	}
	return m
}

func TestPoliciesWithActorKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per policy and profile")
	}
	var secrets, pubkeys []string
	for i := 0; i < 4; i++ {
		a := fixtures.NewActor("k")
		secrets, pubkeys = append(secrets, a.SecretKey), append(pubkeys, a.PubKey)
	}
	creator := pubkeys[3] // the one key that may create groups, passed last
	var plans []plan
	for _, p := range allProfiles {
		plans = append(plans,
			plan{name: p + " policy=every-key-moderates", profile: p,
				cfg:     reference.Config{Profile: p, Policies: []string{"every-key-moderates"}},
				allowed: allowed(framework.PreUnprivilegedKey.ID), must: framework.PreUnprivilegedKey.ID,
				advice: "every key you passed may moderate groups it does not administer"},
			plan{name: p + " policy=listed-keys-only", profile: p,
				cfg:     reference.Config{Profile: p, Policies: []string{"listed-keys-only"}, AdmittedKeys: pubkeys},
				allowed: allowed(), passes: []string{"base/auth/4", "base/permissions/2"}},
		)
	}
	plans = append(plans, plan{name: "nip29 policy=listed-creators", profile: framework.ProfileNIP29,
		cfg:     reference.Config{Profile: framework.ProfileNIP29, Policies: []string{"listed-creators"}, CreatorKeys: []string{creator}},
		allowed: allowed(), passes: []string{"base/auth/2", "base/auth/4", "base/permissions/2", "base/create/2"}})
	var runPlans []runner.Plan
	for _, pl := range plans {
		runPlans = append(runPlans, runner.Plan{Name: pl.name, Profile: pl.profile, Target: &runner.ReferenceTarget{Config: pl.cfg}})
	}
	// The plans mostly wait (the policy probes, step timeouts): four
	// processes at once overlap the waits (conformance.RunShares).
	res := conformance.RunShares(t, runner.Options{
		Plans: runPlans, ActorKeys: secrets, ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute, Scale: 25,
	}, 4)
	if res == nil {
		return // a share, in its child process
	}
	byPlan := map[string]map[string]reports.CaseResult{}
	for _, c := range res.Cases {
		if byPlan[c.Plan] == nil {
			byPlan[c.Plan] = map[string]reports.CaseResult{}
		}
		byPlan[c.Plan][c.ID] = c
	}
	incompat := map[string]map[string]reports.Incompatibility{}
	for _, in := range res.Incompatibilities() {
		if incompat[in.Plan] == nil {
			incompat[in.Plan] = map[string]reports.Incompatibility{}
		}
		if _, dup := incompat[in.Plan][in.Precondition]; dup {
			t.Errorf("%s: precondition %s reported more than once", in.Plan, in.Precondition)
		}
		incompat[in.Plan][in.Precondition] = in
	}
	for _, pl := range plans {
		cases := byPlan[pl.name]
		if len(cases) == 0 {
			t.Errorf("%s: no cases ran", pl.name)
			continue
		}
		blocked := map[string]int{}
		for _, c := range cases {
			switch {
			case conformance.CleanOutcome(c):
			case c.Outcome == reports.Blocked && pl.allowed[c.Precondition]:
				blocked[c.Precondition]++
			default:
				t.Errorf("%s: %s", pl.name, conformance.Describe(c))
			}
		}
		if pl.must != "" {
			in, ok := incompat[pl.name][pl.must]
			switch {
			case !ok:
				t.Errorf("%s: no incompatible line for %s", pl.name, pl.must)
			case !strings.Contains(in.Message, pl.advice):
				t.Errorf("%s: the incompatible line for %s does not say %q: %s", pl.name, pl.must, pl.advice, in.Message)
			}
		}
		for _, id := range pl.passes {
			if c := cases[id]; c.Outcome != reports.Pass {
				t.Errorf("%s: %s, want pass (the probe should have found it a fitting key)", pl.name, conformance.Describe(c))
			}
		}
		t.Logf("%-40s %3d cases, blocked %v", pl.name, len(cases), blocked)
	}
	for _, p := range res.Plans {
		if len(p.Keys) != len(secrets) {
			t.Errorf("%s: the report lists %d probed keys, want %d", p.Name, len(p.Keys), len(secrets))
		}
	}
}
