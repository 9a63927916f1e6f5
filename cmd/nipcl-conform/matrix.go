package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

const matrixSynopsis = "matrix [--target [NAME=]URL ...] [--profile P ...] [--results NAME=results.json ...] [--no-reference] [--focus X ...] [--parallel N] [--report-dir DIR]"

const matrixAbout = `Compares implementations side by side: rows are the cases (by section),
columns are implementation × profile, each cell links to the case's message,
notes and wire transcript. By default every profile's suites run against the
built-in reference relay in every profile (NIP-CL cases forced everywhere);
--target adds live relays, --results adds the results.json of runs made
elsewhere (e.g. by ` + "`nipcl-conform run --report-dir`" + ` in CI), without re-running them.
Writes matrix.html (self-contained) and matrix.md to --report-dir.

Examples:
  nipcl-conform matrix
  nipcl-conform matrix --no-reference --target relay29=ws://127.0.0.1:7447 --target mine=wss://relay.example
  nipcl-conform matrix --target mine=ws://127.0.0.1:7447 --profile nip29,labels
  nipcl-conform matrix --no-reference --results relay29=relay29/results.json --results mine=mine/results.json
`

// matrixTarget is one --target: an implementation name and its relay URL.
type matrixTarget struct{ name, url string }

// matrixColumns maps the live run's plans to the implementation each
// belongs to, in column order.
type matrixColumns struct {
	names  []string            // implementations, in order
	origin map[string]string   // implementation → where it runs
	plans  map[string][]string // implementation → its plan names
}

func (c *matrixColumns) add(impl, origin string, plan runner.Plan) {
	if c.origin == nil {
		c.origin, c.plans = map[string]string{}, map[string][]string{}
	}
	if _, ok := c.origin[impl]; !ok {
		c.names = append(c.names, impl)
		c.origin[impl] = origin
	}
	c.plans[impl] = append(c.plans[impl], plan.Name)
}

