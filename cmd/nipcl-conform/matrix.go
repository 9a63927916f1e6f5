package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
)

// cmdMatrix runs every profile's suites against a reference relay in every
// profile (and any --target), forcing NIP-CL cases to run everywhere, and
// writes a case × target matrix: a draft or relay change shows exactly
// which checks it flips.
func cmdMatrix(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("matrix", "matrix [--target URL ...] [--report-dir DIR]", stderr)
	reportDir := fs.String("report-dir", "nipcl-matrix", "directory for matrix.html, matrix.md and the run's reports")
	timeout := fs.Duration("timeout", 5*time.Second, "deadline for each network step")
	deadline := fs.Duration("deadline", 10*time.Minute, "deadline for the whole matrix")
	var targets listFlag
	fs.Var(&targets, "target", "another relay URL to include as columns (repeatable)")
	if code, done := parse(fs, args); done {
		return code
	}
	var plans []runner.Plan
	for _, relay := range []string{suites.ProfileNone, suites.ProfileIdentity, suites.ProfileLabels} {
		for _, suite := range profiles {
			plans = append(plans, runner.Plan{
				Name:    fmt.Sprintf("%s suites @ %s relay", suite, relay),
				Target:  &runner.ReferenceTarget{Config: reference.Config{Profile: relay}},
				Profile: suite,
			})
		}
	}
	for _, t := range targets {
		if u, err := url.Parse(t); err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return usageError(stderr, "--target must be a ws:// or wss:// URL, got %q", t)
		}
		for _, suite := range profiles {
			plans = append(plans, runner.Plan{Name: fmt.Sprintf("%s suites @ %s", suite, t), Target: &runner.URLTarget{URL: t}, Profile: suite})
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := runner.Run(ctx, runner.Options{Plans: plans, Force: true, StepTimeout: *timeout, Deadline: *deadline, ReportDir: *reportDir, Out: io.Discard})
	if res == nil {
		fmt.Fprintf(stderr, "nipcl-conform matrix: %v\n", err)
		return reports.ExitHarness
	}
	m := reports.BuildMatrix(res)
	for _, out := range []struct {
		name  string
		write func(io.Writer, reports.Matrix) error
	}{{"matrix.html", reports.WriteMatrixHTML}, {"matrix.md", reports.WriteMatrixMarkdown}} {
		path := filepath.Join(*reportDir, out.name)
		if werr := reports.WriteFile(path, res, func(w io.Writer, _ *reports.Results) error { return out.write(w, m) }); werr != nil {
			fmt.Fprintf(stderr, "nipcl-conform matrix: %v\n", werr)
			return reports.ExitHarness
		}
	}
	fmt.Fprintf(stdout, "%d cases × %d targets; matrix in %s\n", len(m.Rows), len(m.Plans), filepath.Join(*reportDir, "matrix.html"))
	for _, p := range res.Plans {
		if p.SetupError != "" {
			fmt.Fprintf(stderr, "nipcl-conform matrix: %s: %s\n", p.Name, p.SetupError)
			return reports.ExitHarness
		}
	}
	return 0
}
