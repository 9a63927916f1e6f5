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
	t.Parallel() // its probe waits on the pacer; no timing is asserted
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

// TestSharedPacingNeverEatsACaseDeadline: a worker whose writes wait on
// its parent's shared pacer gets the whole plan's pacing on top of each
// case's own deadline (its share of the rate is unknown to it, and a case's
// writes cannot wait longer than every write of the run); a pacer of its
// own leaves the case deadline as Prepare set it.
func TestSharedPacingNeverEatsACaseDeadline(t *testing.T) {
	plan := func() []*preparedPlan {
		return []*preparedPlan{{env: &suites.Env{Profile: "labels", CaseTimeout: time.Minute}, result: reports.PlanResult{RTTMS: 1}}}
	}
	shared := &Options{Rate: 5, Safe: true, Pace: func(context.Context) error { return nil }}
	p := plan()
	est := estimate(p, shared)
	allowSharedPacing(p, shared, est)
	if want := time.Minute + est.Pace; p[0].env.CaseTimeout != want || est.Pace < time.Duration(est.Cases*writesPerCase/5)*time.Second {
		t.Errorf("shared pacer: case timeout %s, want %s (the plan's pacing %s on top)", p[0].env.CaseTimeout, want, est.Pace)
	}
	own := &Options{Rate: 5, Safe: true}
	p = plan()
	allowSharedPacing(p, own, estimate(p, own))
	if p[0].env.CaseTimeout != time.Minute {
		t.Errorf("own pacer: case timeout %s, want it unchanged (1m0s)", p[0].env.CaseTimeout)
	}
}
