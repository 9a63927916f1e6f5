package runner

import (
	"fmt"
	"time"

	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Deadline derivation: a run without --deadline gets one from its plan,
// so that a healthy relay never sees its run cut short (and a run that
// cannot fit is said to be so before it begins).
const (
	// costRTT is the round trip at which caseCostJSON was measured; a
	// faster link is counted as minCostRTT (the relay's own work remains).
	costRTT    = 50 * time.Millisecond
	minCostRTT = 5 * time.Millisecond
	// writesPerCase is how many paced writes a case is assumed to make
	// (most make a handful; heavy cases, skipped in safe mode, more).
	writesPerCase = 8
	// deadlineMargin multiplies the estimate; deadlineFloor is added.
	deadlineMargin = 2
	deadlineFloor  = time.Minute
	// pacedWritesPerCase is the writes a case's own timeout allows
	// pacing for (CaseTimeout grows by this many paced writes): pacing is
	// the harness's choice, never the relay's slowness.
	pacedWritesPerCase = 100
)

// Estimate is what a run is expected to take, and why.
type Estimate struct {
	Cases int           // cases the plans will run (slow and heavy ones left out as the run would)
	RTT   time.Duration // the slowest measured round trip
	Rate  float64       // paced writes per second (0 = unpaced)
	Work  time.Duration // the cases' expected wall time at that round trip
	Pace  time.Duration // the pacing waits of their writes
	// Deadline is (Work + Pace) × deadlineMargin + deadlineFloor.
	Deadline time.Duration
}

// String says the estimate in one line for the start of a run.
func (e Estimate) String() string {
	s := fmt.Sprintf("%d cases, round trip %s", e.Cases, e.RTT.Round(time.Millisecond))
	if e.Rate > 0 {
		s += fmt.Sprintf(", %g writes/s (about %s of pacing)", e.Rate, e.Pace.Round(time.Second))
	}
	return s
}

// caseTimeout is a case's own deadline (Env.CaseTimeout): 12 step
// deadlines, at least 30 s, plus the pacing of pacedWritesPerCase writes at
// rate, so that waiting for the pacer never times a case out.
func caseTimeout(step time.Duration, rate float64) time.Duration {
	d := max(12*step, 30*time.Second)
	if rate > 0 {
		d += time.Duration(pacedWritesPerCase / rate * float64(time.Second))
	}
	return d
}

// estimate derives a run's expected duration from its prepared plans:
// each case's cost at costRTT (caseCostJSON) scaled to the slowest
// measured round trip (at least minCostRTT), plus the pacing of
// writesPerCase writes per case at rate, with a margin.
func estimate(prepared []*preparedPlan, opts *Options) Estimate {
	e := Estimate{Rate: opts.Rate}
	var costMS int64
	for _, p := range prepared {
		if p.env.SetupErr != nil {
			continue
		}
		if rtt := time.Duration(p.result.RTTMS * float64(time.Millisecond)); rtt > e.RTT {
			e.RTT = rtt
		}
		for _, c := range suites.Catalogue() {
			if !p.env.Applies(c) || (c.Slow && !opts.Slow) || (c.Heavy && opts.Safe && !opts.AllowHeavy) {
				continue
			}
			if p.env.Unsupported != "" && c.Profile != framework.ProfileBaseline {
				continue // reported unsupported at once: the relay lacks nip-cl
			}
			e.Cases++
			costMS += int64(casePriority(c))
		}
	}
	scale := float64(max(e.RTT, minCostRTT)) / float64(costRTT)
	e.Work = time.Duration(float64(costMS)*scale) * time.Millisecond
	if opts.Rate > 0 {
		e.Pace = time.Duration(float64(e.Cases*writesPerCase) / opts.Rate * float64(time.Second))
	}
	e.Deadline = ((e.Work+e.Pace)*deadlineMargin + deadlineFloor).Round(time.Second)
	return e
}

// allowSharedPacing lengthens every case's own deadline by the pacing of
// the whole plan when the pacer is shared with other processes
// (Options.Pace: a parallel run's workers take their write slots from
// their parent). caseTimeout allows for a case's writes at the full rate,
// but a shared pacer hands each worker a fraction of it: 24 workers at 5
// writes/s wait about 4.8 s a write, and a case of 30 writes then outlasted
// its own deadline — a timeout of the harness's pacing, never the relay's.
// A case's writes cannot wait longer than every write of the run, which is
// est.Pace (estimated for the whole plan, whatever this worker's share).
func allowSharedPacing(prepared []*preparedPlan, opts *Options, est Estimate) {
	if opts.Pace == nil || est.Pace <= 0 {
		return
	}
	for _, p := range prepared {
		if p.env != nil {
			p.env.CaseTimeout += est.Pace
		}
	}
}
