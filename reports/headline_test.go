package reports

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func headlineRun(cases ...CaseResult) *Results {
	for i := range cases {
		cases[i].Plan, cases[i].Level = "labels", "MUST"
	}
	return &Results{Plans: []PlanResult{{Name: "labels", Profile: "labels"}}, Cases: cases, Settings: map[string]string{}}
}

// TestIncompleteRunHeadline: a run the harness stopped exits 4, says so in
// every report, and counts its not-run cases as neither passed nor failed.
func TestIncompleteRunHeadline(t *testing.T) {
	r := headlineRun(CaseResult{ID: "a/1", Outcome: Pass}, CaseResult{ID: "a/2", Outcome: Fail}, CaseResult{ID: "a/3", Outcome: NotRun}, CaseResult{ID: "a/4", Outcome: Skipped})
	r.StoppedBy = "a cancel (SIGTERM)"
	if got := r.ExitCode(false); got != ExitIncomplete {
		t.Errorf("exit %d, want %d", got, ExitIncomplete)
	}
	want := "incomplete: stopped by a cancel (SIGTERM) after 2 of 3 cases (1 passed, 1 not passing; not a verdict on the relay)"
	if got := Headline(r); got != want {
		t.Errorf("headline %q\nwant     %q", got, want)
	}
	if passed, applicable := MustTally(r.Cases); passed != 1 || applicable != 2 {
		t.Errorf("MUST tally %d/%d, want 1/2 (not-run is not applicable)", passed, applicable)
	}
	if b := BadgeOf(r); b.Color != badgeGrey || !strings.HasSuffix(b.Message, "(incomplete)") {
		t.Errorf("badge %+v", b)
	}
	var md, x bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil || !strings.Contains(md.String(), want) {
		t.Errorf("summary.md lacks the headline (%v)", err)
	}
	if err := WriteJUnit(&x, r); err != nil || !strings.Contains(x.String(), `name="stopped_by" value="a cancel (SIGTERM)"`) {
		t.Errorf("junit lacks stopped_by (%v)", err)
	}
}

// TestBaselineIsToldTruthfully: a run whose only failures a baseline
// lists "conforms except N known failures", marks them known in every
// format (JUnit: skipped with the reason), and lists new failures first.
func TestBaselineIsToldTruthfully(t *testing.T) {
	r := headlineRun(CaseResult{ID: "a/1", Outcome: Pass}, CaseResult{ID: "a/2", Outcome: Fail, Message: "expected x, observed y"})
	r.Settings["baseline"] = "/ci/known.txt"
	r.Cases[1].Baseline = BaselineExpected
	if got, want := Headline(r), "conforms except 1 known failure (baseline known.txt)"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	var x bytes.Buffer
	if err := WriteJUnit(&x, r); err != nil {
		t.Fatal(err)
	}
	var doc junitTestSuites
	if err := xml.Unmarshal(x.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures != 0 || doc.Skipped != 1 || !strings.Contains(x.String(), `message="known failure (baseline known.txt), fail: expected x, observed y"`) {
		t.Errorf("junit: %d failures, %d skipped:\n%s", doc.Failures, doc.Skipped, x.String())
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, r, HTMLOptions{}); err != nil || !strings.Contains(h.String(), "known failure (baseline known.txt)") || strings.Contains(h.String(), "conforms (every MUST") {
		t.Errorf("report.html does not mark the known failure (%v)", err)
	}

	r.Cases = append(r.Cases, CaseResult{ID: "a/3", Plan: "labels", Level: "MUST", Outcome: Fail, Message: "new"})
	if got := Headline(r); got != "does not conform" {
		t.Errorf("headline with a new failure %q", got)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	if i, j := strings.Index(s, "`a/3`"), strings.Index(s, "`a/2`"); i < 0 || j < 0 || i > j || !strings.Contains(s, "fail, known failure (baseline known.txt)") {
		t.Errorf("summary.md: want the new failure a/3 before the known a/2, marked:\n%s", s)
	}
}

// TestFailureNamesTheClauseItBroke: a failure that recorded the clause it
// breaks is explained by that clause (its sentence's place and our
// wording), not by the case's own section, in the root causes, Markdown
// and JUnit; messages are never cut in Markdown.
func TestFailureNamesTheClauseItBroke(t *testing.T) {
	long := "l tags out of order: " + strings.Repeat("x", 300) + " observed END"
	r := headlineRun(CaseResult{ID: "labels/add-remove/1", Section: "labels/add-remove", Ref: "nip-cl-labels.md § Add and remove labels",
		Outcome: Fail, Violates: "labels/snapshot.4", Message: long})
	cl, ok := Broken(r.Cases[0])
	if !ok {
		t.Fatal("labels/snapshot.4 is not in the catalogue")
	}
	causes := r.Causes()
	if len(causes) != 1 || causes[0].Ref != cl.Ref || causes[0].Sections[0] != "labels/snapshot" || !strings.Contains(causes[0].Requirement, cl.Text) {
		t.Errorf("cause %+v, want it explained by %s (%s)", causes, cl.ID, cl.Ref)
	}
	var md, x bytes.Buffer
	_ = WriteMarkdown(&md, r)
	_ = WriteJUnit(&x, r)
	if !strings.Contains(md.String(), "breaks labels/snapshot.4") || !strings.Contains(md.String(), "observed END") {
		t.Errorf("summary.md does not name the broken clause or cuts the message:\n%s", md.String())
	}
	if !strings.Contains(x.String(), "Failure: breaks labels/snapshot.4 ("+string(cl.Level)) {
		t.Errorf("junit does not name the broken clause")
	}
}
