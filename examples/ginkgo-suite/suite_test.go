// Package ginkgosuite shows how a Go team runs the nipcl-conform suites
// inside its own Ginkgo suite, so that Ginkgo's flags and CLI select and
// report the cases:
//
//	go test ./examples/ginkgo-suite -ginkgo.label-filter='labels && MUST && section:labels.snapshot' -ginkgo.junit-report=out.xml
//	ginkgo --label-filter='labels && MUST' --junit-report=out.xml ./examples/ginkgo-suite
//
// It checks the built-in reference relay; put your own runner.Target
// (runner.URLTarget, runner.ContainerTarget) in the plan instead.
package ginkgosuite

import (
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// defaultFilter keeps a plain `go test` of this example fast: the few MUST
// cases of the labels snapshot section.
const defaultFilter = "labels && MUST && section:labels.snapshot"

func TestSuite(t *testing.T) {
	// Each case asserts with its own Gomega, whose failures read
	// "expected …, observed …"; this handler serves only code outside a case.
	RegisterFailHandler(Fail)

	// Start and probe the target, then register its cases (one Describe
	// named after the plan, one It per case, labelled with framework.CaseLabels).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	plan := runner.Plan{
		Name:    "reference",
		Target:  &runner.ReferenceTarget{Config: reference.Config{Profile: "labels"}},
		Profile: "labels",
	}
	env, stop, err := runner.Prepare(ctx, runner.Options{StepTimeout: 5 * time.Second}, plan)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	suites.Define(env)

	// Ginkgo's flags win; without them this example filters and reports
	// itself, then checks the report below.
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if suiteConfig.LabelFilter == "" {
		suiteConfig.LabelFilter = defaultFilter
	}
	if reporterConfig.JUnitReport == "" {
		reporterConfig.JUnitReport = filepath.Join(t.TempDir(), "junit.xml")
	}
	passed := RunSpecs(t, "my relay", suiteConfig, reporterConfig)
	if suiteConfig.ParallelTotal > 1 {
		return // the ginkgo CLI merges the reports of parallel processes
	}
	checkJUnit(t, reporterConfig.JUnitReport, suiteConfig.LabelFilter, env, passed)
}

type junitCase struct {
	Name      string    `xml:"name,attr"`
	Status    string    `xml:"status,attr"`
	Failure   *struct{} `xml:"failure"`
	Error     *struct{} `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
	Classname string    `xml:"classname,attr"`
}

type junitReport struct {
	Suites []struct {
		Cases []junitCase `xml:"testcase"`
	} `xml:"testsuite"`
}

// checkJUnit asserts that the cases that ran are exactly those the label
// filter selects for env, and that each of them passed. Ginkgo lists the
// filtered-out specs too, as skipped.
func checkJUnit(t *testing.T, path, filter string, env *suites.Env, passed bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("JUnit report: %v", err)
	}
	var rep junitReport
	if err := xml.Unmarshal(data, &rep); err != nil {
		t.Fatalf("JUnit report %s: %v", path, err)
	}
	match, err := types.ParseLabelFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, c := range suites.Catalogue() {
		if env.Applies(c) && match(framework.CaseLabels(c)) && (!c.Slow || env.Slow) {
			want[c.ID] = true
		}
	}
	if len(want) == 0 && filter == defaultFilter {
		t.Fatalf("label filter %q selects no case", filter)
	}
	ran := map[string]bool{}
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			if c.Status == "skipped" {
				continue
			}
			id := caseID(c.Name, env.Plan)
			ran[id] = true
			if !want[id] {
				t.Errorf("%s ran, but label filter %q does not select it", c.Name, filter)
			}
			if c.Status != "passed" || c.Failure != nil || c.Error != nil {
				t.Errorf("%s: %s", c.Name, c.Status)
			}
		}
	}
	for id := range want {
		if !ran[id] {
			t.Errorf("%s: selected by %q but not in the JUnit report as run", id, filter)
		}
	}
	if !passed {
		t.Error("RunSpecs reported a failure")
	}
	t.Logf("JUnit report %s: %d cases ran and passed for %q", path, len(ran), filter)
}

// caseID takes the case ID out of a JUnit test name,
// "[It] <plan> <case ID> [label, …]".
func caseID(name, plan string) string {
	name = strings.TrimPrefix(name, "[It] ")
	name = strings.TrimPrefix(name, plan+" ")
	if i := strings.Index(name, " ["); i >= 0 {
		name = name[:i]
	}
	return name
}
