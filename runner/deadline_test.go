package runner

import (
	"context"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// TestPacingNeverEatsACaseDeadline: a paced run gives every case time for
// its pacing waits on top of its own deadline (the pacer is the harness's
// choice, never the relay's slowness), from the step deadline Prepare
// measured.
func TestPacingNeverEatsACaseDeadline(t *testing.T) {
	if got := caseTimeout(time.Second, 0); got != 30*time.Second {
		t.Errorf("unpaced case timeout %s, want 30s", got)
	}
	ref := &ReferenceTarget{Config: reference.Config{Profile: "nip29"}}
	env, stop, err := Prepare(context.Background(), Options{Rate: 0.001, StepTimeout: time.Second}, Plan{Target: ref, Profile: "nip29"})
	defer stop()
	if err != nil {
		t.Fatal(err)
	}
	// One paced write every 1000 s: a case of a few writes needs hours.
	if want := pacedWritesPerCase * 1000 * time.Second; env.CaseTimeout < want {
		t.Errorf("case timeout %s at --rate 0.001, want at least %s", env.CaseTimeout, want)
	}
}

// TestDerivedDeadlineGrowsWithThePlan: the derived deadline covers the
// cases at the measured round trip and the pacing, with a margin.
func TestDerivedDeadlineGrowsWithThePlan(t *testing.T) {
	plan := func(rttMS float64) []*preparedPlan {
		return []*preparedPlan{{env: &suites.Env{Profile: "nip29"}, result: reports.PlanResult{RTTMS: rttMS}}}
	}
	local := estimate(plan(0.1), &Options{})
	far := estimate(plan(100), &Options{})
	paced := estimate(plan(100), &Options{Rate: 5, Safe: true})
	if local.Cases == 0 || local.Cases != far.Cases {
		t.Fatalf("cases: local %d, far %d", local.Cases, far.Cases)
	}
	if !(local.Deadline < far.Deadline && far.Deadline < paced.Deadline) {
		t.Errorf("deadlines local %s, far %s, paced %s: want increasing", local.Deadline, far.Deadline, paced.Deadline)
	}
	if paced.Cases > far.Cases {
		t.Errorf("safe mode runs %d cases, more than %d", paced.Cases, far.Cases)
	}
	// A relay without nip-cl checked with profile auto: its NIP-CL cases
	// are reported unsupported at once and cost nothing.
	plain := []*preparedPlan{{env: &suites.Env{Profile: "nip29", Unsupported: "no nip-cl"}, result: reports.PlanResult{RTTMS: 100}}}
	labels := []*preparedPlan{{env: &suites.Env{Profile: "labels"}, result: reports.PlanResult{RTTMS: 100}}}
	if p, l := estimate(plain, &Options{}), estimate(labels, &Options{}); p.Cases != far.Cases || l.Cases <= far.Cases {
		t.Errorf("cases: unsupported nip-cl %d, nip29 %d, labels %d", p.Cases, far.Cases, l.Cases)
	}
	// 5 writes/s, 8 writes a case: the pacing alone.
	if want := time.Duration(paced.Cases*writesPerCase/5) * time.Second; paced.Pace < want || paced.Deadline < 2*want {
		t.Errorf("paced estimate %+v, want pacing %s, deadline at least twice that", paced, want)
	}
}
