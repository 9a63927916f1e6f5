package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
)

// TestUnwritableReportDirStopsBeforeTheCases: a report directory that
// cannot be written is one clear error and exit 2 before any case runs.
func TestUnwritableReportDirStopsBeforeTheCases(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := cli(t, time.Minute, "run", "--profile", "nip29", "--report-dir", filepath.Join(file, "reports"))
	if r.code != reports.ExitHarness {
		t.Errorf("exit %d, want %d", r.code, reports.ExitHarness)
	}
	if r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "report directory") {
		t.Errorf("want one line on stderr naming the report directory and nothing on stdout\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// TestReportDirOfALiveRunIsRefused: two runs into one report directory at
// once would overwrite each other: the second is refused while the
// first's process lives; a lock a dead run left is taken over, and a
// finished run's reports are replaced with a line saying so.
func TestReportDirOfALiveRunIsRefused(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, ".nipcl-conform.lock")
	// This test process stands for a run that is still going.
	if err := os.WriteFile(lock, fmt.Appendf(nil, "%d 2026-12-06T07:00:00Z\n", os.Getpid()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := cli(t, time.Minute, "run", "--profile", "nip29", "--focus", "base/nip11/1", "--report-dir", dir)
	if r.code != reports.ExitHarness || !strings.Contains(r.stderr, "in use by another nipcl-conform run") {
		t.Errorf("exit %d, want 2 and the directory named in use\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// A dead run's lock: no process has this ID.
	if err := os.WriteFile(lock, []byte("2147480000 2026-12-06T07:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = cli(t, time.Minute, "run", "--profile", "nip29", "--focus", "base/nip11/1", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d after a dead run's lock\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("the run left its lock behind: %v", err)
	}
	prev, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	r = cli(t, time.Minute, "run", "--profile", "nip29", "--focus", "base/nip11/1", "--report-dir", dir)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "replacing the reports of run "+prev.RunID) {
		t.Errorf("exit %d; want the replaced run %s named first\nstdout:\n%s", r.code, prev.RunID, r.stdout)
	}
}
