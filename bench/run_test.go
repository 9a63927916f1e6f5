package bench

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/bench/benchtest"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// startReference starts an in-process reference relay and returns its URL.
func startReference(t *testing.T, cfg reference.Config) string {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	r, err := reference.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return u
}

func short(runID string) Options {
	return Options{Channels: 3, Concurrency: 2, Duration: 400 * time.Millisecond, StepTimeout: 5 * time.Second, RunID: runID, Safe: true}
}

// TestRunAgainstReference measures every profile of the reference relay
// briefly: mutations are acknowledged, each one's snapshot is seen, the
// discovery read lists every channel, and safe mode deletes them all.
func TestRunAgainstReference(t *testing.T) {
	for _, p := range []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels} {
		t.Run(p, func(t *testing.T) {
			u := startReference(t, reference.Config{Profile: p})
			var progress []float64
			opts := short("t" + p)
			opts.Progress = func(_ string, f float64) { progress = append(progress, f) }
			res, err := Run(context.Background(), Target{Name: "ref", URL: u, Profile: p}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Mutations == 0 || res.PerSecond <= 0 || res.OK.N != res.Mutations {
				t.Errorf("mutations %d, %g/s, OK samples %d", res.Mutations, res.PerSecond, res.OK.N)
			}
			if res.Missed != 0 || res.Snapshot.N < res.Mutations {
				t.Errorf("snapshots: %d seen, %d missed, for %d mutations", res.Snapshot.N, res.Missed, res.Mutations)
			}
			if res.Discovery.N == 0 || res.Incomplete != 0 || res.DiscoveryError != "" {
				t.Errorf("discovery: %d queries, %d incomplete, error %q", res.Discovery.N, res.Incomplete, res.DiscoveryError)
			}
			if res.Cleanup == nil || res.Cleanup.Deleted != 3 || len(res.Cleanup.Failed) > 0 {
				t.Errorf("cleanup: %+v", res.Cleanup)
			}
			if len(progress) == 0 || progress[len(progress)-1] != 1 {
				t.Errorf("progress %v does not end at 1", progress)
			}
		})
	}
}

// expectError runs a target that cannot be measured and checks the kind,
// that the message is one line, and that it came within seconds.
func expectError(t *testing.T, tg Target, opts Options, kind Kind, contains string) {
	t.Helper()
	start := time.Now()
	res, err := Run(context.Background(), tg, opts)
	took := time.Since(start)
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("Run = %+v, %v; want a *bench.Error", res, err)
	}
	if be.Kind != kind {
		t.Errorf("kind %q, want %q (%v)", be.Kind, kind, err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, contains) {
		t.Errorf("message %q: want one line containing %q", msg, contains)
	}
	if took > 5*time.Second {
		t.Errorf("took %s", took)
	}
}

func TestRunUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "ws://" + l.Addr().String()
	l.Close()
	expectError(t, Target{Name: "gone", URL: u, Profile: framework.ProfileLabels}, short("gone"), Unreachable, "connect")
}

func TestRunRelayRefusingWrites(t *testing.T) {
	f, err := benchtest.NewRefusing("blocked: read-only relay")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	expectError(t, Target{Name: "ro", URL: f.URL(), Profile: framework.ProfileNIP29}, short("ro"), Refused, "blocked: read-only relay")
}

func TestRunRateLimited(t *testing.T) {
	u := startReference(t, reference.Config{Profile: framework.ProfileLabels, EventsPerSecond: 1, EventBurst: 2})
	opts := short("rl")
	opts.Duration = 3 * time.Second
	expectError(t, Target{Name: "rl", URL: u, Profile: framework.ProfileLabels}, opts, RateLimited, "rate-limited:")
	// Safe mode's 9008s meet the same limit: the error names what stayed.
	expectError(t, Target{Name: "rl", URL: u, Profile: framework.ProfileLabels}, opts, RateLimited, "safe mode could NOT delete")
}

// TestRunSilentRelay: a listener that accepts TCP and never answers gives
// a timeout error after one step, not a hang.
func TestRunSilentRelay(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	opts := short("silent")
	opts.StepTimeout = time.Second
	expectError(t, Target{Name: "silent", URL: "ws://" + l.Addr().String(), Profile: framework.ProfileLabels}, opts, Failed, "timeout")
}
