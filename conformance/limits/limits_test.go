// Package limits checks that a relay's published NIP-11 limits are
// respected: a case whose data leaves one is unsupported naming the
// limit, never a failure.
package limits

import (
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestPublishedLimitsMakeCasesUnsupported: a reference relay that honours
// a REQ limit of at most 5 and says so in limitation.max_limit fails no
// case; the cases that read with larger limits are unsupported and name
// the limit.
func TestPublishedLimitsMakeCasesUnsupported(t *testing.T) {
	var plans []runner.Plan
	for _, p := range []string{framework.ProfileIdentity, framework.ProfileLabels} {
		plans = append(plans, runner.Plan{Name: p, Profile: p,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: p, MaxLimit: 5}}})
	}
	// The two plans in two processes at once (conformance.RunShares):
	// they mostly wait (15 s of CPU in 90 s of wall time in one process
	// at load 30).
	res := conformance.RunShares(t, runner.Options{Plans: plans, ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 5 * time.Minute}, 2)
	if res == nil {
		return // a share, in its child process
	}
	named := 0
	for _, c := range res.Cases {
		switch c.Outcome {
		case reports.Pass, reports.Skipped:
		case reports.Unsupported:
			if strings.Contains(c.Message, "limitation.max_limit") {
				named++
			}
		default:
			t.Errorf("%s %s is %s: %s", c.Plan, c.ID, c.Outcome, c.Message)
		}
	}
	if named == 0 {
		t.Error("no case was unsupported naming limitation.max_limit; the limit was not read")
	}
	t.Logf("%d cases unsupported by limitation.max_limit 5", named)
}
