package robustness

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/internal/chaos"
	"github.com/nipcl/nipcl-conform/reports"
)

// TestSIGINTWritesReports interrupts a run that is mid-case (against the
// slow relay, whose every answer comes late) and expects it to end quickly
// and still write its reports, with the interruption recorded: exit 4
// (incomplete), stopped by the interrupt.
func TestSIGINTWritesReports(t *testing.T) {
	t.Parallel()
	s, err := chaos.Start(chaos.Options{Mode: chaos.Slow})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := t.TempDir()
	guard, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// One process (--parallel 1): the first REQ the relay sees is then a
	// case's, not the link measurement's.
	cmd := exec.CommandContext(guard, bin, "run", "--target", s.URL, "--profile", "labels", "--parallel", "1",
		"--timeout", "2s", "--deadline", "60s", "--report-dir", dir)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// The first case is under way once the relay sees an EVENT or REQ.
	select {
	case <-s.FirstCommand():
	case err := <-exited:
		t.Fatalf("nipcl-conform ended before its first case: %v\n%s", err, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the relay saw no EVENT or REQ within 30s")
	}
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var werr error
	select {
	case werr = <-exited:
	case <-guard.Done():
		t.Fatalf("nipcl-conform did not exit after SIGINT")
	}
	took := time.Since(sent)
	code, err := exitCode(werr, guard)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, stderr.String())
	}
	res := readResults(t, dir)
	t.Logf("exit %d %s after SIGINT; outcomes %v; %q", code, took.Round(time.Millisecond), res.Counts(), res.Interrupted)
	if code != reports.ExitIncomplete {
		t.Errorf("exit code %d after SIGINT, want %d (incomplete)", code, reports.ExitIncomplete)
	}
	if res.StoppedBy != "an interrupt (SIGINT)" {
		t.Errorf("results.json stopped_by %q, want the interrupt", res.StoppedBy)
	}
	if len(res.Cases) == 0 {
		t.Fatalf("results.json lists no cases")
	}
	for _, c := range res.Cases {
		if c.Outcome == reports.Pass && c.ID != "base/nip11/1" {
			t.Errorf("%s passed against the slow relay", c.ID)
		}
		// Every answer of the slow relay comes after the step timeout, so
		// a case that talked to it and ran to its end is a timeout: none
		// may be, the one the interrupt cut short included (not-run). This
		// is how "it ends quickly" is checked, counted rather than timed:
		// the time to exit includes the interrupted case's grace period
		// and report writing, which stretch with the machine's load.
		if c.Outcome == reports.Timeout || c.Outcome == reports.Fail {
			t.Errorf("%s: %s after SIGINT: a case ran to its end against the slow relay (%s)", c.ID, c.Outcome, c.Message)
		}
		if c.Outcome == reports.Skipped {
			t.Errorf("%s: skipped; cases the interrupt kept from running are not-run", c.ID)
		}
	}
}
