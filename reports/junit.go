package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/internal/text"
)

// JUnit XML, in the common Jenkins/Ant shape that CI systems import.
type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Errors   int              `xml:"errors,attr"`
	Skipped  int              `xml:"skipped,attr"`
	Time     string           `xml:"time,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitTestCase `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitTestCase struct {
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Failure    *junitMessage   `xml:"failure,omitempty"`
	Error      *junitMessage   `xml:"error,omitempty"`
	Skipped    *junitMessage   `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// JUnitName is the stable test name of a case: "<ID> <requirement>".
func JUnitName(c CaseResult) string { return c.ID + " " + c.Requirement }

// suiteName groups cases into one testsuite per plan and area.
func suiteName(c CaseResult) string { return c.Plan + "/" + c.Area }

// WriteJUnit renders r as JUnit XML.
func WriteJUnit(w io.Writer, r *Results) error {
	groups := map[string][]CaseResult{}
	for _, c := range r.Cases {
		groups[suiteName(c)] = append(groups[suiteName(c)], c)
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	doc := junitTestSuites{Name: "nipcl-conform", Time: secs(r.Finished.Sub(r.Started).Milliseconds())}
	causes := r.Causes()
	plans := map[string]PlanResult{}
	for _, p := range r.Plans {
		plans[p.Name] = p
	}
	for _, n := range names {
		s := junitTestSuite{Name: n, Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
		s.Properties = suiteProperties(r, plans[groups[n][0].Plan])
		var ms int64
		for _, c := range groups[n] {
			tc := junitTestCase{
				Name: JUnitName(c), Classname: n, Time: secs(c.DurationMS),
				Properties: []junitProperty{
					{"id", c.ID}, {"section", c.Section}, {"level", string(c.Level)},
					{"profile", profileName(c.Profile)}, {"outcome", string(c.Outcome)}, {"plan", c.Plan},
				},
			}
			if c.Source != "" {
				tc.Properties = append(tc.Properties, junitProperty{"source", c.Source}, junitProperty{"ref", c.Ref})
			}
			if c.Reading != "" {
				tc.Properties = append(tc.Properties, junitProperty{"reading", c.Reading})
			}
			if c.Precondition != "" {
				tc.Properties = append(tc.Properties, junitProperty{"precondition", c.Precondition})
			}
			if id := CauseOf(causes, c); id != "" {
				tc.Properties = append(tc.Properties, junitProperty{"cause", id})
			}
			body := failureBody(c)
			if c.Baseline != "" {
				tc.Properties = append(tc.Properties, junitProperty{"baseline", c.Baseline})
			}
			switch c.Outcome {
			case Fail, Timeout, HarnessError, Blocked:
				if Known(c) {
					// Listed by the run's --baseline: it does not fail the
					// run; skipped with the reason, the failure as output.
					tc.Skipped = &junitMessage{Message: KnownWord(r) + ", " + string(c.Outcome) + ": " + text.FirstLine(c.Message)}
					tc.SystemOut = body
					s.Skipped++
					break
				}
				switch c.Outcome {
				case Fail:
					tc.Failure = &junitMessage{Message: text.FirstLine(c.Message), Type: "fail", Body: body}
					s.Failures++
				case Timeout:
					tc.Failure = &junitMessage{Message: "timeout: " + text.FirstLine(c.Message), Type: "timeout", Body: body}
					s.Failures++
				case HarnessError:
					tc.Error = &junitMessage{Message: text.FirstLine(c.Message), Type: "harness-error", Body: body}
					s.Errors++
				default: // blocked
					tc.Skipped = &junitMessage{Message: "blocked: " + text.FirstLine(c.Message)}
					s.Skipped++
				}
			case Skipped, Unsupported, NotRun:
				tc.Skipped = &junitMessage{Message: string(c.Outcome) + ": " + text.FirstLine(c.Message)}
				s.Skipped++
			}
			if len(c.Notes) > 0 {
				tc.SystemOut = strings.TrimPrefix(tc.SystemOut+"\n"+strings.Join(c.Notes, "\n"), "\n")
			}
			s.Tests++
			ms += c.DurationMS
			s.Cases = append(s.Cases, tc)
		}
		s.Time = secs(ms)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode JUnit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// suiteProperties make each testsuite a self-describing claim: the harness
// build, catalogue and spec revisions, the plan's profile and target, and
// the target's NIP-11 identity.
func suiteProperties(r *Results, p PlanResult) []junitProperty {
	var out []junitProperty
	add := func(name, value string) {
		if value != "" {
			out = append(out, junitProperty{name, value})
		}
	}
	add("headline", Headline(r))
	add("tool", r.Tool)
	add("tool.version", r.Version)
	add("tool.commit", r.Commit)
	if r.Modified {
		add("tool.modified", "true")
	}
	add("catalogue", r.Catalogue)
	add("run_id", r.RunID)
	add("stopped_by", r.StoppedBy)
	add("plan", p.Name)
	add("profile", p.Profile)
	add("target", p.Target)
	for _, sp := range r.SpecsForProfile(p.Profile) {
		add("spec."+sp.Profile, sp.String())
	}
	if p.Relay != nil {
		add("relay.name", p.Relay.Name)
		add("relay.self", p.Relay.Self)
		add("relay.software", p.Relay.Software)
		add("relay.version", p.Relay.Version)
	}
	return out
}

func failureBody(c CaseResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Requirement (%s %s, %s): %s\n", c.Level, c.ID, c.Section, c.Requirement)
	if c.Source != "" {
		fmt.Fprintf(&b, "Source: %s — %s\n", c.Source, c.Ref)
	}
	if line := BrokenLine(c); line != "" {
		fmt.Fprintf(&b, "Failure: %s\n", line)
	}
	if c.Reading != "" {
		fmt.Fprintf(&b, "Reading: %s\n", c.Reading)
	}
	if c.Message != "" {
		fmt.Fprintf(&b, "\n%s\n", c.Message)
	}
	if c.Location != "" {
		fmt.Fprintf(&b, "at %s\n", c.Location)
	}
	if c.Repro != "" {
		fmt.Fprintf(&b, "\nReproduce: %s\n", c.Repro)
	}
	if c.Transcript != "" {
		fmt.Fprintf(&b, "\nWire transcript:\n%s", junitTranscript(c.Transcript))
	}
	return b.String()
}

// junitHeadTail is how many lines of a long transcript JUnit keeps at
// each end: CI systems show a failure's body whole, and a matrix run's
// junit.xml held megabytes of transcripts. The whole transcript is in
// results.json, written by the same run.
const junitHeadTail = 25

// junitTranscript is t, or its first and last junitHeadTail lines with
// what was left out said between them.
func junitTranscript(t string) string {
	return cutTranscript(t, junitHeadTail, junitHeadTail)
}

func profileName(p string) string {
	if p == "" {
		return "baseline"
	}
	return p
}

func secs(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// WriteFile writes a report with fn to path, creating its directory.
func WriteFile(path string, r *Results, fn func(io.Writer, *Results) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("report directory: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create report: %w", err)
	}
	if err := fn(f, r); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
