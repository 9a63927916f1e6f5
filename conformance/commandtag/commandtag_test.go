// Package commandtag checks that the harness can drive a deployment that
// requires a tag of its own on every group command (kinds 9000-9022),
// outside NIP-29 and NIP-CL: given --command-tag the suites pass; without
// the tag the relay wants, the run reports one incompatible line that
// names --command-tag, and no case fails.
package commandtag

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestRequiredCommandTag runs, in one run that passes --command-tag
// x-tenant=acme, every profile against a reference relay requiring that
// tag (every case passes or is not applicable), and the labels profile
// against one requiring another tag (no case fails; one incompatible line,
// naming --command-tag). The four plans run in four processes at once
// (conformance.RunShares: a process runs the suites once); they mostly
// wait (14 s of CPU in 60 s of wall time in one process).
func TestRequiredCommandTag(t *testing.T) {
	ref := func(name, profile, tag string) runner.Plan {
		cfg := reference.Config{Profile: profile, RequireCommandTag: tag}
		return runner.Plan{Name: name, Profile: profile, Target: &runner.ReferenceTarget{Config: cfg}}
	}
	res := conformance.RunShares(t, runner.Options{
		Plans: []runner.Plan{
			ref("nip29", framework.ProfileNIP29, "x-tenant=acme"),
			ref("identity", framework.ProfileIdentity, "x-tenant=acme"),
			ref("labels", framework.ProfileLabels, "x-tenant=acme"),
			ref("other-tag", framework.ProfileLabels, "x-other=1"),
		},
		ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 8 * time.Minute,
		CommandTags: nostr.Tags{{"x-tenant", "acme"}},
	}, 4)
	if res == nil {
		return // a share, in its child process
	}
	passed := map[string]int{}
	for _, c := range res.Cases {
		switch {
		case c.Outcome == reports.Pass:
			passed[c.Plan]++
		case c.Plan == "other-tag" && c.Outcome == reports.Fail:
			t.Errorf("without the tag: %s failed (want blocked, not failures): %s", c.ID, c.Message)
		case c.Plan != "other-tag" && c.Outcome != reports.Skipped && c.Outcome != reports.Unsupported:
			t.Errorf("%s with the tag: %s is %s: %s", c.Plan, c.ID, c.Outcome, c.Message)
		}
	}
	for _, p := range []string{"nip29", "identity", "labels"} {
		if passed[p] == 0 {
			t.Errorf("%s with the tag: no case passed", p)
		}
	}
	line := conformance.OneIncompatibleLine(t, res, "other-tag", "--command-tag")
	t.Logf("passed %v; incompatible: %d cases: %s", passed, len(line.Cases), line.Message)
}
