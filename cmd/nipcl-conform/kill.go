package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
)

// cmdKill judges faults of the reference relay as the kill test
// (conformance TestKill) does: per fault and profile, the in-process
// reference relay runs with the fault on and only the cases citing the
// fault's clause run against it (conformance.KillPlan); the fault is
// killed when one of them fails or times out (conformance.Judge). Exit 0
// when every fault was killed, 1 when one survived, 2 on a usage or setup
// error.
func cmdKill(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("kill", "kill FAULT [FAULT...] [--report-dir DIR]", stderr)
	reportDir := fs.String("report-dir", "", "DIR: keep the run's reports there (default: a temporary directory, removed)")
	timeout := fs.Duration("timeout", 5*time.Second, "per network step, as in the kill test")
	sections := fs.Bool("sections", false, "also run the other cases of the sections of the fault and of its clause's cases, to see which other cases notice the fault (bystanders; they never count)")
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(names) == 0 {
		return usageError(stderr, "kill takes one or more fault names (nipcl-conform faults lists them)")
	}
	byName := map[string]reference.Fault{}
	for _, f := range reference.Faults() {
		byName[f.Name] = f
	}
	var faults []reference.Fault
	for _, arg := range names {
		for _, name := range strings.Split(arg, ",") {
			f, ok := byName[strings.TrimSpace(name)]
			if !ok {
				return usageError(stderr, "unknown fault %q (nipcl-conform faults lists them)", name)
			}
			faults = append(faults, f)
		}
	}
	dir := *reportDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "nipcl-kill-")
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform kill: %v\n", err)
			return 2
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	type judged struct {
		f       reference.Fault
		profile string
		plan    string
	}
	var plans []runner.Plan
	var todo []judged
	for _, f := range faults {
		for _, p := range conformance.KillProfiles(f) {
			name := p + " fault=" + f.Name
			plan := conformance.KillPlan(name, p, f, nil)
			if *sections {
				plan.Sections, plan.Cases = killSections(f), nil
			}
			plans = append(plans, plan)
			todo = append(todo, judged{f, p, name})
		}
	}
	res, err := runner.Run(context.Background(), runner.Options{
		Plans: plans, ReportDir: dir, StepTimeout: *timeout, Deadline: 10 * time.Minute,
	})
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform kill: %v\n", err)
		return 2
	}
	byPlan := conformance.ByPlan(res.Cases)
	code := 0
	for _, j := range todo {
		v := conformance.Judge(j.f, j.profile, byPlan[j.plan])
		verdict := "killed"
		if v.Survived {
			verdict, code = "SURVIVED", 1
		}
		fmt.Fprintf(stdout, "%s (%s, clause %s): %s — %d cases ran\n", j.f.Name, j.profile, j.f.Clause, verdict, v.Ran)
		if len(v.Killers) > 0 {
			fmt.Fprintf(stdout, "  killers:    %s\n", strings.Join(v.Killers, " "))
		}
		if len(v.Bystanders) > 0 {
			fmt.Fprintf(stdout, "  bystanders: %s (failed, but do not cite %s)\n", strings.Join(v.Bystanders, " "), j.f.Clause)
		}
		if v.Why != "" {
			fmt.Fprintf(stdout, "  why:        %s\n", v.Why)
		}
	}
	fmt.Fprintf(stdout, "%d cases in %s", len(res.Cases), res.Finished.Sub(res.Started).Round(time.Millisecond))
	if *reportDir != "" {
		fmt.Fprintf(stdout, "; reports in %s", dir)
	}
	fmt.Fprintln(stdout)
	return code
}

// killSections is the fault's own section and the sections of the cases
// citing its clause: what the kill test ran per fault before it ran only
// the citing cases.
func killSections(f reference.Fault) []string {
	set := map[string]bool{f.Section: true}
	for _, id := range conformance.CitingCases(f.Clause) {
		if c, ok := suites.Lookup(id); ok {
			set[c.Section] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