// cmdMatrix compares implementations side by side: every profile's suites
// against a reference relay in every profile (unless --no-reference), the
// --profile suites against every --target, and the cases of earlier runs'
// results.json files (--results), forcing NIP-CL cases to run everywhere.
// It writes a case × (implementation × profile) matrix: a draft or relay
// change shows exactly which checks it flips, and where implementations
// disagree.
func cmdMatrix(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("matrix", matrixSynopsis, stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: nipcl-conform %s\n\n%s\nFlags:\n", matrixSynopsis, matrixAbout)
		fs.PrintDefaults()
	}
	reportDir := fs.String("report-dir", "nipcl-matrix", "directory for matrix.html, matrix.md and the live run's reports")
	timeout := fs.Duration("timeout", 5*time.Second, "deadline for each network step")
	deadline := fs.Duration("deadline", 10*time.Minute, "deadline for the whole matrix")
	noReference := fs.Bool("no-reference", false, "leave out the built-in reference relay's columns")
	parallel := fs.Int("parallel", min(runtime.NumCPU()*2, 8), "run the live plans in up to `N` processes at once (each column's cases still run in order; a plan mostly waits on its relay)")
	var targets, profileArgs, resultArgs, focus, skip listFlag
	fs.Var(&focus, "focus", "run only these cases, by `ID`, area or section (labels/*), as run --focus (repeatable)")
	fs.Var(&skip, "skip", "leave out these cases, by `ID`, area or section, as run --skip (repeatable)")
	fs.Var(&targets, "target", "a relay to compare, as `NAME=URL` (ws:// or wss://), one column per --profile; a bare URL is named after its host:port (repeatable)")
	fs.Var(&profileArgs, "profile", "suites to run against the --target relays, by `PROFILE`: "+strings.Join(framework.ProfileNames, ", ")+" (repeatable or comma-separated; default nip29)")
	fs.Var(&resultArgs, "results", "add the columns of an earlier run's results.json (written by 'run --report-dir', e.g. in CI), as `NAME=FILE`, without re-running it (repeatable)")
	if code, done := parse(fs, args); done {
		return code
	}
	if *timeout <= 0 || *deadline <= 0 {
		return usageError(stderr, "--timeout and --deadline must be positive durations")
	}
	if *parallel < 1 {
		return usageError(stderr, "--parallel must be at least 1")
	}
	selected, err := parseProfiles(profileArgs)
	if err != nil {
		return usageError(stderr, "--profile: %v", err)
	}
	if len(profileArgs) > 0 && len(targets) == 0 {
		return usageError(stderr, "--profile chooses the suites run against --target relays; give a --target")
	}
	if len(selected) == 0 {
		selected = []string{framework.ProfileNIP29}
	}
	var tgts []matrixTarget
	for _, s := range targets {
		t, err := parseMatrixTarget(s)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		tgts = append(tgts, t)
	}
	var sources []reports.MatrixSource
	for _, s := range resultArgs {
		name, path, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return usageError(stderr, "--results wants NAME=FILE (a results.json), got %q", s)
		}
		if err := validName(name); err != nil {
			return usageError(stderr, "--results %s: %v", s, err)
		}
		res, err := readMatrixResults(path)
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform matrix: --results %s: %v\n", name, err)
			return reports.ExitHarness
		}
		sources = append(sources, reports.MatrixSource{Name: name, Origin: path, Results: res})
	}
	if *noReference && len(tgts) == 0 && len(sources) == 0 {
		return usageError(stderr, "--no-reference leaves nothing to compare: give a --target or --results")
	}

	var plans []runner.Plan
	var cols matrixColumns
	if !*noReference {
		for _, relay := range profiles {
			for _, suite := range profiles {
				p := runner.Plan{
					Name:    fmt.Sprintf("%s suites @ %s relay", suite, relay),
					Target:  &runner.ReferenceTarget{Config: reference.Config{Profile: relay}},
					Profile: suite,
				}
				plans = append(plans, p)
				cols.add("reference ("+relay+")", "built-in reference relay, "+relay+" profile", p)
			}
		}
	}
	// Names must tell column groups (and so plans) apart.
	taken := map[string]string{}
	for _, n := range cols.names {
		taken[n] = "a reference column group"
	}
	for _, t := range tgts {
		if what, dup := taken[t.name]; dup {
			return usageError(stderr, "--target name %q is already taken by %s: name it apart (NAME=URL)", t.name, what)
		}
		taken[t.name] = "another --target"
	}
	for _, s := range sources {
		if what, dup := taken[s.Name]; dup {
			return usageError(stderr, "--results name %q is already taken by %s", s.Name, what)
		}
		taken[s.Name] = "another --results"
	}
	for _, t := range tgts {
		for _, suite := range selected {
			p := runner.Plan{Name: fmt.Sprintf("%s suites @ %s", suite, t.name), Target: &runner.URLTarget{URL: t.url}, Profile: suite}
			plans = append(plans, p)
			cols.add(t.name, t.url, p)
		}
	}
	seenPlan := map[string]bool{}
	for _, p := range plans {
		if seenPlan[p.Name] {
			return usageError(stderr, "--target name clashes with a reference plan (%q): choose another NAME", p.Name)
		}
		seenPlan[p.Name] = true
	}

	var live *reports.Results
	if len(plans) > 0 {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		opts := runner.Options{Plans: plans, Force: true, StepTimeout: *timeout, Deadline: *deadline, ReportDir: *reportDir, Out: io.Discard,
			Focus: focus, Skip: skip}
		if raw := os.Getenv(matrixShareEnv); raw != "" {
			return runMatrixShare(ctx, opts, raw, stderr)
		}
		var res *reports.Results
		var err error
		if *parallel > 1 && len(plans) > 1 {
			res, err = runMatrixShares(ctx, opts, args, *parallel)
		} else {
			res, err = runner.Run(ctx, opts)
		}
		if res == nil {
			fmt.Fprintf(stderr, "nipcl-conform matrix: %v\n", err)
			return reports.ExitHarness
		}
		live = res
		var liveSources []reports.MatrixSource
		for _, impl := range cols.names {
			liveSources = append(liveSources, reports.MatrixSource{Name: impl, Origin: cols.origin[impl], Results: reports.PlanSubset(res, cols.plans[impl]...)})
		}
		sources = append(liveSources, sources...)
	}

	m := reports.BuildMatrix(sources...)
	m.HTMLFile = "matrix.html"
	for _, out := range []struct {
		name  string
		write func(io.Writer, reports.Matrix) error
	}{{"matrix.html", reports.WriteMatrixHTML}, {"matrix.md", reports.WriteMatrixMarkdown}} {
		path := filepath.Join(*reportDir, out.name)
		if werr := reports.WriteFile(path, live, func(w io.Writer, _ *reports.Results) error { return out.write(w, m) }); werr != nil {
			fmt.Fprintf(stderr, "nipcl-conform matrix: %v\n", werr)
			return reports.ExitHarness
		}
	}
	fmt.Fprintf(stdout, "%d cases × %d columns (%d implementations); matrix in %s\n", len(m.Rows), len(m.Columns), len(m.Groups), filepath.Join(*reportDir, "matrix.html"))
	if live != nil {
		for _, p := range live.Plans {
			if p.SetupError != "" {
				fmt.Fprintf(stderr, "nipcl-conform matrix: %s: %s\n", p.Name, p.SetupError)
				return reports.ExitHarness
			}
		}
	}
	return 0
}

