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

// TestSelectionOfOtherProfilesIsRefused: a selection that matches cases of
// the catalogue but none of the checked profile's (the labels cases for a
// nip29 run) would run no case and report as if the relay conformed; it is
// refused like an empty selection (exit 2), naming the selection, the
// profile asked for and the profiles whose cases it matched — before the
// run for a --profile given, once the profile is detected for auto.
func TestSelectionOfOtherProfilesIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--profile", "nip29", "--focus", "labels/*"},
			[]string{"no case of the nip29 profile is selected by --focus labels/*", "of the labels profile", "--profile labels"}},
		{[]string{"--profile", "identity", "--focus", "labels/snapshot/1", "--focus", "labels/grammar/"},
			[]string{"no case of the identity profile is selected by --focus labels/snapshot/1 --focus labels/grammar/", "of the labels profile"}},
		{[]string{"--profile", "none", "--focus", "identity/"},
			[]string{"no case of the nip29 profile", "of the identity profile", "--profile identity"}},
		{[]string{"--profile", "labels", "--skip", "base/", "--skip", "labels/"},
			[]string{"no case of the labels profile", "--skip base/ --skip labels/", "of the identity profile"}},
	} {
		dir := filepath.Join(t.TempDir(), "reports")
		r := cli(t, time.Minute, append([]string{"run", "--report-dir", dir}, tc.args...)...)
		checkRefused(t, tc.args, r, dir, tc.want)
	}
	// A --target without --profile is detected first: an identity relay
	// with a labels-only selection is refused once it is known.
	url := serve(t, "--profile", "identity")
	dir := filepath.Join(t.TempDir(), "reports")
	args := []string{"--target", url, "--parallel", "1", "--focus", "labels/*"}
	r := cli(t, 2*time.Minute, append([]string{"run", "--report-dir", dir}, args...)...)
	checkRefused(t, args, r, "", []string{"no case of the identity profile is selected by --focus labels/*", "of the labels profile"})
	// A parallel run detects the profile once, in the parent, and its
	// workers inherit it: the refusal is said once, not once per worker.
	args = []string{"--target", url, "--parallel", "2", "--focus", "labels/*"}
	r = cli(t, 2*time.Minute, append([]string{"run", "--report-dir", dir}, args...)...)
	checkRefused(t, args, r, "", []string{"no case of the identity profile is selected by --focus labels/*", "of the labels profile"})
	if n := strings.Count(r.stderr, "no case of the identity profile"); n != 1 {
		t.Errorf("%v: the refusal is said %d times, want once:\n%s", args, n, r.stderr)
	}
	// The baseline cases are every profile's: selecting them is no refusal.
	r = cli(t, time.Minute, "run", "--profile", "identity", "--focus", "base/leave/*", "--report-dir", t.TempDir())
	if r.code != reports.ExitOK {
		t.Errorf("--profile identity --focus base/leave/*: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// checkRefused: exit 2, stderr naming want, no claim of conformance, and
// (dir non-empty) no reports written.
func checkRefused(t *testing.T, args []string, r cliResult, dir string, want []string) {
	t.Helper()
	if r.code != reports.ExitHarness {
		t.Errorf("%v: exit %d, want %d (bad input)\nstdout:\n%s\nstderr:\n%s", args, r.code, reports.ExitHarness, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("%v: stderr lacks %q:\n%s", args, w, r.stderr)
		}
	}
	if strings.Contains(r.stdout, "conforms") {
		t.Errorf("%v: a run that selects no case of its profile claims conformance:\n%s", args, r.stdout)
	}
	if dir == "" {
		return
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%v: report dir %s written (err %v)", args, dir, err)
	}
}
