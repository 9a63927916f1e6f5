package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var profiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "run [flags]", stderr)
	var (
		target      = fs.String("target", "", "WebSocket URL (ws:// or wss://) of the relay to test; default: the built-in reference relay")
		profile     = fs.String("profile", "", "profile to check: nip29 (NIP-29 only; \"none\" is its old name), identity, labels or auto; a comma-separated list for the reference relay or an image, e.g. identity,labels (default: every profile for the reference relay, auto for --target)")
		relayPubKey = fs.String("relay-pubkey", "", "relay key (hex) when its NIP-11 document lacks \"self\"")
		relayURL    = fs.String("relay-url", "", "the URL the relay knows itself by, signed into NIP-42 AUTH relay tags, when --target reaches it another way (a tunnel or port forward to wss://relay.example.com); default the --target URL (behind --simulate-rtt: the relay's own, not the proxy's)")
		timeout     = fs.Duration("timeout", 10*time.Second, "deadline for each network step")
		deadline    = fs.Duration("deadline", 5*time.Minute, "deadline for the whole run")
		reportDir   = fs.String("report-dir", "nipcl-report", "directory for the reports (junit.xml, results.json, summary.md)")
		junit       = fs.String("junit", "", "JUnit XML path (default <report-dir>/junit.xml)")
		scale       = fs.Int("scale", 200, "distractor count for limit-ordering cases")
		strict      = fs.Bool("strict", false, "also fail the run on SHOULD cases")
		force       = fs.Bool("force", false, "run NIP-CL cases even if the relay does not advertise nip-cl")
		db          = fs.String("db", "", "SQLite file for the built-in reference relay (default in-memory)")
		image       = fs.String("image", "", "run against a local container image NAME[:TAG] (needs a Docker engine)")
		dockerfile  = fs.String("dockerfile", "", "build the image from this directory's Dockerfile first, then run against it")
		ctrPort     = fs.String("container-port", "7447/tcp", "the relay's port inside the container (bridge network)")
		ctrPath     = fs.String("path", "/", "WebSocket path of the relay in the container")
		network     = fs.String("network", "host", "container network: \"host\" (loopback port, works without a bridge) or \"bridge\"")
		safe        = fs.Bool("safe", false, "safe mode for live relays: delete every channel the run creates, pace writes (--rate), retry rate-limited answers, skip write-heavy cases")
		rate        = fs.Float64("rate", 0, "writes per second (default unlimited; 5 in --safe mode)")
		allowHeavy  = fs.Bool("allow-heavy", false, "in --safe mode, still run cases that need many writes")
		slow        = fs.Bool("slow", false, "also run slow cases that wait on the relay's clock (e.g. the ±900 s retry window)")
		parallel    = fs.Int("parallel", 0, "run the cases in N worker processes that take them from one queue, longest first, and merge their reports (default from the measured round trip: 1 under 2 ms, 24 from 2 ms, 32 from 100 ms, for every target but the built-in in-process relay; 1 forces one process)")
		shard       = fs.String("shard", "", "run only shard i of N (i/N, 1-based), a stable subset; merge with `report merge`")
		runID       = fs.String("run-id", "", "run identifier (namespaces channels and labels; shards of one run share it)")
		seed        = fs.Int64("seed", 0, "run the cases in a random order drawn from this seed (0: the fixed catalogue order); the report records it")
		simRTT      = fs.Duration("simulate-rtt", 0, "put a delay proxy with this round trip (e.g. 50ms) in front of the relay, to see a run as it would go across a network (ws:// targets)")
		baseline    = fs.String("baseline", "", "file of expected failures (one case ID, or \"PLAN ID\", per line); they don't fail the run")
		actorKeys   listFlag
		hosts       listFlag
		headers     listFlag
		faults      listFlag
		focus       listFlag
		skip        listFlag
		envs        listFlag
		roleMap     listFlag
		readingArgs listFlag
		policies    listFlag
		admitKeys   listFlag
		creatorKeys listFlag
	)
	labelFilter := fs.String("label-filter", "", "select cases by their Ginkgo labels: profile (nip29, identity, labels), level (MUST, SHOULD, MAY), source (nip, draft, contract), area:X, section:X.Y, slow, heavy; e.g. 'labels && MUST && !slow'")
	fs.Var(&roleMap, "role-map", "WORD=ROLE: the relay's role name for the harness's role word admin, owner or member (repeatable; default: learned from the creator's 39001 entry)")
	fs.Var(&actorKeys, "actor-key", "[ROLE=]HEX: a secret key the suites may act with (repeatable); ROLE creator (may create groups) or unprivileged (may not moderate groups it does not administer) says which is which; every key is probed before the cases either way")
	fs.Var(&policies, "policy", "run the built-in reference relay under this relay policy switch (repeatable; see `nipcl-conform faults`)")
	fs.Var(&creatorKeys, "creator-key", "public key (hex) that may create groups on the built-in reference relay under --policy listed-creators (repeatable)")
	fs.Var(&admitKeys, "admit-key", "public key (hex) the built-in reference relay admits under --policy listed-keys-only (repeatable; the --actor-key keys are admitted too)")
	fs.Var(&headers, "header", "'Name: value': an HTTP header sent on the NIP-11 request and every WebSocket upgrade (repeatable; a proxy's credentials); reports and repro commands show only its name")
	fs.Var(&hosts, "host", "another Host header value that names a second community of the same relay (repeatable)")
	fs.Var(&faults, "fault", "break the built-in reference relay with this fault switch (repeatable; see `nipcl-conform faults`)")
	fs.Var(&readingArgs, "reading", "ID=VALUE: the built-in reference relay takes this careful reading of a point the specs leave open (repeatable; see `nipcl-conform list --readings`)")
	fs.Var(&focus, "focus", "run only cases whose ID, area or section matches (repeatable; a trailing * or / matches a prefix)")
	fs.Var(&skip, "skip", "skip cases whose ID, area or section matches (repeatable)")
	fs.Var(&envs, "env", "K=V environment variable for the container (repeatable)")
	if code, done := parse(fs, args); done {
		return code
	}
	if *timeout <= 0 || *deadline <= 0 {
		return usageError(stderr, "--timeout and --deadline must be positive durations")
	}
	if *network != "host" && *network != "bridge" {
		return usageError(stderr, "--network must be host or bridge, not %q", *network)
	}
	if *profile != "" && *profile != "auto" {
		var ps []string
		for _, name := range strings.Split(*profile, ",") {
			p, err := framework.ParseProfile(strings.TrimSpace(name))
			if err != nil {
				return usageError(stderr, "--profile: %v (or auto)", err)
			}
			if !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
		*profile = strings.Join(ps, ",")
	}
	if strings.Contains(*profile, ",") && *target != "" {
		return usageError(stderr, "--profile: a --target relay is checked against one profile, got %q", *profile)
	}
	if *labelFilter != "" {
		if _, err := types.ParseLabelFilter(*labelFilter); err != nil {
			return usageError(stderr, "--label-filter %q: %s", *labelFilter, ansi.ReplaceAllString(firstLine(err.Error()), ""))
		}
	}
	if *runID != "" && !runner.ValidRunID(*runID) {
		return usageError(stderr, "--run-id %q: want 1-16 lowercase letters, digits or '-' (it becomes part of every label the run creates)", *runID)
	}
	header, err := fixtures.ParseHeaders(headers)
	if err != nil {
		return usageError(stderr, "--header: %v", err)
	}
	var sh runner.Shard
	if *shard != "" {
		var err error
		if sh, err = parseShard(*shard); err != nil {
			return usageError(stderr, "%v", err)
		}
	}
	if *parallel < 0 || (*parallel > 1 && *shard != "") {
		return usageError(stderr, "--parallel must be at least 1 and cannot be combined with --shard")
	}
	if *shard != "" {
		*parallel = 1
	}
	worker, err := workerFromEnv()
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if *rate < 0 {
		return usageError(stderr, "--rate must not be negative")
	}
	if *safe && *rate == 0 {
		*rate = 5
	}
	if *scale < 1 {
		return usageError(stderr, "--scale must be at least 1")
	}
	sources := 0
	for _, s := range []string{*target, *image, *dockerfile} {
		if s != "" {
			sources++
		}
	}
	if sources > 1 {
		return usageError(stderr, "--target, --image and --dockerfile are mutually exclusive")
	}
	if len(faults) > 0 && sources > 0 {
		return usageError(stderr, "--fault applies to the built-in reference relay only")
	}
	if err := validFaults(faults); err != nil {
		return usageError(stderr, "%v", err)
	}
	if (len(policies) > 0 || len(admitKeys) > 0 || len(creatorKeys) > 0) && sources > 0 {
		return usageError(stderr, "--policy, --admit-key and --creator-key apply to the built-in reference relay only")
	}
	creators, err := admittedKeys(creatorKeys, nil)
	if err != nil {
		return usageError(stderr, "--creator-key: %v", err)
	}
	if err := validPolicies(policies); err != nil {
		return usageError(stderr, "%v", err)
	}
	admitted, err := admittedKeys(admitKeys, actorKeys)
	if err != nil {
		return usageError(stderr, "--admit-key: %v", err)
	}
	if len(readingArgs) > 0 && sources > 0 {
		return usageError(stderr, "--reading applies to the built-in reference relay only")
	}
	readings, err := parseReadings(readingArgs, profilesFor(*profile))
	if err != nil {
		return usageError(stderr, "--reading: %v", err)
	}
	envMap := map[string]string{}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageError(stderr, "--env wants K=V, got %q", kv)
		}
		envMap[k] = v
	}

	roles := map[string]string{}
	for _, kv := range roleMap {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || (k != "admin" && k != "owner" && k != "member") {
			return usageError(stderr, "--role-map wants admin=ROLE, owner=ROLE or member=ROLE, got %q", kv)
		}
		roles[k] = v
	}

	var base *reports.Baseline
	if *baseline != "" {
		b, err := reports.LoadBaseline(*baseline)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		base = b
	}

	var plans []runner.Plan
	switch {
	case worker != nil:
		plans = worker.plans()
	case *target != "":
		u, err := url.Parse(*target)
		if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return usageError(stderr, "--target must be a ws:// or wss:// URL, got %q", *target)
		}
		p := *profile
		if p == "" {
			p = "auto"
		}
		plans = append(plans, runner.Plan{Name: p, Target: &runner.URLTarget{URL: *target}, Profile: p})
	case *image != "" || *dockerfile != "":
		dctx, dcancel := context.WithTimeout(context.Background(), *timeout)
		err := runner.DockerAvailable(dctx)
		dcancel()
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
			return reports.ExitHarness
		}
		var stage map[string]string
		if *dockerfile != "" {
			files, cleanup, err := stageBinary(context.Background(), *dockerfile)
			if err != nil {
				fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
				return reports.ExitHarness
			}
			defer cleanup()
			stage = files
		}
		netMode := *network
		if netMode == "bridge" {
			netMode = ""
		}
		for _, p := range profilesFor(*profile) {
			ct := &runner.ContainerTarget{Image: *image, Dockerfile: *dockerfile, StageFiles: stage, Env: copyEnv(envMap, p),
				ContainerPort: *ctrPort, Path: *ctrPath, Network: netMode}
			plans = append(plans, runner.Plan{Name: p, Target: ct, Profile: p})
		}
	default:
		for _, p := range profilesFor(*profile) {
			cfg := reference.Config{Profile: p, Faults: faults, DBPath: *db, Readings: readingsFor(readings, p), Policies: policies, AdmittedKeys: admitted, CreatorKeys: creators}
			plans = append(plans, runner.Plan{Name: p, Target: &runner.ReferenceTarget{Config: cfg}, Profile: p})
		}
	}

	if *simRTT < 0 {
		return usageError(stderr, "--simulate-rtt must not be negative, got %s", *simRTT)
	}
	if *simRTT > 0 && worker == nil {
		if strings.HasPrefix(*target, "wss://") {
			return usageError(stderr, "--simulate-rtt works on ws:// targets only (the proxy does not speak TLS)")
		}
		for i := range plans {
			plans[i].Target = &runner.DelayedTarget{Inner: plans[i].Target, RTT: *simRTT}
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	var claim func(plan, caseID string) bool
	var caseDone func(plan, caseID string, failed bool)
	if worker != nil {
		claim, caseDone = worker.claimer(), worker.doneReporter()
	} else if *parallel > 1 || (*parallel == 0 && !onThisMachine(plans)) {
		// The relays are started once, here; the workers (or this
		// process, when one is enough) share them.
		startedPlans, err := startPlans(ctx, plans, *timeout)
		defer stopPlans(plans)
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
			return reports.ExitHarness
		}
		n := *parallel
		if n == 0 {
			var why string
			if n, why = autoParallel(ctx, startedPlans, *timeout); why != "" {
				fmt.Fprintf(stderr, "nipcl-conform: --parallel %d (%s)\n", n, why)
			}
		}
		if n > 1 {
			id := *runID
			if id == "" {
				id = runner.NewRunID()
			}
			pr := &parallelRun{fs: fs, n: n, reportDir: *reportDir, junitPath: *junit, runID: id, deadline: *deadline, stderr: stderr}
			if isTerminal(stdout) {
				pr.progress = stdout
			}
			res, err := pr.run(ctx, startedPlans)
			return conclude(res, err, *strict, started, stdout, stderr)
		}
		shared := (&workerSpec{Plans: startedPlans}).plans()
		for i := range shared {
			shared[i].Target.(*runner.StartedTarget).Origin = plans[i].Target
		}
		plans = shared
	}
	res, err := runner.Run(ctx, runner.Options{
		Plans: plans, RelayPubKey: *relayPubKey, RelayURL: *relayURL, ActorKeys: actorKeys, Hosts: hosts, Header: header,
		StepTimeout: *timeout, Deadline: *deadline, ReportDir: *reportDir, JUnitPath: *junit,
		Force: *force, Focus: focus, Skip: skip, Scale: *scale, Out: stdout, Baseline: base,
		Safe: *safe, Rate: *rate, AllowHeavy: *allowHeavy, Slow: *slow, Progress: isTerminal(stdout),
		Shard: sh, RunID: *runID, RoleMap: roles, LabelFilter: *labelFilter, Claim: claim, CaseDone: caseDone, Seed: *seed,
	})
	if worker != nil {
		// A worker's results go to its parent, which prints the summary.
		stdout = io.Discard
	}
	return conclude(res, err, *strict, started, stdout, stderr)
}

