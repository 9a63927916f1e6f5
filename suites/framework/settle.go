package framework

import (
	"fmt"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL
)

// Absence by barrier, not by deadline (issue 36). A case that waits for
// something that may never come (a state event after a command, the effect
// of a 9005 or 9022, a 39005, a child tag) first learns that the relay has
// processed the step — a NIP-01 barrier the relay must answer: a REQ's
// EOSE after the command's OK — and then waits a settle window derived
// from what this relay has shown: the longest delay (p99 once there are
// 100) between an OK and the state it produced, seen by the capability
// probe and by earlier waits of the plan, times SettleFactor, at least
// SettleFloor, at most the step timeout. A relay that lacks the feature
// costs a barrier and a short settle, not the step timeout.

// SettleFactor multiplies the longest OK→state delay this relay has shown.
const SettleFactor = 4

// SettleFloor is the shortest settle window: a relay that showed no delay
// at all (state written with the command) still gets this long, a few
// scheduler slices of a loaded machine and a few round trips of a link.
const SettleFloor = 100 * time.Millisecond

// settleFallback is the window while the relay has shown no delay at all
// (no probe, no earlier wait): a fifth of the step timeout, as the probe's
// own wait for a state kind.
const settleFallbackDiv = 5

// Delays are the OK→state delays a relay has shown during one plan: the
// capability probe's (its 9007's OK → each state event it published) and
// every wait that saw what it waited for. Safe for concurrent cases.
type Delays struct {
	mu      sync.Mutex
	samples []time.Duration
}

// Observe records one delay.
func (d *Delays) Observe(x time.Duration) {
	if d == nil || x < 0 {
		return
	}
	d.mu.Lock()
	d.samples = append(d.samples, x)
	d.mu.Unlock()
}

// p99 returns the 99th percentile of the samples (their maximum under
// 100) and how many there are.
func (d *Delays) p99() (time.Duration, int) {
	if d == nil {
		return 0, 0
	}
	d.mu.Lock()
	s := slices.Clone(d.samples)
	d.mu.Unlock()
	if len(s) == 0 {
		return 0, 0
	}
	slices.Sort(s)
	i := (len(s)*99+99)/100 - 1
	if i >= len(s) {
		i = len(s) - 1
	}
	return s[i], len(s)
}

// Settle says how long a wait settled after its barrier, and why.
type Settle struct {
	Window time.Duration // the settle window after the barrier
	Waited time.Duration // from the wait's start to its last look
	Why    string        // how the window was derived
}

func (s Settle) String() string {
	return fmt.Sprintf("waited %s: the relay answered the read after the step (EOSE, a NIP-01 barrier: it had processed the step), then a settle window of %s (%s)",
		s.Waited.Round(time.Millisecond), s.Window.Round(time.Millisecond), s.Why)
}

// SettleWindow is the window a wait settles for after its barrier, and
// why it is enough.
func (e *Env) SettleWindow() (time.Duration, string) {
	step := e.StepTimeout
	if step <= 0 {
		step = 10 * time.Second
	}
	p, n := e.Delays.p99()
	var w time.Duration
	var why string
	if n == 0 {
		w = step / settleFallbackDiv
		why = fmt.Sprintf("this relay has shown no OK→state delay yet: a fifth of --timeout %s", step)
	} else {
		w = SettleFactor * p
		which := "the longest"
		if n >= 100 {
			which = "the p99"
		}
		why = fmt.Sprintf("%d × %s, %s of %d OK→state delays this relay has shown in this run", SettleFactor, p.Round(time.Millisecond), which, n)
		if w < SettleFloor {
			w = SettleFloor
			why += fmt.Sprintf(", raised to the floor %s", SettleFloor)
		}
	}
	if w > step {
		w = step
		why += fmt.Sprintf(", bounded by --timeout %s", step)
	}
	return w, why
}

// look evaluates cond once: whether every expectation held (attempt). A
// failure of the case inside cond (Failf, a refused read) is passed on.
func look(cond func(g Gomega)) (held bool) {
	return attempt(cond) == ""
}

// deferredWindow is the shortest window for work a relay may defer
// (WithinDeferred): what a relay that showed no OK→state delay gets.
func (e *Env) deferredWindow() time.Duration {
	step := e.StepTimeout
	if step <= 0 {
		step = 10 * time.Second
	}
	return step / settleFallbackDiv
}

// settleAtLeast looks at cond until it holds or, after the first look
// that failed (its own read answered: the barrier), the settle window (at
// least floor) has passed with one last look at its end. A condition that
// held records its delay for later windows.
func (t *T) settleAtLeast(cond func(g Gomega), floor time.Duration) (bool, Settle) {
	start := time.Now()
	if look(cond) {
		t.Env.Delays.Observe(time.Since(start))
		return true, Settle{Waited: time.Since(start)}
	}
	window, why := t.Env.SettleWindow()
	if window < floor {
		window = floor
		why += fmt.Sprintf("; work a relay may defer after its OK (a NIP-09 deletion) gets at least %s, a fifth of --timeout", floor)
	}
	barrier := time.Now()
	for {
		if t.ctx.Err() != nil {
			return false, Settle{Window: window, Waited: time.Since(start), Why: why}
		}
		left := window - time.Since(barrier)
		pause := 20 * time.Millisecond
		if left < pause {
			pause = max(left, 0)
		}
		timer := time.NewTimer(pause)
		select {
		case <-timer.C:
		case <-t.ctx.Done():
			timer.Stop()
		}
		if look(cond) {
			t.Env.Delays.Observe(time.Since(start))
			return true, Settle{Window: window, Waited: time.Since(start), Why: why}
		}
		if time.Since(barrier) >= window {
			return false, Settle{Window: window, Waited: time.Since(start), Why: why}
		}
	}
}

// LastSettle describes the case's last wait that ended without its
// condition (for verdicts: how long it waited and why that was enough).
func (t *T) LastSettle() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastSettle
}
