// Package withheld proves the labels cases that need a channel whose
// metadata outsiders cannot read: they pass against a relay that reads
// NIP-29's flags literally ("private" hides messages, only "hidden" hides
// metadata), and are blocked, once, by the precondition withheld-metadata
// against a relay that serves a hidden group's metadata to anyone.
package withheld

import (
	"context"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// sections hold every case that builds a private, hidden channel.
var sections = []string{"labels/authorization", "labels/finding-channels"}

func TestPrivateMetadataPublicPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two labels sections twice")
	}
	plans := []runner.Plan{
		{Name: "literal", Profile: framework.ProfileLabels, Sections: sections,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: framework.ProfileLabels, Policies: []string{"private-metadata-public"}}}},
		{Name: "no-hidden", Profile: framework.ProfileLabels, Sections: sections,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: framework.ProfileLabels, Policies: []string{"private-metadata-public"}, Faults: []string{"hidden-metadata-served"}}}},
	}
	res, err := runner.Run(context.Background(), runner.Options{Plans: plans, ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 5 * time.Minute, Scale: 25})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	blocked, ran := 0, map[string]int{}
	for _, c := range res.Cases {
		ran[c.Plan]++
		switch {
		case conformance.CleanOutcome(c):
		case c.Plan == "no-hidden" && c.Outcome == reports.Blocked && c.Precondition == framework.PreWithheldMetadata.ID:
			blocked++
		default:
			t.Errorf("%s: %s", c.Plan, conformance.Describe(c))
		}
	}
	if ran["literal"] == 0 || ran["no-hidden"] == 0 {
		t.Fatalf("cases ran per plan: %v", ran)
	}
	if blocked == 0 {
		t.Error("no case was blocked by withheld-metadata against a relay that serves hidden metadata")
	}
	t.Logf("%d cases per plan; %d blocked by withheld-metadata where hidden metadata is served", ran["literal"], blocked)
}
