package reports

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Baseline marks on a case result.
const (
	BaselineExpected = "expected-failure" // listed and still failing: does not fail the run
	BaselineFixed    = "fixed"            // listed but passing now: remove it from the baseline
)

// Baseline is a set of expected failures: case IDs, optionally qualified by
// plan as "PLAN ID" (e.g. "labels labels/grammar/3"). Lines starting with
// '#' and blank lines are ignored.
type Baseline struct {
	// Path is the file it was read from (reports name it).
	Path    string
	entries map[string]bool
}

// LoadBaseline reads a baseline file.
func LoadBaseline(path string) (*Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	defer f.Close()
	b := &Baseline{Path: path, entries: map[string]bool{}}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) > 2 {
			return nil, fmt.Errorf("baseline %s:%d: want \"ID\" or \"PLAN ID\", got %q", path, n, line)
		}
		b.entries[strings.Join(fields, " ")] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b, nil
}

func (b *Baseline) lists(c CaseResult) bool { return b.Lists(c.Plan, c.ID) }

// Lists reports whether the baseline lists case id of plan.
func (b *Baseline) Lists(plan, id string) bool {
	return b != nil && (b.entries[id] || b.entries[plan+" "+id])
}

// Known reports whether c is a known failure: listed by the run's
// baseline and still not passing.
func Known(c CaseResult) bool { return c.Baseline == BaselineExpected }

// NewFirst orders cases that did not pass for a reader: new failures
// first, then the known ones (a baseline lists them), each group in its
// original order.
func NewFirst(cases []CaseResult) []CaseResult {
	out := make([]CaseResult, 0, len(cases))
	for _, c := range cases {
		if !Known(c) {
			out = append(out, c)
		}
	}
	for _, c := range cases {
		if Known(c) {
			out = append(out, c)
		}
	}
	return out
}

// KnownWord is how reports mark a known failure: "known failure (baseline
// FILE)".
func KnownWord(r *Results) string {
	if f := r.BaselineFile(); f != "" {
		return "known failure (baseline " + filepath.Base(f) + ")"
	}
	return "known failure (baseline)"
}

// Apply marks listed cases: still failing (fail, timeout, blocked) →
// expected-failure, passing → fixed.
// It returns the IDs reported as fixed.
func (b *Baseline) Apply(r *Results) []string {
	var fixed []string
	for i := range r.Cases {
		c := &r.Cases[i]
		if !b.lists(*c) {
			continue
		}
		switch c.Outcome {
		case Fail, Timeout, Blocked:
			c.Baseline = BaselineExpected
		case Pass:
			c.Baseline = BaselineFixed
			fixed = append(fixed, c.Plan+" "+c.ID)
		}
	}
	return fixed
}
