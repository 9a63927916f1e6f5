package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// CleanOutcome reports whether a case ended as a case run against a
// relay that breaks nothing may end: it passed; it is unsupported (the
// relay lacks an optional feature it does not advertise, such as NIP-50
// search, and the case said so); or it was skipped because it is slow (it
// waits on the relay's clock and runs only with --slow). Every other
// outcome, a skip for any other reason included, is a finding.
func CleanOutcome(c reports.CaseResult) bool {
	switch c.Outcome {
	case reports.Pass, reports.Unsupported:
		return true
	case reports.Skipped:
		sc, ok := suites.Lookup(c.ID)
		return ok && sc.Slow
	}
	return false
}

// ByPlan groups a run's case results by plan name, each plan's in run
// order.
func ByPlan(cases []reports.CaseResult) map[string][]reports.CaseResult {
	out := map[string][]reports.CaseResult{}
	for _, c := range cases {
		out[c.Plan] = append(out[c.Plan], c)
	}
	return out
}

// Describe is one line for a case's outcome, as a self-test reports an
// unexpected one: "ID is OUTCOME (precondition): first line of message".
func Describe(c reports.CaseResult) string {
	pre := ""
	if c.Precondition != "" {
		pre = fmt.Sprintf(" (%s)", c.Precondition)
	}
	return fmt.Sprintf("%s is %s%s: %s", c.ID, c.Outcome, pre, text.FirstLine(c.Message))
}

// OneIncompatibleLine is the one incompatible line of plan in res, the
// way a run reports a deployment requirement the harness was not given:
// it stops the test when plan has none or several, and fails it when the
// line does not name flag, the flag that would have met the requirement.
func OneIncompatibleLine(t testing.TB, res *reports.Results, plan, flag string) reports.Incompatibility {
	t.Helper()
	var lines []reports.Incompatibility
	for _, in := range res.Incompatibilities() {
		if in.Plan == plan {
			lines = append(lines, in)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%s: %d incompatible lines, want 1: %+v", plan, len(lines), lines)
	}
	if !strings.Contains(lines[0].Message, flag) {
		t.Errorf("%s: the incompatible line does not name %s: %s", plan, flag, lines[0].Message)
	}
	return lines[0]
}

// KeepReportDir is the report directory of a self-test's run named name:
// a temporary directory removed after the test, or, when
// NIPCL_KEEP_REPORT is set, one that survives it — NIPCL_KEEP_REPORT/name
// for an absolute path, else $TMPDIR/nipcl-keep-report/name (a fixed
// place: go test shows no log of a passing package without -v). The
// directory is logged, and printed on stderr.
func KeepReportDir(t testing.TB, name string) string {
	t.Helper()
	keep := os.Getenv("NIPCL_KEEP_REPORT")
	if keep == "" || keep == "0" {
		return t.TempDir()
	}
	dir := filepath.Join(os.TempDir(), "nipcl-keep-report", name)
	if filepath.IsAbs(keep) {
		dir = filepath.Join(keep, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("NIPCL_KEEP_REPORT: %v", err)
	}
	t.Logf("reports kept in %s (NIPCL_KEEP_REPORT)", dir)
	fmt.Fprintf(os.Stderr, "%s: reports kept in %s (NIPCL_KEEP_REPORT)\n", t.Name(), dir)
	return dir
}
