package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TestBenchRelay29SideBySide runs `nipcl-conform bench` in one run against
// the built-in reference relay (nip29 profile) and relay29, as
// BENCHMARKS.md does, but briefly: both columns must be measured (exit 0),
// every acknowledged mutation's 39000 must reach the live subscription, and
// the discovery read must list every channel. Set NIPCL_BENCH_DURATION
// (e.g. 10s) to reproduce the BENCHMARKS.md figures; the table is logged.
func TestBenchRelay29SideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs relay29 and the harness")
	}
	goBin := goTool(t)
	tmp := t.TempDir()
	relayBin := filepath.Join(tmp, "relay29")
	harnessBin := filepath.Join(tmp, "nipcl-conform")
	goBuild(t, goBin, ".", relayBin, "./relay29")
	goBuild(t, goBin, harnessDir(), harnessBin, "./cmd/nipcl-conform")

	secKey := nostr.GeneratePrivateKey()
	pubKey, err := nostr.GetPublicKey(secKey)
	if err != nil {
		t.Fatal(err)
	}
	url, relayExited := startRelay(t, relayBin, secKey, pubKey)

	duration := os.Getenv("NIPCL_BENCH_DURATION")
	if duration == "" {
		duration = "1s"
	}
	out := filepath.Join(tmp, "bench.json")
	args := []string{"bench", "--profile", "nip29", "--db", "both", "--target", "relay29=" + url,
		"--duration", duration, "--channels", "8", "--concurrency", "4", "--out", out}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, harnessBin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	dieWithParent(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatalf("nipcl-conform %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	t.Logf("nipcl-conform %s\n%s", strings.Join(args, " "), stdout.String())
	select {
	case <-relayExited:
		t.Error("relay29 exited during the bench run")
	default:
	}

	var rep struct {
		Results []struct {
			Target     string `json:"target"`
			Mutations  int    `json:"mutations"`
			Missed     int    `json:"snapshots_missed"`
			Incomplete int    `json:"discovery_incomplete"`
			Discovery  struct {
				N int `json:"n"`
			} `json:"discovery_latency"`
		} `json:"results"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 3 {
		t.Fatalf("want 3 columns (reference memory, reference file, relay29), got %d", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Mutations == 0 || r.Missed != 0 || r.Discovery.N == 0 || r.Incomplete != 0 {
			t.Errorf("%s: %d mutations, %d snapshots missed, %d discovery reads (%d incomplete)", r.Target, r.Mutations, r.Missed, r.Discovery.N, r.Incomplete)
		}
	}
}
