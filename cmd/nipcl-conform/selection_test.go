package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
)

// TestEmptySelectionIsRefused: a run whose --focus, --skip or
// --label-filter leaves no case checks nothing; it is refused as bad input
// (exit 2) naming the selection, never reported as conforming, and writes
// no reports. A --focus that is a prefix of case IDs without its '/*' is
// told the form that selects them.
func TestEmptySelectionIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--focus", "base/leave"}, []string{"--focus base/leave", "--focus 'base/leave/*'", "nipcl-conform list"}},
		{[]string{"--focus", "no-such-area"}, []string{"--focus no-such-area", "nipcl-conform list"}},
		{[]string{"--focus", "base/leave/*", "--skip", "base/"}, []string{"--focus base/leave/* --skip base/"}},
		{[]string{"--label-filter", "no-such-label"}, []string{`--label-filter "no-such-label"`}},
	} {
		dir := filepath.Join(t.TempDir(), "reports")
		args := append([]string{"run", "--profile", "nip29", "--report-dir", dir}, tc.args...)
		r := cli(t, time.Minute, args...)
		if r.code != reports.ExitHarness {
			t.Errorf("%v: exit %d, want %d (bad input)\nstdout:\n%s\nstderr:\n%s", tc.args, r.code, reports.ExitHarness, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "no case is selected") {
			t.Errorf("%v: stderr does not say no case is selected:\n%s", tc.args, r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tc.args, w, r.stderr)
			}
		}
		if strings.Contains(r.stdout, "conforms") {
			t.Errorf("%v: a run that selects no case claims conformance:\n%s", tc.args, r.stdout)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: report dir %s written (err %v)", tc.args, dir, err)
		}
	}
	// The '/*' form the error suggests selects the cases.
	r := cli(t, time.Minute, "run", "--profile", "nip29", "--focus", "base/leave/*", "--report-dir", t.TempDir())
	if r.code != reports.ExitOK {
		t.Errorf("--focus base/leave/*: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
