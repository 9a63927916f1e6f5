package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// shareEnv carries, to a child process RunShares started, the plans it
// runs and where it writes their reports.
const shareEnv = "NIPCL_SHARE"

// share is one child process's part of a run split by RunShares.
type share struct {
	Plans     []string // plan names
	ReportDir string
}

// RunShares runs opts.Plans split into up to n shares, each in a child
// process of the test binary running the same test (Ginkgo allows one
// RunSpecs per process), all at once, and returns their results joined,
// also written as one set of reports into opts.ReportDir. Runs against
// the in-process reference relay mostly wait (a case waits out a step
// timeout for what a fault withholds, a relay's clock, a settle window),
// so processes side by side overlap their waits.
//
// The test must build the same plans in the child: RunShares returns nil
// there, after running the child's share, and the test then returns at
// once. Plans are dealt longest first to the share with the fewest cases
// so far.
func RunShares(t *testing.T, opts runner.Options, n int) *reports.Results {
	t.Helper()
	if raw := os.Getenv(shareEnv); raw != "" {
		runShare(t, opts, raw)
		return nil
	}
	shares := dealPlans(opts.Plans, n)
	parts := make([]*reports.Results, len(shares))
	errs := make([]error, len(shares))
	var wg sync.WaitGroup
	for i := range shares {
		shares[i].ReportDir = filepath.Join(t.TempDir(), fmt.Sprintf("share-%d", i))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			parts[i], errs[i] = runChildShare(t, shares[i])
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("share %d: %d plans, %d cases in %s", i, len(shares[i].Plans), len(parts[i].Cases),
			parts[i].Finished.Sub(parts[i].Started).Round(time.Millisecond))
	}
	res, err := reports.Merge(parts...)
	if err != nil {
		t.Fatalf("joining the shares' results: %v", err)
	}
	if err := runner.WriteReports(opts.ReportDir, opts.JUnitPath, res); err != nil {
		t.Fatalf("reports: %v", err)
	}
	return res
}

// runShare runs, in a child process, the plans its share names.
func runShare(t *testing.T, opts runner.Options, raw string) {
	t.Helper()
	var sh share
	if err := json.Unmarshal([]byte(raw), &sh); err != nil {
		t.Fatalf("%s: %v", shareEnv, err)
	}
	want := map[string]bool{}
	for _, name := range sh.Plans {
		want[name] = true
	}
	var plans []runner.Plan
	for _, p := range opts.Plans {
		if want[p.Name] {
			plans = append(plans, p)
			delete(want, p.Name)
		}
	}
	if len(want) > 0 {
		t.Fatalf("%s names plans the test did not build: %v", shareEnv, want)
	}
	opts.Plans, opts.ReportDir, opts.JUnitPath = plans, sh.ReportDir, ""
	if _, err := runner.Run(context.Background(), opts); err != nil {
		t.Fatalf("run: %v", err)
	}
}

// runChildShare runs sh in a child process of this test binary, running
// the test t names, and reads its results.
func runChildShare(t *testing.T, sh share) (*reports.Results, error) {
	raw, err := json.Marshal(sh)
	if err != nil {
		return nil, err
	}
	limit := 15 * time.Minute
	if d, ok := t.Deadline(); ok {
		limit = time.Until(d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+runPattern(t.Name()), "-test.count=1", "-test.timeout="+limit.String())
	cmd.Env = append(os.Environ(), shareEnv+"="+string(raw))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("share of %d plans: %w\n%s", len(sh.Plans), err, lastLines(string(out), 30))
	}
	return reports.ReadJSON(filepath.Join(sh.ReportDir, "results.json"))
}

// runPattern is the -test.run pattern selecting exactly the test (or
// subtest) named name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// dealPlans splits plans into up to n shares: longest first (by their
// number of cases), each to the share with the fewest cases so far.
func dealPlans(plans []runner.Plan, n int) []share {
	if n < 1 {
		n = 1
	}
	type sized struct {
		name  string
		cases int
	}
	list := make([]sized, len(plans))
	for i, p := range plans {
		list[i] = sized{p.Name, planCases(p)}
	}
	// Stable: equal plans keep the order the test built them in.
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].cases > list[j-1].cases; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	shares := make([]share, n)
	cost := make([]int, n)
	for _, p := range list {
		best := 0
		for i := range cost {
			if cost[i] < cost[best] {
				best = i
			}
		}
		shares[best].Plans = append(shares[best].Plans, p.name)
		cost[best] += p.cases + 1 // +1: a plan starts a relay and probes it
	}
	out := shares[:0]
	for _, s := range shares {
		if len(s.Plans) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// planCases estimates how many cases a plan runs: its Cases, else the
// catalogue's cases of its profile (and Sections).
func planCases(p runner.Plan) int {
	if len(p.Cases) > 0 {
		return len(p.Cases)
	}
	sections := map[string]bool{}
	for _, s := range p.Sections {
		sections[s] = true
	}
	n := 0
	for _, c := range suites.Catalogue() {
		if c.Profile != "" && c.Profile != p.Profile && c.Profile != framework.ProfileNIP29 {
			continue
		}
		if len(sections) > 0 && !sections[c.Section] {
			continue
		}
		n++
	}
	return n
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