// parseProfiles validates --profile values (repeatable, comma-separated)
// and returns their canonical names, without duplicates, in order.
func parseProfiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, a := range args {
		for _, n := range strings.Split(a, ",") {
			p, err := framework.ParseProfile(strings.TrimSpace(n))
			if err != nil {
				return nil, err
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// parseMatrixTarget reads a --target value: NAME=URL, or a bare URL named
// after its host:port.
func parseMatrixTarget(s string) (matrixTarget, error) {
	var t matrixTarget
	raw := s
	if name, rest, ok := strings.Cut(s, "="); ok && !strings.Contains(name, "://") {
		if err := validName(name); err != nil {
			return t, fmt.Errorf("--target wants NAME=URL or URL, got %q: %w", s, err)
		}
		if rest == "" {
			return t, fmt.Errorf("--target %q lacks the URL after %q", s, name+"=")
		}
		t.name, raw = name, rest
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return t, fmt.Errorf("--target must be a ws:// or wss:// URL (optionally NAME=URL), got %q", s)
	}
	t.url = raw
	if t.name == "" {
		t.name = u.Host
	}
	return t, nil
}

// validName checks an implementation name given on the command line.
func validName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("the NAME is empty")
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Errorf("the NAME %q has a control character", name)
		}
	}
	return nil
}

// readMatrixResults loads an earlier run's results.json and checks that it
// has something to show.
func readMatrixResults(path string) (*reports.Results, error) {
	res, err := reports.ReadJSON(path)
	if err != nil {
		return nil, err
	}
	if len(res.Plans) == 0 {
		return nil, fmt.Errorf("%s lists no plans: not the results.json of a nipcl-conform run", path)
	}
	return res, nil
}

// matrixShareEnv carries, to a child process of matrix --parallel, the
// plans it runs and where it writes their results.
const matrixShareEnv = "NIPCL_MATRIX_SHARE"

type matrixShare struct {
	Plans []string `json:"plans"`
	Dir   string   `json:"dir"`
}

// runMatrixShare is a child of matrix --parallel: it runs the plans of its
// share (the parent's command line built the same plans) into its
// directory.
func runMatrixShare(ctx context.Context, opts runner.Options, raw string, stderr io.Writer) int {
	var sh matrixShare
	if err := json.Unmarshal([]byte(raw), &sh); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform matrix: %s: %v\n", matrixShareEnv, err)
		return reports.ExitHarness
	}
	want := map[string]bool{}
	for _, n := range sh.Plans {
		want[n] = true
	}
	var plans []runner.Plan
	for _, p := range opts.Plans {
		if want[p.Name] {
			plans = append(plans, p)
		}
	}
	opts.Plans, opts.ReportDir = plans, sh.Dir
	if _, err := runner.Run(ctx, opts); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform matrix: %v\n", err)
		return reports.ExitHarness
	}
	return 0
}

// runMatrixShares runs the plans in up to n child processes of this
// binary (Ginkgo runs one suite per process), the plans dealt round
// robin, and joins their results; the run's reports are written into
// opts.ReportDir as one. An interrupt reaches every child.
func runMatrixShares(ctx context.Context, opts runner.Options, args []string, n int) (*reports.Results, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	release, _, err := runner.ClaimReportDir(opts.ReportDir, "")
	if err != nil {
		return nil, err
	}
	defer release()
	tmp, err := os.MkdirTemp("", "nipcl-matrix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	n = min(n, len(opts.Plans))
	shares := make([]matrixShare, n)
	for i, p := range opts.Plans {
		shares[i%n].Plans = append(shares[i%n].Plans, p.Name)
	}
	parts := make([]*reports.Results, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range shares {
		shares[i].Dir = filepath.Join(tmp, fmt.Sprint(i))
		raw, _ := json.Marshal(shares[i])
		cmd := exec.CommandContext(ctx, self, append([]string{"matrix"}, args...)...)
		cmd.Env = append(os.Environ(), matrixShareEnv+"="+string(raw))
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = time.Minute
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Errorf("matrix share %v: %w\n%s", shares[i].Plans, err, out.String())
			}
			part, rerr := reports.ReadJSON(filepath.Join(shares[i].Dir, "results.json"))
			parts[i] = part
			if errs[i] == nil && rerr != nil {
				errs[i] = rerr
			}
		}(i)
	}
	wg.Wait()
	var got []*reports.Results
	for i, p := range parts {
		if p != nil {
			got = append(got, p)
		} else if errs[i] != nil {
			return nil, errs[i]
		}
	}
	res, err := reports.Merge(got...)
	if err != nil {
		return nil, err
	}
	// Plans in the order the command built them (the columns' order), not
	// the shares'.
	order := map[string]int{}
	for i, p := range opts.Plans {
		order[p.Name] = i
	}
	sort.SliceStable(res.Plans, func(i, j int) bool { return order[res.Plans[i].Name] < order[res.Plans[j].Name] })
	res.Sort()
	if err := runner.WriteReports(opts.ReportDir, "", res); err != nil {
		return res, err
	}
	return res, nil
}
