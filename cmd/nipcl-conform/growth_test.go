package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeGrowth is a growth whose reads take the given times in turn (the
// last one repeats), ticking as fast as the test can.
func fakeGrowth(baseline time.Duration, reads ...time.Duration) *growth {
	i := 0
	return &growth{baseline: baseline, every: time.Millisecond, read: func(context.Context) (time.Duration, error) {
		took := reads[min(i, len(reads)-1)]
		i++
		return took, nil
	}}
}

// TestGrowthReachesTheMostWhileTheRelayKeepsUp: reads within the slack
// add growStep workers a tick up to the most, numbered on from those
// running.
func TestGrowthReachesTheMostWhileTheRelayKeepsUp(t *testing.T) {
	g := fakeGrowth(50*time.Millisecond, 60*time.Millisecond)
	var spawned []int
	n, why := g.run(context.Background(), g.start(30), 30, func(i int) { spawned = append(spawned, i) }, nil)
	if n != 30 || len(spawned) != 30-growFrom || spawned[0] != growFrom || spawned[len(spawned)-1] != 29 {
		t.Fatalf("grew to %d, spawning %v; want 30, spawning workers %d to 29", n, spawned, growFrom)
	}
	if !strings.Contains(why, "the most") {
		t.Errorf("why %q does not say the most was reached", why)
	}
}

// TestGrowthStopsWhenReadsSlow: three reads in a row beyond the slack end
// the growth, and the reason names the slow read and the baseline; one
// slow read between fast ones only skips its tick.
func TestGrowthStopsWhenReadsSlow(t *testing.T) {
	base := 50 * time.Millisecond
	fast, slow := base, growSlack(base)+time.Millisecond
	g := fakeGrowth(base, fast, slow, fast, slow, slow, slow)
	n, why := g.run(context.Background(), growFrom, 40, func(int) {}, nil)
	if want := growFrom + 2*growStep; n != want {
		t.Errorf("grew to %d workers, want %d (two fast reads, then three slow ones)", n, want)
	}
	for _, part := range []string{"3 reads in a row", slow.Round(time.Millisecond).String(), "before the workers a read took 50ms"} {
		if !strings.Contains(why, part) {
			t.Errorf("why %q lacks %q", why, part)
		}
	}
}

// TestGrowthStopsWhenAWorkerFinishes: a finished worker means every case
// is taken; no worker is added after it.
func TestGrowthStopsWhenAWorkerFinishes(t *testing.T) {
	finished := make(chan struct{})
	close(finished)
	g := fakeGrowth(50*time.Millisecond, 50*time.Millisecond)
	g.every = time.Hour
	spawned := 0
	n, why := g.run(context.Background(), growFrom, 40, func(int) { spawned++ }, finished)
	if n != growFrom || spawned != 0 || !strings.Contains(why, "a worker ended") {
		t.Errorf("grew to %d (%d spawned, %q) after a worker finished", n, spawned, why)
	}
}

// TestGrowthStopsOnAFailedRead: a read that fails ends the growth with
// its error; a stopped run ends it too.
func TestGrowthStopsOnAFailedRead(t *testing.T) {
	g := &growth{baseline: time.Millisecond, every: time.Millisecond, read: func(context.Context) (time.Duration, error) {
		return 0, errors.New("connection reset")
	}}
	if n, why := g.run(context.Background(), growFrom, 40, func(int) {}, nil); n != growFrom || !strings.Contains(why, "connection reset") {
		t.Errorf("after a failed read: %d workers, %q", n, why)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g = fakeGrowth(time.Millisecond, time.Millisecond)
	g.every = time.Hour
	if n, why := g.run(ctx, growFrom, 40, func(int) {}, nil); n != growFrom || !strings.Contains(why, "stopped") {
		t.Errorf("stopped run: %d workers, %q", n, why)
	}
}

// TestNoGrowthStartsEveryWorker: without a growth (a user's --parallel, a
// relay on this machine) every worker starts at once.
func TestNoGrowthStartsEveryWorker(t *testing.T) {
	var g *growth
	if got := g.start(24); got != 24 {
		t.Errorf("start %d, want 24", got)
	}
	if g.plan(24) != "" {
		t.Errorf("a plan without growth: %q", g.plan(24))
	}
	g.release()
}

// TestGrowthWaitsForStartedWorkers: no read is taken, and no worker added,
// before every worker started so far has asked for a case.
func TestGrowthWaitsForStartedWorkers(t *testing.T) {
	reads, ticks := 0, 0
	g := &growth{baseline: 50 * time.Millisecond, every: time.Millisecond,
		read: func(context.Context) (time.Duration, error) { reads++; return 50 * time.Millisecond, nil },
		started: func(n int) bool {
			ticks++
			return ticks > 5 // the first five ticks: a worker still starting
		}}
	n, _ := g.run(context.Background(), growFrom, growFrom+growStep, func(int) {}, nil)
	if n != growFrom+growStep || reads != 1 || ticks != 6 {
		t.Errorf("grew to %d after %d reads in %d ticks; want %d after 1 read, on the sixth tick", n, reads, ticks, growFrom+growStep)
	}
}
