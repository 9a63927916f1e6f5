// Package ratelimit proves that labels/grammar/18, a sweep of hundreds of
// commands, reads a rate-limited: answer as what it is (a refusal by
// cause, sent again later) and never as a wrong answer.
package ratelimit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

func TestGrammarSweepUnderARateLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("sends the sweep against a rate-limited relay")
	}
	res, err := runner.Run(context.Background(), runner.Options{
		Plans: []runner.Plan{{Name: "rate-limited", Profile: framework.ProfileLabels,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: framework.ProfileLabels, EventsPerSecond: 200, EventBurst: 100}}}},
		Focus: []string{"labels/grammar/18"}, ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 3 * time.Minute,
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(res.Cases) != 1 {
		t.Fatalf("ran %d cases, want labels/grammar/18 alone", len(res.Cases))
	}
	c := res.Cases[0]
	if c.Outcome != reports.Pass {
		t.Fatalf("%s is %s under a rate limit: %s", c.ID, c.Outcome, c.Message)
	}
	// The framework resends a rate-limited write after a backoff and notes
	// it once; the case's own sweep notes what it met.
	for _, n := range c.Notes {
		if strings.Contains(n, "answered rate-limited: and sent again") || strings.Contains(n, "answered rate-limited (") {
			t.Logf("%s: %s", c.ID, n)
			return
		}
	}
	t.Errorf("%s passed without meeting the rate limit (notes: %q)", c.ID, c.Notes)
}
