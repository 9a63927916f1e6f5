package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nipcl/nipcl-conform/clientmode"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/version"
)

// cmdClient runs the client conformance cases: the harness plays a
// scripted, misbehaving relay and judges the client under test (by
// default the built-in reference client).
func cmdClient(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("client", "client [--profile nip29|labels|identity] [--client-cmd CMD] [--client-fault NAME] [--report-dir DIR] [--timeout D] [--case ID] [--repeat N] [--parallel N] [--relay-ignores-limit] [--strict] [--faults] [--list]", stderr)
	var (
		profile   = fs.String("profile", "", "nip29, labels or identity (default: all three)")
		command   = fs.String("client-cmd", "", "adapter command for the client under test, run with sh -c once per case, speaking JSON lines (docs/client-mode.md); default: the built-in reference client")
		fault     = fs.String("client-fault", "", "break the built-in reference client with this fault switch (see --faults)")
		reportDir = fs.String("report-dir", "nipcl-client-report", "directory for the reports (junit.xml, results.json, summary.md, report.html, badge.svg)")
		timeout   = fs.Duration("timeout", 20*time.Second, "deadline for the client's answer to each intent")
		wait      = fs.Duration("reference-wait", clientmode.DefaultWait, "how long the built-in reference client waits for an OK before counting the attempt as Unknown")
		repeat    = fs.Int("repeat", 1, "run each case N times; a case whose runs disagree fails as flaky, with the tally")
		parallel  = fs.Int("parallel", clientmode.DefaultParallel(), "run this many cases at once (each has its own scripted relays and client process; the report order does not change)")
		noLimit   = fs.Bool("relay-ignores-limit", false, "the scripted relays answer every matching event whatever a filter's limit (lawful: NIP-01 says relays SHOULD use limit)")
		strict    = fs.Bool("strict", false, "SHOULD cases also fail the run (exit 1)")
		only      listFlag
		faults    = fs.Bool("faults", false, "list the reference client's fault switches and exit")
		list      = fs.Bool("list", false, "list the client cases and exit")
	)
	fs.Var(&only, "case", "run only this case ID (repeatable)")
	if code, done := parse(fs, args); done {
		return code
	}
	if *faults {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "FAULT\tBREAKS\tWHAT")
		for _, f := range clientmode.Faults {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, f.Clause, f.What)
		}
		tw.Flush()
		return 0
	}
	switch *profile {
	case "", "nip29", "labels", "identity":
	default:
		fmt.Fprintf(stderr, "nipcl-conform client: --profile must be nip29, labels or identity, not %q\n", *profile)
		return reports.ExitHarness
	}
	if *repeat < 1 {
		fmt.Fprintf(stderr, "nipcl-conform client: --repeat must be at least 1, not %d\n", *repeat)
		return reports.ExitHarness
	}
	if *parallel < 1 {
		fmt.Fprintf(stderr, "nipcl-conform client: --parallel must be at least 1, not %d\n", *parallel)
		return reports.ExitHarness
	}
	if *list {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CASE\tLEVEL\tCLAUSE\tREQUIREMENT")
		for _, c := range clientmode.Selected(*profile) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Level, c.Clause, c.Requirement)
		}
		tw.Flush()
		return 0
	}
	if !clientmode.ValidFault(*fault) {
		fmt.Fprintf(stderr, "nipcl-conform client: unknown --client-fault %q (known: %s)\n", *fault, strings.Join(clientmode.FaultNames(), ", "))
		return reports.ExitHarness
	}
	if *fault != "" && *command != "" {
		fmt.Fprintln(stderr, "nipcl-conform client: --client-fault breaks the built-in client; pass faults to your adapter instead of combining it with --client-cmd")
		return reports.ExitHarness
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "nipcl-conform client: --timeout must be positive")
		return reports.ExitHarness
	}
	var cases []clientmode.Case
	for _, c := range clientmode.Selected(*profile) {
		if len(only) == 0 || slices.Contains(only, c.ID) {
			cases = append(cases, c)
		}
	}
	for _, id := range only {
		if _, ok := clientmode.Lookup(id); !ok {
			fmt.Fprintf(stderr, "nipcl-conform client: unknown case %q (see client --list)\n", id)
			return reports.ExitHarness
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b := version.Get()
	res := &reports.Results{Tool: "nipcl-conform", Version: b.Version, Commit: b.Commit, Modified: b.Modified,
		RunID: runner.NewRunID(), Started: time.Now().UTC(),
		Settings: map[string]string{"mode": "client", "profile": clientOr(*profile, strings.Join(clientmode.Profiles, ",")), "timeout": timeout.String()}}
	if *repeat > 1 {
		res.Settings["repeat"] = fmt.Sprint(*repeat)
	}
	client := "built-in reference client"
	if *command != "" {
		client = *command
		res.Settings["client_cmd"] = *command
	} else if *fault != "" {
		client += " with fault " + *fault
		res.Settings["client_fault"] = *fault
	}
	for _, s := range version.Specs() {
		if s.Current {
			res.Specs = append(res.Specs, reports.SpecRevision{Profile: s.Profile, Name: s.Name, Revision: s.Revision, Date: s.Date})
		}
	}
	res.Catalogue = clientmode.Fingerprint()
	for _, p := range clientmode.Profiles {
		if *profile == "" || *profile == p {
			res.Plans = append(res.Plans, reports.PlanResult{Name: clientmode.PlanName(p), Target: client, Profile: p,
				Note: "client mode: the harness plays a scripted relay on 127.0.0.1 and judges the client"})
		}
	}
	o := clientmode.Options{Profile: *profile, Command: *command, Fault: *fault, Timeout: *timeout, Wait: *wait, Repeat: *repeat, Parallel: *parallel, IgnoreLimit: *noLimit}
	res.Settings["parallel"] = fmt.Sprint(*parallel)
	if *noLimit {
		res.Settings["relay_ignores_limit"] = "true"
	}
	res.Cases = clientmode.RunCases(ctx, cases, o, func(r reports.CaseResult) {
		fmt.Fprintf(stdout, "%-13s %-45s %s\n", r.Outcome, r.ID, r.Clauses[0])
		if r.Outcome != reports.Pass && r.Message != "" {
			fmt.Fprintf(stdout, "              %s\n", r.Message)
		}
	})
	if ctx.Err() != nil {
		res.Interrupted = "interrupted"
	}
	res.Finished = time.Now().UTC()
	res.Sort()
	werr := errors.Join(
		reports.WriteFile(filepath.Join(*reportDir, "junit.xml"), res, reports.WriteJUnit),
		reports.WriteFile(filepath.Join(*reportDir, "results.json"), res, reports.WriteJSON),
		reports.WriteFile(filepath.Join(*reportDir, "summary.md"), res, reports.WriteMarkdown),
		reports.WriteFile(filepath.Join(*reportDir, "report.html"), res, reports.HTMLWriter(reports.HTMLOptions{Coverage: clientmode.Coverage(*profile, res.Cases)})),
		reports.WriteFile(filepath.Join(*reportDir, "badge.svg"), res, reports.WriteBadge),
	)
	counts := res.Counts()
	fmt.Fprintf(stdout, "\n%d cases: %d pass, %d fail, %d unsupported, %d timeout, %d harness-error; reports in %s\n",
		len(res.Cases), counts[reports.Pass], counts[reports.Fail], counts[reports.Unsupported], counts[reports.Timeout], counts[reports.HarnessError], *reportDir)
	if werr != nil {
		fmt.Fprintln(stderr, "nipcl-conform client:", werr)
		return reports.ExitHarness
	}
	return res.ExitCode(*strict)
}

func clientOr(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