// conclude prints a run's summary and what follows it (baseline entries
// now fixed, plan setup errors and notes) and returns the exit code; err
// is the run's (no results) or the reports' (results not all written).
func conclude(res *reports.Results, err error, strict bool, started time.Time, stdout, stderr io.Writer) int {
	if res == nil {
		fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
		return reports.ExitHarness
	}
	printSummary(stdout, res, time.Since(started))
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform: writing reports: %v\n", err)
		return reports.ExitHarness
	}
	code := res.ExitCode(strict)
	for _, c := range res.Cases {
		if c.Baseline == reports.BaselineFixed {
			fmt.Fprintf(stdout, "fixed, remove from baseline: %s %s\n", c.Plan, c.ID)
		}
	}
	for _, p := range res.Plans {
		if p.SetupError != "" {
			fmt.Fprintf(stderr, "nipcl-conform: %s: %s\n", p.Name, p.SetupError)
		} else if p.Note != "" {
			fmt.Fprintf(stderr, "nipcl-conform: %s: %s\n", p.Name, p.Note)
			if strings.Contains(p.Note, "does not advertise") && code == reports.ExitOK {
				code = reports.ExitFailed
			}
		}
	}
	return code
}

// onThisMachine reports whether every plan's relay is the built-in
// reference relay in this process, with no simulated latency: round trips
// cost nothing there and CPU is the budget, so one process is the fastest
// way. Every other target is measured (autoParallel): a loopback URL may
// be a tunnel or port forward to a relay far away, and a container engine
// may run on another machine; the link, not the address, decides.
func onThisMachine(plans []runner.Plan) bool {
	for _, p := range plans {
		if _, ok := p.Target.(*runner.ReferenceTarget); !ok {
			return false
		}
	}
	return true
}

