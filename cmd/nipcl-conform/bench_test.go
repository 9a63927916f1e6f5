package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/bench"
	"github.com/nipcl/nipcl-conform/bench/benchtest"
	"github.com/nipcl/nipcl-conform/reference"
)

// TestBenchReferenceAndTargetSideBySide measures the built-in reference
// relay and a served one in one run: one Markdown column each, JSON in the
// --out file, exit 0.
func TestBenchReferenceAndTargetSideBySide(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	u := serve(t, "--profile", "labels")
	out := filepath.Join(t.TempDir(), "bench.json")
	r := cli(t, 60*time.Second, "bench", "--target", "served="+u, "--profile", "labels",
		"--duration", "300ms", "--channels", "2", "--concurrency", "2", "--safe", "--rate", "1000", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "| | reference(labels) | served |") || !strings.Contains(r.stdout, "**mutations/s**") {
		t.Errorf("no side-by-side table:\n%s", r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("want 2 results, got %d", len(rep.Results))
	}
	for _, res := range rep.Results {
		if res.Mutations == 0 || res.Cleanup == nil || res.Cleanup.Deleted != 2 {
			t.Errorf("%s: %d mutations, cleanup %+v", res.Target, res.Mutations, res.Cleanup)
		}
	}
}

// benchRefusal runs bench against a target that cannot be measured and
// checks: exit 2, one line on stderr naming the reason, within seconds.
func benchRefusal(t *testing.T, want string, args ...string) {
	t.Helper()
	r := cli(t, 20*time.Second, append([]string{"bench", "--no-reference", "--duration", "2s", "--timeout", "2s"}, args...)...)
	if r.code != 2 {
		t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("want one line containing %q, got:\n%s", want, r.stderr)
	}
	// Refused, not measured: exit 2 with one line and no measurement. Not
	// timed: a fresh process dialling with a 2s timeout takes longer on a
	// loaded machine, and a hang is cli's limit (exit -1, not 2).
	if strings.Contains(r.stdout, "mutations/s") {
		t.Errorf("a refused target was measured:\n%s", r.stdout)
	}
	t.Logf("stderr (after %s): %s", r.took.Round(time.Millisecond), r.stderr)
}

func TestBenchUnreachableTarget(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "ws://" + l.Addr().String()
	l.Close()
	benchRefusal(t, "gone: unreachable", "--target", "gone="+u)
}

func TestBenchRelayRefusingWrites(t *testing.T) {
	f, err := benchtest.NewRefusing("blocked: read-only relay")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	benchRefusal(t, `ro: refuses writes: the 9007 creating a channel answered ["OK",`, "--target", "ro="+f.URL())
}

func TestBenchRateLimited(t *testing.T) {
	rl, err := reference.New(reference.Config{Addr: "127.0.0.1:0", Profile: "labels", EventsPerSecond: 1, EventBurst: 2})
	if err != nil {
		t.Fatal(err)
	}
	u, err := rl.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer rl.Close()
	benchRefusal(t, "rl: rate-limited:", "--target", "rl="+u, "--profile", "labels", "--concurrency", "1", "--channels", "2")
}

// TestBenchSilentRelay: a listener that accepts TCP and never answers is a
// one-line failure after one --timeout, not a hang.
func TestBenchSilentRelay(t *testing.T) {
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
	benchRefusal(t, "silent: failed: connect:", "--target", "silent=ws://"+l.Addr().String(), "--profile", "labels")
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--target", "http://x"},
		{"--no-reference"},
		{"--profile", "bogus"},
		{"--channels", "0"},
		{"--format", "xml"},
		{"--target", "a=ws://x:1", "--target", "a=ws://y:1"},
	} {
		r := cli(t, 10*time.Second, append([]string{"bench"}, args...)...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "usage error:") {
			t.Errorf("bench %v: exit %d, stderr %q; want 2 and a usage error", args, r.code, r.stderr)
		}
	}
}
