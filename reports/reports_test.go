package reports

import (
	"github.com/nipcl/nipcl-conform/clause"

	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sample() *Results {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	mk := func(id string, level clause.Level, o Outcome, msg string) CaseResult {
		return CaseResult{ID: id, Plan: "labels", Profile: "labels", Area: "grammar", Section: "labels/values-and-limits",
			Level: level, Requirement: "req of " + id, Outcome: o, Message: msg, DurationMS: 12,
			Transcript: "+0.000s owner -> [\"EVENT\",{}]\n", Repro: "nipcl-conform run --focus " + id}
	}
	return &Results{
		Tool: "nipcl-conform", RunID: "abcd", Started: t0, Finished: t0.Add(2 * time.Second),
		Settings: map[string]string{"step_timeout": "10s"},
		Plans:    []PlanResult{{Name: "labels", Target: "reference(labels)", Profile: "labels"}},
		Cases: []CaseResult{
			mk("labels/grammar/1", "MUST", Pass, ""),
			mk("labels/grammar/2", "MUST", Fail, "Expected\n    <bool>: true\nto be false <&> \"quoted\""),
			mk("labels/grammar/3", "SHOULD", Timeout, "waiting for OK: timeout after 1s"),
			mk("labels/grammar/4", "MUST", HarnessError, "panic: boom"),
			mk("labels/grammar/5", "MAY", Unsupported, "needs --host"),
			mk("labels/grammar/6", "MUST", Skipped, "not applicable"),
		},
	}
}

// TestJUnitIsWellFormed checks the XML parses and has the shape CI importers
// require: counts that add up, a property set on every test case, names that
// start with the case ID, failures/errors/skips in the right element.
func TestJUnitIsWellFormed(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	var doc junitTestSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, buf.String())
	}
	if doc.Tests != 6 || doc.Failures != 2 || doc.Errors != 1 || doc.Skipped != 2 {
		t.Errorf("totals tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	sum := 0
	for _, s := range doc.Suites {
		if s.Name == "" || s.Tests != len(s.Cases) {
			t.Errorf("suite %q: tests=%d cases=%d", s.Name, s.Tests, len(s.Cases))
		}
		sum += s.Tests
		for _, c := range s.Cases {
			id := strings.Fields(c.Name)[0]
			props := map[string]string{}
			for _, p := range c.Properties {
				props[p.Name] = p.Value
			}
			for _, k := range []string{"id", "section", "level", "profile", "outcome"} {
				if props[k] == "" {
					t.Errorf("%s: property %s missing", c.Name, k)
				}
			}
			if props["id"] != id {
				t.Errorf("name %q does not start with its id %q", c.Name, props["id"])
			}
			n := 0
			for _, m := range []*junitMessage{c.Failure, c.Error, c.Skipped} {
				if m != nil {
					n++
				}
			}
			want := map[string]int{"pass": 0}[props["outcome"]]
			if props["outcome"] != "pass" {
				want = 1
			}
			if n != want {
				t.Errorf("%s: %d result elements for outcome %s", c.Name, n, props["outcome"])
			}
			if c.Failure != nil && !strings.Contains(c.Failure.Body, "Wire transcript") {
				t.Errorf("%s: failure body lacks the transcript", c.Name)
			}
		}
	}
	if sum != doc.Tests {
		t.Errorf("suite tests add up to %d, document says %d", sum, doc.Tests)
	}
	if !strings.HasPrefix(buf.String(), xml.Header) {
		t.Error("missing XML header")
	}
}

func TestExitPolicy(t *testing.T) {
	tests := []struct {
		name   string
		cases  []CaseResult
		setup  string
		strict bool
		want   int
	}{
		{"all pass", []CaseResult{{Level: "MUST", Outcome: Pass}}, "", false, ExitOK},
		{"must fails", []CaseResult{{Level: "MUST", Outcome: Fail}}, "", false, ExitFailed},
		{"must times out", []CaseResult{{Level: "MUST", Outcome: Timeout}}, "", false, ExitFailed},
		{"should fails", []CaseResult{{Level: "SHOULD", Outcome: Fail}}, "", false, ExitOK},
		{"should fails strict", []CaseResult{{Level: "SHOULD", Outcome: Fail}}, "", true, ExitFailed},
		{"may fails strict", []CaseResult{{Level: "MAY", Outcome: Fail}}, "", true, ExitOK},
		{"harness error", []CaseResult{{Level: "MUST", Outcome: HarnessError}}, "", false, ExitHarness},
		{"setup error", nil, "unreachable", false, ExitHarness},
		{"unsupported", []CaseResult{{Level: "MUST", Outcome: Unsupported}}, "", false, ExitOK},
		{"baselined failure", []CaseResult{{Level: "MUST", Outcome: Fail, Baseline: BaselineExpected}}, "", false, ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Results{Cases: tt.cases, Plans: []PlanResult{{Name: "p", SetupError: tt.setup}}}
			if got := r.ExitCode(tt.strict); got != tt.want {
				t.Errorf("exit %d, want %d", got, tt.want)
			}
		})
	}
}

func TestBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline")
	if err := os.WriteFile(path, []byte("# known\nlabels/grammar/2\nlabels labels/grammar/1\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	fixed := b.Apply(r)
	if len(fixed) != 1 || fixed[0] != "labels labels/grammar/1" {
		t.Errorf("fixed = %v", fixed)
	}
	if r.Cases[1].Baseline != BaselineExpected {
		t.Errorf("grammar/2 baseline mark = %q", r.Cases[1].Baseline)
	}
	if _, err := LoadBaseline(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing baseline file: no error")
	}
}

func TestCompare(t *testing.T) {
	old, cur := sample(), sample()
	cur.Cases[0].Outcome = Fail // regression
	cur.Cases[1].Outcome = Pass // fix
	cur.Cases = cur.Cases[:5]   // grammar/6 removed
	d := Compare(old, cur)
	if len(d.Regressions) != 1 || d.Regressions[0].Key != "labels labels/grammar/1" {
		t.Errorf("regressions %v", d.Regressions)
	}
	if len(d.Fixes) != 1 || len(d.Removed) != 1 || len(d.Added) != 0 {
		t.Errorf("fixes %v removed %v added %v", d.Fixes, d.Removed, d.Added)
	}
}

func TestHTMLAndMarkdownShowFailures(t *testing.T) {
	var h, m bytes.Buffer
	if err := WriteHTML(&h, sample(), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"labels/grammar/2", "req of labels/grammar/2", "Wire transcript", "nipcl-conform run --focus labels/grammar/2", "&lt;&amp;&gt;"} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if err := WriteMarkdown(&m, sample()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), "`labels/grammar/2`") || !strings.Contains(m.String(), "could not complete") {
		t.Errorf("markdown summary:\n%s", m.String())
	}
}