// isTerminal reports whether w is a character device (a live terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// profilesFor lists the profiles of a --profile value: every profile
// when empty or auto, else the comma-separated names (already checked).
func profilesFor(p string) []string {
	if p == "" || p == "auto" {
		return profiles
	}
	return strings.Split(p, ",")
}

func copyEnv(m map[string]string, profile string) map[string]string {
	out := map[string]string{"NIPCL_PROFILE": profile}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validPolicies checks --policy names against the reference relay's catalogue.
func validPolicies(names []string) error {
	known := map[string]bool{}
	for _, p := range reference.Policies() {
		known[p.Name] = true
	}
	for _, n := range names {
		if !known[n] {
			return fmt.Errorf("unknown policy %q (see `nipcl-conform faults`)", n)
		}
	}
	return nil
}

// admittedKeys is what listed-keys-only admits: every --admit-key public
// key and the public key of every --actor-key ([ROLE=]HEX).
func admittedKeys(admit, actorKeys []string) ([]string, error) {
	out := make([]string, 0, len(admit)+len(actorKeys))
	for _, k := range admit {
		if len(k) != 64 || strings.Trim(k, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("want a 64-hex public key, got %q", k)
		}
		out = append(out, k)
	}
	for _, k := range actorKeys {
		if _, h, ok := strings.Cut(k, "="); ok {
			k = h
		}
		if a, err := fixtures.ActorFromKey("", k); err == nil {
			out = append(out, a.PubKey)
		}
	}
	return out, nil
}

func validFaults(names []string) error {
	known := map[string]bool{}
	for _, f := range reference.Faults() {
		known[f.Name] = true
	}
	for _, n := range names {
		if !known[n] {
			return errors.New("unknown fault " + fmt.Sprintf("%q", n) + " (see `nipcl-conform faults`)")
		}
	}
	return nil
}

// parseReadings reads --reading ID=VALUE flags, checks them against the
// readings catalogue and requires each to apply to at least one of the
// profiles that will run (a reading of one profile is passed to that
// profile's relay only; see readingsFor).
func parseReadings(args []string, profiles []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		id, v, err := clause.ParseReading(a)
		if err != nil {
			return nil, fmt.Errorf("%v (see `nipcl-conform list --readings`)", err)
		}
		if prev, dup := out[id]; dup && prev != v {
			return nil, fmt.Errorf("reading %s given twice (%s and %s)", id, prev, v)
		}
		rd, _ := clause.LookupReading(id)
		applies := false
		for _, p := range profiles {
			applies = applies || rd.AppliesTo(p)
		}
		if !applies {
			return nil, fmt.Errorf("reading %s applies only to profile %s, which is not run (--profile %s)", id, rd.Profile, strings.Join(profiles, ","))
		}
		out[id] = v
	}
	return out, nil
}

