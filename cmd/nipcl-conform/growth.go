package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// A remote run does not start all its workers at once: it starts
// growFrom, then adds growStep every tick while the relay keeps up. What
// "keeps up" means is what the relay shows under the run's own load: one
// read on the parent's own connection per tick (the REQ for an unknown id
// that measured the round trip before any worker started), which must
// take at most growSlack times that round trip plus growMargin, once every
// worker started so far has asked for its first case. Three
// slower reads in a row end the growth: the relay, or this machine, is
// slowing under the load already there, and more workers would have the
// cases judge the harness's load as the relay's slowness. A worker that
// has ended also ends it: every case is then taken (or the workers fail).
const (
	growFrom   = 8
	growStep   = 4
	growMargin = 2 * time.Millisecond
	growSlow   = 3 // slower reads in a row that end the growth
	minTick    = 100 * time.Millisecond
)

// growSlack is how much slower than the unloaded round trip a read may be
// while workers are added: 1.5 times.
func growSlack(baseline time.Duration) time.Duration {
	return baseline*3/2 + growMargin
}

// growth adds a remote run's workers while the relay keeps up (see
// growFrom).
type growth struct {
	// baseline is the time of one read before any worker started.
	baseline time.Duration
	// read times one read on the parent's own connection.
	read func(ctx context.Context) (time.Duration, error)
	// every is the time between reads: twice the round trip, at least
	// minTick.
	every time.Duration
	// close releases the connection read uses (nil: nothing to release).
	close func()
	// started, when set, reports whether the first n workers have all
	// started (each has asked for a case): no read is judged before, since
	// a worker's own start (a process, its Ginkgo tree) loads this machine,
	// not the relay.
	started func(n int) bool
}

// newGrowth dials the parent's own connection to url and times
// baselineReads reads on it before any worker starts: their median is the
// baseline (the same read the growth repeats, so a link that delays each
// direction, or a relay slow to answer an unknown id, is in both). It
// returns nil when the connection cannot be opened or read: the run then
// starts all its workers.
func newGrowth(ctx context.Context, url string, step time.Duration) *growth {
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{StepTimeout: step})
	if err != nil {
		return nil
	}
	read := func(ctx context.Context) (time.Duration, error) {
		t0 := time.Now()
		err := c.Ping(ctx)
		return time.Since(t0), err
	}
	var samples []time.Duration
	for range baselineReads {
		took, err := read(ctx)
		if err != nil {
			c.Close()
			return nil
		}
		samples = append(samples, took)
	}
	slices.Sort(samples)
	baseline := samples[len(samples)/2]
	return &growth{baseline: baseline, every: max(minTick, 2*baseline), read: read, close: func() { c.Close() }}
}

// baselineReads is how many reads newGrowth times for the baseline.
const baselineReads = 5

// release closes the connection the growth reads on.
func (g *growth) release() {
	if g != nil && g.close != nil {
		g.close()
	}
}

// start is how many workers a run of at most most workers starts with.
func (g *growth) start(most int) int {
	if g == nil {
		return most
	}
	return min(most, growFrom)
}

// plan says how the run will grow, for the line that gives the count.
func (g *growth) plan(most int) string {
	if g == nil || most <= growFrom {
		return ""
	}
	return fmt.Sprintf("%d at first, %d more every %s while a read takes at most %s", growFrom, growStep,
		g.every.Round(time.Millisecond), growSlack(g.baseline).Round(time.Millisecond))
}

// run adds workers (spawn(i) starts worker i, from 0) from have up to most
// while the relay keeps up, until ctx ends or finished is closed (a worker
// ended). It returns the count started and why the growth ended.
func (g *growth) run(ctx context.Context, have, most int, spawn func(i int), finished <-chan struct{}) (int, string) {
	limit := growSlack(g.baseline)
	tick := time.NewTicker(g.every)
	defer tick.Stop()
	slow := 0
	for have < most {
		select {
		case <-ctx.Done():
			return have, "the run was stopped"
		case <-finished:
			return have, "a worker ended, so every case is taken or the workers fail"
		case <-tick.C:
		}
		if g.started != nil && !g.started(have) {
			continue
		}
		took, err := g.read(ctx)
		switch {
		case err != nil:
			return have, fmt.Sprintf("the parent's own read failed (%v)", err)
		case took > limit:
			slow++
			if slow == growSlow {
				return have, fmt.Sprintf("%d reads in a row took more than %s (the last %s; before the workers a read took %s): the relay or this machine slowed under the load",
					growSlow, limit.Round(time.Millisecond), took.Round(time.Millisecond), g.baseline.Round(time.Millisecond))
			}
			continue
		}
		slow = 0
		for k := 0; k < growStep && have < most; k++ {
			spawn(have)
			have++
		}
	}
	return have, fmt.Sprintf("the most for this round trip; reads stayed within %s", limit.Round(time.Millisecond))
}