// readingsFor returns the readings that apply to a relay of profile p.
func readingsFor(readings map[string]string, p string) map[string]string {
	out := map[string]string{}
	for id, v := range readings {
		if rd, _ := clause.LookupReading(id); rd.AppliesTo(p) {
			out[id] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func printSummary(w io.Writer, res *reports.Results, took time.Duration) {
	counts := res.Counts()
	fmt.Fprintf(w, "\n%-14s %s\n", "outcome", "cases")
	for _, o := range reports.Outcomes {
		if counts[o] > 0 {
			fmt.Fprintf(w, "%-14s %d\n", o, counts[o])
		}
	}
	var bad []reports.CaseResult
	notRun := map[string]int{}
	for _, c := range res.Cases {
		if strings.HasPrefix(c.Message, "not run: setup") {
			notRun[c.Plan]++
			continue
		}
		if c.Outcome == reports.Fail || c.Outcome == reports.Timeout || c.Outcome == reports.HarnessError {
			bad = append(bad, c)
		}
	}
	for _, p := range res.Plans {
		if n := notRun[p.Name]; n > 0 {
			fmt.Fprintf(w, "\n%s: %d cases not run: setup failed: %s\n", p.Name, n, p.SetupError)
		}
	}
	if causes := res.Causes(); len(causes) > 0 {
		n := 0
		for _, k := range causes {
			n += len(k.Cases)
		}
		fmt.Fprintf(w, "\n%d root cause(s) explain %d cases that did not pass (most cases first):\n", len(causes), n)
		for i, k := range causes {
			if i == 10 {
				fmt.Fprintf(w, "  … %d more in summary.md and report.html\n", len(causes)-10)
				break
			}
			fmt.Fprintf(w, "  %2d. %d × %s [%s] %s\n      cases: %s\n      learn more: %s\n", i+1, len(k.Cases), k.Outcome, k.Level,
				firstLine(strings.TrimPrefix(k.Example, "incompatible: ")), causeCases(k.Cases), k.Explain)
		}
	}
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].ID < bad[j].ID })
	if len(bad) > 0 && len(bad) <= 12 {
		fmt.Fprintln(w, "\nnot passing:")
		for _, c := range bad {
			fmt.Fprintf(w, "  %-13s %-22s %s [%s %s] %s\n", c.Outcome, c.ID, c.Plan, c.Level, c.Section, firstLine(c.Message))
		}
	}
	fmt.Fprintf(w, "\n%d cases in %s; reports in %s\n", len(res.Cases), took.Round(time.Millisecond), reportDirOf(res))
	for _, p := range res.Plans {
		if p.Cleanup != nil {
			fmt.Fprintf(w, "safe mode (%s): deleted %d channels", p.Name, p.Cleanup.Deleted)
			if len(p.Cleanup.Failed) > 0 {
				fmt.Fprintf(w, "; could NOT delete %d:\n  %s", len(p.Cleanup.Failed), strings.Join(p.Cleanup.Failed, "\n  "))
			}
			fmt.Fprintln(w)
		}
	}
	if res.Interrupted != "" {
		fmt.Fprintln(w, res.Interrupted)
	}
}

func reportDirOf(*reports.Results) string {
	return "the report directory (junit.xml, results.json, summary.md)"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// causeCases names up to five of a cause's cases.
func causeCases(ids []string) string {
	if len(ids) <= 5 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:5], ", ") + fmt.Sprintf(" and %d more", len(ids)-5)
}

// ansi matches terminal colour codes (Ginkgo colours its parse errors).
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")
