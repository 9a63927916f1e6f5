package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/internal/trust"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var profiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

// cmdRun is `nipcl-conform run`: it reads and checks the flags, resolves
// the targets into plans, puts a delay proxy in front of them when asked,
// and executes the plans (in this process, or in worker processes sharing
// one case queue), then prints the summary and returns the exit code.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "run [flags]", stderr)
	f := defineRunFlags(fs)
	if code, done := parse(fs, args); done {
		return code
	}
	s, err := f.settle()
	if err != nil {
		return stopRun(stderr, err)
	}
	if s.worker == nil {
		// Before any relay starts: a run whose reports cannot be written,
		// or would mix with another run's, does not begin.
		release, note, err := runner.ClaimReportDir(*f.reportDir, *f.junit)
		defer release()
		if err != nil {
			return stopRun(stderr, err)
		}
		if note != "" {
			fmt.Fprintln(stdout, note)
		}
	}
	plans, cleanup, err := f.resolvePlans(s)
	defer cleanup()
	if err != nil {
		return stopRun(stderr, err)
	}
	if plans, err = f.simulateRTT(plans, s.worker); err != nil {
		return stopRun(stderr, err)
	}
	return f.execute(fs, s, plans, stdout, stderr)
}

// runFlags are run's flags, as the flag set fills them in.
type runFlags struct {
	target, profile, relayPubKey, relayURL  *string
	timeout, deadline                       *time.Duration
	reportDir, junit                        *string
	scale                                   *int
	strict, force                           *bool
	db, image, dockerfile, ctrPort, ctrPath *string
	network                                 *string
	safe                                    *bool
	rate                                    *float64
	allowHeavy, slow                        *bool
	parallel, pow                           *int
	shard, runID                            *string
	seed                                    *int64
	simRTT                                  *time.Duration
	baseline, labelFilter, hostHeader       *string
	actorKeys, hosts, headers, faults       listFlag
	focus, skip, envs, roleMap, readingArgs listFlag
	policies, admitKeys, creatorKeys        listFlag
	variants                                listFlag
	lawful                                  *string
	commandTags, hostKeys, caCerts          listFlag
}

// defineRunFlags declares run's flags on fs (their names, defaults and
// help text are what `nipcl-conform help run` prints).
func defineRunFlags(fs *flag.FlagSet) *runFlags {
	f := &runFlags{
		target:      fs.String("target", "", "WebSocket URL (ws:// or wss://) of the relay to test; default: the built-in reference relay"),
		profile:     fs.String("profile", "", "profile to check: nip29 (NIP-29 only; \"none\" is its old name), identity, labels or auto; a comma-separated list for the reference relay or an image, e.g. identity,labels (default: every profile for the reference relay, auto for --target)"),
		relayPubKey: fs.String("relay-pubkey", "", "relay key (hex) when its NIP-11 document lacks \"self\""),
		pow:         fs.Int("pow", 0, "N: mine a NIP-13 nonce tag of difficulty N on every event the harness signs, for a relay that requires proof of work (0: only what the relay publishes in NIP-11 limitation.min_pow_difficulty, up to 16); each bit doubles the signing cost"),
		relayURL:    fs.String("relay-url", "", "the URL the relay knows itself by, signed into NIP-42 AUTH relay tags, when --target reaches it another way (a tunnel or port forward to wss://relay.example.com); default the --target URL (behind --simulate-rtt: the relay's own, not the proxy's)"),
		timeout:     fs.Duration("timeout", 10*time.Second, "deadline for each network step"),
		deadline:    fs.Duration("deadline", 0, "deadline for the whole run (default: derived from the plan — its cases at the measured round trip, plus --rate pacing, with a margin — and printed at start)"),
		reportDir:   fs.String("report-dir", "nipcl-report", "directory for the reports (junit.xml, results.json, summary.md)"),
		junit:       fs.String("junit", "", "JUnit XML path (default <report-dir>/junit.xml)"),
		scale:       fs.Int("scale", 200, "distractor count for limit-ordering cases"),
		strict:      fs.Bool("strict", false, "also fail the run on SHOULD cases"),
		force:       fs.Bool("force", false, "run NIP-CL cases even if the relay does not advertise nip-cl"),
		db:          fs.String("db", "", "SQLite file for the built-in reference relay (default in-memory)"),
		image:       fs.String("image", "", "run against a local container image NAME[:TAG] (needs a Docker engine)"),
		dockerfile:  fs.String("dockerfile", "", "build the image from this directory's Dockerfile first, then run against it"),
		ctrPort:     fs.String("container-port", "7447/tcp", "the relay's port inside the container (bridge network)"),
		ctrPath:     fs.String("path", "/", "WebSocket path of the relay in the container"),
		network:     fs.String("network", "host", "container network: \"host\" (loopback port, works without a bridge) or \"bridge\""),
		safe:        fs.Bool("safe", false, "safe mode for live relays: delete every channel the run creates, pace writes (--rate), retry rate-limited answers, skip write-heavy cases"),
		rate:        fs.Float64("rate", 0, "writes per second (default unlimited; 5 in --safe mode)"),
		allowHeavy:  fs.Bool("allow-heavy", false, "in --safe mode, still run cases that need many writes"),
		slow:        fs.Bool("slow", false, "also run slow cases that wait on the relay's clock (e.g. the ±900 s retry window)"),
		parallel:    fs.Int("parallel", 0, "run the cases in N worker processes that take them from one queue, longest first, and merge their reports (default: for the built-in reference relay twice the cores, at most 4, or 1 when paced by --rate or --safe; for any other target from the measured round trip: 1 under 2 ms, 24 from 2 ms, 32 from 100 ms; 1 forces one process)"),
		shard:       fs.String("shard", "", "i/N: run only shard i of N (1-based), a stable subset; merge with `report merge`"),
		runID:       fs.String("run-id", "", "run identifier (namespaces channels and labels; shards of one run share it)"),
		seed:        fs.Int64("seed", 0, "run the cases in a random order drawn from this seed (0: the fixed catalogue order); the report records it"),
		simRTT:      fs.Duration("simulate-rtt", 0, "put a delay proxy with this round trip (e.g. 50ms) in front of the relay, to see a run as it would go across a network (ws:// targets)"),
		baseline:    fs.String("baseline", "", "FILE: expected failures (one case ID, or \"PLAN ID\", per line); they don't fail the run and are reported as known failures"),
	}
	f.hostHeader = fs.String("host-header", "", "HOST: the Host header naming the relay's main community on every request, for a --target reached through a tunnel or port forward (ssh -L, kubectl port-forward) to a relay that routes by Host; ws:// targets (a local proxy sets it). --simulate-rtt already sends the relay's own host")
	f.labelFilter = fs.String("label-filter", "", "select cases by their Ginkgo labels: profile (nip29, identity, labels), level (MUST, SHOULD, MAY), source (nip, draft, contract), area:X, section:X.Y, slow, heavy; e.g. 'labels && MUST && !slow'")
	fs.Var(&f.roleMap, "role-map", "WORD=ROLE: the relay's role name for the harness's role word admin, owner or member (repeatable, or comma-separated pairs; default: learned from the creator's 39001 entry)")
	fs.Var(&f.actorKeys, "actor-key", "[ROLE=]HEX: a secret key the suites may act with (repeatable); ROLE creator (may create groups) or unprivileged (may not moderate groups it does not administer) says which is which; every key is probed before the cases either way")
	fs.Var(&f.variants, "variant", "NAME: run the built-in reference relay under this lawful variant (repeatable or comma-separated; see `nipcl-conform faults`)")
	f.lawful = fs.String("lawful", "", "SEED: run the built-in reference relay under a random lawful combination of variants drawn from SEED for each profile (printed in the plan name)")
	fs.Var(&f.policies, "policy", "NAME: run the built-in reference relay under this relay policy switch (repeatable; see `nipcl-conform faults`)")
	fs.Var(&f.creatorKeys, "creator-key", "PUBHEX: a public key that may create groups on the built-in reference relay under --policy listed-creators (repeatable)")
	fs.Var(&f.admitKeys, "admit-key", "PUBHEX: a public key the built-in reference relay admits under --policy listed-keys-only (repeatable; the --actor-key keys are admitted too)")
	fs.Var(&f.headers, "header", "'Name: value': an HTTP header sent on the NIP-11 request and every WebSocket upgrade (repeatable; a proxy's credentials); reports and repro commands show only its name")
	fs.Var(&f.commandTags, "command-tag", "K=V: a tag [\"K\",\"V\"] added to every group command (kinds 9000-9022) the harness signs, for a deployment that requires tags of its own (repeatable; outside NIP-29 and NIP-CL)")
	fs.Var(&f.caCerts, "ca-cert", "FILE: also trust the CA certificate(s) in this PEM file for wss:// targets (repeatable; a relay behind a TLS proxy with a private CA or a self-signed certificate); the system roots, or SSL_CERT_FILE / SSL_CERT_DIR, stay trusted")
	fs.Var(&f.hosts, "host", "H: another Host header value that names a second community of the same relay (repeatable)")
	fs.Var(&f.hostKeys, "host-key", "HOST=HEX: the secret key the harness signs with in the community HOST names (a --host value, or its host name without the port), for a deployment whose communities admit different keys (repeatable; without it the first community's keys are used there)")
	fs.Var(&f.faults, "fault", "NAME: break the built-in reference relay with this fault switch (repeatable; see `nipcl-conform faults`)")
	fs.Var(&f.readingArgs, "reading", "ID=VALUE: the built-in reference relay takes this careful reading of a point the specs leave open (repeatable; see `nipcl-conform list --readings`)")
	fs.Var(&f.focus, "focus", "X: run only cases whose ID, area or section matches X (repeatable; a trailing * or / matches a prefix)")
	fs.Var(&f.skip, "skip", "X: skip cases whose ID, area or section matches X (repeatable)")
	fs.Var(&f.envs, "env", "K=V: an environment variable for the container (repeatable)")
	return f
}

// runSettings are the values settle derives from the flags.
type runSettings struct {
	header      http.Header
	commandTags nostr.Tags
	shard       runner.Shard
	worker      *workerSpec // non-nil in a worker process of a parallel run
	// started is when the run began: its parent's start in a worker (an
	// explicit --deadline counts from it, runner.Options.Started).
	started  time.Time
	sources  int // how many of --target, --image, --dockerfile are given
	creators []string
	admitted []string
	readings map[string]string
	envMap   map[string]string
	roles    map[string]string
	base     *reports.Baseline
}

// usageErr is a bad flag: printed as "usage error: …", exit 2.
type usageErr struct{ msg string }

func (e usageErr) Error() string { return e.msg }

// usagef returns a usageErr with a formatted message.
func usagef(format string, args ...any) error {
	return usageErr{fmt.Sprintf(format, args...)}
}

// stopRun prints why a run could not start and returns its exit code: a
// usageErr as a usage error, anything else as a harness error.
func stopRun(stderr io.Writer, err error) int {
	var u usageErr
	if errors.As(err, &u) {
		return usageError(stderr, "%s", u.msg)
	}
	fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
	return reports.ExitHarness
}

// settle checks the flags in the order a user would fix them and derives
// what the later steps need; it normalises --profile, --rate (5 in safe
// mode) and --parallel (1 with --shard) in place.
func (f *runFlags) settle() (*runSettings, error) {
	if err := f.checkRunShape(); err != nil {
		return nil, err
	}
	s := &runSettings{}
	var err error
	if s.header, err = fixtures.ParseHeaders(f.headers); err != nil {
		return nil, usagef("--header: %v", err)
	}
	if err := trust.Install(f.caCerts); err != nil {
		return nil, usagef("%v", err)
	}
	if s.commandTags, err = fixtures.ParseCommandTags(f.commandTags); err != nil {
		return nil, usagef("--command-tag: %v", err)
	}
	if *f.pow < 0 || *f.pow > fixtures.MaxPoW {
		return nil, usagef("--pow: want a difficulty from 0 to %d bits, got %d", fixtures.MaxPoW, *f.pow)
	}
	if err := runner.CheckHostKeys(f.hostKeys); err != nil {
		return nil, usagef("%v", err)
	}
	if err := f.settleWorkers(s); err != nil {
		return nil, err
	}
	if err := f.settleSources(s); err != nil {
		return nil, err
	}
	if err := f.settleReferenceSwitches(s); err != nil {
		return nil, err
	}
	return s, f.settleMaps(s)
}

// checkRunShape checks the durations, the container network, --profile
// (normalised to the distinct profile names), --label-filter and --run-id.
func (f *runFlags) checkRunShape() error {
	if *f.timeout <= 0 || *f.deadline < 0 {
		return usagef("--timeout must be positive and --deadline not negative (0: derived from the plan)")
	}
	if *f.network != "host" && *f.network != "bridge" {
		return usagef("--network must be host or bridge, not %q", *f.network)
	}
	if *f.profile != "" && *f.profile != "auto" {
		var ps []string
		for _, name := range strings.Split(*f.profile, ",") {
			p, err := framework.ParseProfile(strings.TrimSpace(name))
			if err != nil {
				return usagef("--profile: %v (or auto)", err)
			}
			if !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
		*f.profile = strings.Join(ps, ",")
	}
	if strings.Contains(*f.profile, ",") && *f.target != "" {
		return usagef("--profile: a --target relay is checked against one profile, got %q", *f.profile)
	}
	if *f.labelFilter != "" {
		if _, err := types.ParseLabelFilter(*f.labelFilter); err != nil {
			return usagef("--label-filter %q: %s", *f.labelFilter, ansi.ReplaceAllString(summaryLine(err.Error()), ""))
		}
	}
	if err := runner.CheckSelection(f.focus, f.skip, *f.labelFilter); err != nil {
		return usagef("%v", err)
	}
	if err := runner.CheckProfileSelection(profilesFor(*f.profile), f.focus, f.skip, *f.labelFilter); err != nil {
		return usagef("%v", err)
	}
	if *f.runID != "" && !runner.ValidRunID(*f.runID) {
		return usagef("--run-id %q: want 1-16 lowercase letters, digits or '-' (it becomes part of every label the run creates)", *f.runID)
	}
	return nil
}

// settleWorkers checks --shard and --parallel, reads a worker process's
// share of a parallel run, and checks the pacing and scale flags.
func (f *runFlags) settleWorkers(s *runSettings) error {
	if *f.shard != "" {
		var err error
		if s.shard, err = parseShard(*f.shard); err != nil {
			return usagef("%v", err)
		}
	}
	if *f.parallel < 0 || (*f.parallel > 1 && *f.shard != "") {
		return usagef("--parallel must be at least 1 and cannot be combined with --shard")
	}
	if *f.shard != "" {
		*f.parallel = 1
	}
	var err error
	if s.worker, err = workerFromEnv(); err != nil {
		return usagef("%v", err)
	}
	if *f.rate < 0 {
		return usagef("--rate must not be negative")
	}
	if *f.safe && *f.rate == 0 {
		*f.rate = 5
	}
	if *f.scale < 1 {
		return usagef("--scale must be at least 1")
	}
	return nil
}

// settleSources checks that at most one of --target, --image and
// --dockerfile is given.
func (f *runFlags) settleSources(s *runSettings) error {
	for _, src := range []string{*f.target, *f.image, *f.dockerfile} {
		if src != "" {
			s.sources++
		}
	}
	if s.sources > 1 {
		return usagef("--target, --image and --dockerfile are mutually exclusive")
	}
	return nil
}

// settleReferenceSwitches checks the flags that configure the built-in
// reference relay (faults, policies and their keys, readings): known
// names, valid keys, and no other target.
func (f *runFlags) settleReferenceSwitches(s *runSettings) error {
	if len(f.faults) > 0 && s.sources > 0 {
		return usagef("--fault applies to the built-in reference relay only")
	}
	if err := validFaults(f.faults); err != nil {
		return usagef("%v", err)
	}
	if (len(f.variants) > 0 || *f.lawful != "") && s.sources > 0 {
		return usagef("--variant and --lawful apply to the built-in reference relay only")
	}
	if _, err := withLawful(f.variants, *f.lawful, "nip29"); err != nil {
		return usagef("%v", err)
	}
	if (len(f.policies) > 0 || len(f.admitKeys) > 0 || len(f.creatorKeys) > 0) && s.sources > 0 {
		return usagef("--policy, --admit-key and --creator-key apply to the built-in reference relay only")
	}
	var err error
	if s.creators, err = admittedKeys(f.creatorKeys, nil); err != nil {
		return usagef("--creator-key: %v", err)
	}
	if err := validPolicies(f.policies); err != nil {
		return usagef("%v", err)
	}
	if s.admitted, err = admittedKeys(f.admitKeys, f.actorKeys); err != nil {
		return usagef("--admit-key: %v", err)
	}
	if len(f.readingArgs) > 0 && s.sources > 0 {
		return usagef("--reading applies to the built-in reference relay only")
	}
	if s.readings, err = parseReadings(f.readingArgs, profilesFor(*f.profile)); err != nil {
		return usagef("--reading: %v", err)
	}
	return nil
}

// settleMaps reads the K=V flags (--env, --role-map) and the --baseline
// file.
func (f *runFlags) settleMaps(s *runSettings) error {
	s.envMap = map[string]string{}
	for _, kv := range f.envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--env wants K=V, got %q", kv)
		}
		s.envMap[k] = v
	}
	s.roles = map[string]string{}
	for _, arg := range f.roleMap {
		// One flag may carry several pairs, comma-separated
		// (admin=moderator,owner=king): a role name with a comma or an
		// equals sign is no role a relay would publish.
		for kv := range strings.SplitSeq(arg, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || (k != "admin" && k != "owner" && k != "member") || strings.Contains(v, "=") {
				return usagef("--role-map wants admin=ROLE, owner=ROLE or member=ROLE (repeat the flag or separate pairs with commas), got %q", arg)
			}
			if prev, dup := s.roles[k]; dup && prev != v {
				return usagef("--role-map names two roles for %s: %q and %q", k, prev, v)
			}
			s.roles[k] = v
		}
	}
	if *f.baseline != "" {
		b, err := reports.LoadBaseline(*f.baseline)
		if err != nil {
			return usagef("%v", err)
		}
		s.base = b
	}
	return nil
}

// resolvePlans turns the target flags into plans: a worker's share of a
// parallel run, a --target URL, a container image (built first from
// --dockerfile), or the built-in reference relay, one plan per profile for
// the last two. cleanup (never nil) removes what it staged.
func (f *runFlags) resolvePlans(s *runSettings) (plans []runner.Plan, cleanup func(), err error) {
	cleanup = func() {}
	switch {
	case s.worker != nil:
		return s.worker.plans(), cleanup, nil
	case *f.target != "":
		u, err := url.Parse(*f.target)
		if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return nil, cleanup, usagef("--target must be a ws:// or wss:// URL, got %q", *f.target)
		}
		p := *f.profile
		if p == "" {
			p = "auto"
		}
		return []runner.Plan{{Name: p, Target: &runner.URLTarget{URL: *f.target}, Profile: p}}, cleanup, nil
	case *f.image != "" || *f.dockerfile != "":
		return f.containerPlans(s)
	default:
		for _, p := range profilesFor(*f.profile) {
			variants, err := withLawful(f.variants, *f.lawful, p)
			if err != nil {
				return nil, cleanup, usagef("%v", err)
			}
			cfg := reference.Config{Profile: p, Faults: f.faults, DBPath: *f.db, Readings: readingsFor(s.readings, p), Policies: f.policies, AdmittedKeys: s.admitted, CreatorKeys: s.creators, Variants: variants}
			name := p
			if len(variants) > 0 {
				name = p + " variants=" + strings.Join(variants, ",")
			}
			plans = append(plans, runner.Plan{Name: name, Target: &runner.ReferenceTarget{Config: cfg}, Profile: p})
		}
		return plans, cleanup, nil
	}
}

// containerPlans checks that a Docker engine answers, stages the binary
// for --dockerfile, and returns one container plan per profile.
func (f *runFlags) containerPlans(s *runSettings) (plans []runner.Plan, cleanup func(), err error) {
	cleanup = func() {}
	dctx, dcancel := context.WithTimeout(context.Background(), *f.timeout)
	err = runner.DockerAvailable(dctx)
	dcancel()
	if err != nil {
		return nil, cleanup, err
	}
	var stage map[string]string
	if *f.dockerfile != "" {
		files, clean, err := stageBinary(context.Background(), *f.dockerfile)
		if err != nil {
			return nil, cleanup, err
		}
		cleanup = clean
		stage = files
	}
	netMode := *f.network
	if netMode == "bridge" {
		netMode = ""
	}
	for _, p := range profilesFor(*f.profile) {
		ct := &runner.ContainerTarget{Image: *f.image, Dockerfile: *f.dockerfile, StageFiles: stage, Env: copyEnv(s.envMap, p),
			ContainerPort: *f.ctrPort, Path: *f.ctrPath, Network: netMode}
		plans = append(plans, runner.Plan{Name: p, Target: ct, Profile: p})
	}
	return plans, cleanup, nil
}

// simulateRTT checks --simulate-rtt and, when set (and this is not a
// worker, whose parent already did), puts a delay proxy in front of every
// plan's target.
func (f *runFlags) simulateRTT(plans []runner.Plan, worker *workerSpec) ([]runner.Plan, error) {
	if *f.simRTT < 0 {
		return nil, usagef("--simulate-rtt must not be negative, got %s", *f.simRTT)
	}
	if (*f.simRTT > 0 || *f.hostHeader != "") && worker == nil {
		if strings.HasPrefix(*f.target, "wss://") {
			return nil, usagef("--simulate-rtt and --host-header work on ws:// targets only (their proxy does not speak TLS)")
		}
		for i := range plans {
			// The built-in relay under host-routing serves the --host-header
			// name as one of its own.
			if rt, ok := plans[i].Target.(*runner.ReferenceTarget); ok && *f.hostHeader != "" {
				rt.Config.RoutedHosts = append(rt.Config.RoutedHosts, *f.hostHeader)
			}
			plans[i].Target = &runner.DelayedTarget{Inner: plans[i].Target, RTT: *f.simRTT, Host: *f.hostHeader}
		}
	}
	return plans, nil
}

// execute runs the plans until done or interrupted (SIGINT, SIGTERM):
// in a worker, with the parent's case queue; with --parallel (or a
// measured round trip that calls for it), by starting the relays once
// and handing the cases to worker processes; otherwise in this process.
func (f *runFlags) execute(fs *flag.FlagSet, s *runSettings, plans []runner.Plan, stdout, stderr io.Writer) int {
	ctx, stop := stopContext()
	defer stop()
	started := time.Now()
	s.started = started
	if s.worker != nil && !s.worker.Started.IsZero() {
		s.started = s.worker.Started
	}
	var claim func(plan, caseID string) bool
	var caseDone func(plan, caseID string, failed bool)
	if s.worker != nil {
		claim, caseDone = s.worker.claimer(), s.worker.doneReporter()
	} else if *f.parallel > 1 || (*f.parallel == 0 && (!onThisMachine(plans) || *f.rate == 0)) {
		// The relays are started once, here; the workers (or this
		// process, when one is enough) share them.
		startedPlans, err := startPlans(ctx, plans, *f.timeout)
		defer stopPlans(plans)
		if err != nil {
			// A relay that did not start (a container that exits at once)
			// is every plan's setup error, written into the reports too.
			failed := make([]runner.Plan, len(plans))
			for i, p := range plans {
				failed[i] = p
				failed[i].Target = &runner.FailedTarget{Origin: p.Target, Err: err}
			}
			res, rerr := runner.Run(ctx, f.runnerOptions(s, failed, nil, nil, stdout))
			return conclude(res, rerr, *f.strict, started, *f.reportDir, stdout, stderr)
		}
		// The relays are probed once, here (NIP-11, the link, the
		// profile, the capability probe); every worker gets the findings
		// instead of probing each relay again, and so does this process
		// when it runs the cases itself. On a remote link the probe
		// starts once the round trip is measured, and its round trips
		// overlap the growth's baseline reads (autoParallel).
		if *f.runID == "" {
			*f.runID = runner.NewRunID()
		}
		var found []*runner.Findings
		var profiles []string
		probed := make(chan struct{})
		var probeOnce sync.Once
		probe := func() {
			probeOnce.Do(func() {
				go func() {
					defer close(probed)
					shared := (&workerSpec{Plans: startedPlans}).plans()
					found, profiles = runner.ProbePlans(ctx, f.runnerOptions(s, shared, nil, nil, io.Discard), *f.runID)
				}()
			})
		}
		n, grow := f.workerCount(ctx, plans, startedPlans, stderr, probe)
		defer grow.release()
		probe() // not started by the worker count (a relay on this machine, --parallel N): now
		<-probed
		for i := range startedPlans {
			startedPlans[i].Findings = found[i]
		}
		if n > 1 {
			// An auto profile is known now: a selection of none of the
			// detected profiles' cases is refused once, not per worker.
			if err := runner.CheckProfileSelection(profiles, f.focus, f.skip, *f.labelFilter); err != nil {
				fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
				return reports.ExitHarness
			}
			res, err := f.runParallel(ctx, fs, n, grow, startedPlans, started, stdout, stderr)
			if !errors.Is(err, errStoppedBeforeWorkers) {
				return conclude(res, err, *f.strict, started, *f.reportDir, stdout, stderr)
			}
			// Stopped before any worker reported: this process reports
			// every case not run (its context is already cancelled).
		}
		shared := (&workerSpec{Plans: startedPlans}).plans()
		for i := range shared {
			shared[i].Target.(*runner.StartedTarget).Origin = plans[i].Target
		}
		plans = shared
	}
	opts := f.runnerOptions(s, plans, claim, caseDone, stdout)
	if s.worker != nil && *f.rate > 0 {
		opts.Pace = s.worker.pacer() // --rate for the whole run, not per worker
	}
	// A worker's results.json is merged by its parent, which writes the
	// reports (HTML, JUnit, summary, badge) once.
	opts.ResultsOnly = s.worker != nil
	res, err := runner.Run(ctx, opts)
	if s.worker != nil {
		// A worker's results go to its parent, which prints the summary.
		stdout = io.Discard
	}
	return conclude(res, err, *f.strict, started, *f.reportDir, stdout, stderr)
}

// stopContext is a context cancelled by SIGINT or SIGTERM, with the
// signal as its cause (runner.StopBySignal): the reports then say which
// stop ended the run. stop releases the signals.
func stopContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-sigs:
			cancel(runner.StopBySignal(sig))
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

// workerCount is --parallel, or when it is 0 the count the run calls for
// (said on stderr): for the built-in reference relay in this process,
// referenceWorkers; for any other target, what the measured round trip to
// the started relays calls for (autoParallel).
//
// measured, when set, is called once the link's round trip is measured and
// is not this machine's: what follows (the growth's baseline reads, the
// relay's NIP-11 limits) may overlap other round trips, while the round
// trip itself, which decides one process or many, was measured alone.
func (f *runFlags) workerCount(ctx context.Context, plans []runner.Plan, startedPlans []workerPlan, stderr io.Writer, measured func()) (int, *growth) {
	n := *f.parallel
	var grow *growth
	if n == 0 {
		var why string
		if onThisMachine(plans) {
			n, why = referenceWorkers()
		} else {
			n, why, grow = autoParallel(ctx, startedPlans, *f.timeout, measured)
		}
		if why != "" {
			fmt.Fprintf(stderr, "nipcl-conform: --parallel %d (%s)\n", n, why)
		}
	}
	return n, grow
}

// referenceWorkers is the worker count for the built-in reference relay:
// two workers per core, at most maxReferenceWorkers. Its round trips cost
// nothing, but its cases still wait (on the relay's clock, on settle
// windows after a barrier), and workers overlap those waits: on two quiet
// cores 4 workers took 8.4–11.5 s, 2 took 11.2–12.1 s, one process 16–20 s
// (BENCHMARKS.md, "Run"); more than a few only share the same cores with
// the relay. A paced run (--rate, --safe) waits on its pacer, not on
// the relay: it runs in one process (execute).
func referenceWorkers() (int, string) {
	cores := runtime.NumCPU()
	n := min(2*cores, maxReferenceWorkers)
	return n, fmt.Sprintf("the built-in reference relay: %d workers for %d cores, overlapping the cases' waits; --parallel 1 for one process", n, cores)
}

// maxReferenceWorkers caps the default worker count of a run against the
// built-in reference relay (referenceWorkers).
const maxReferenceWorkers = 4

// runParallel runs the started plans in n worker processes sharing one
// case queue and merges their reports.
func (f *runFlags) runParallel(ctx context.Context, fs *flag.FlagSet, n int, grow *growth, startedPlans []workerPlan, started time.Time, stdout, stderr io.Writer) (*reports.Results, error) {
	id := *f.runID
	if id == "" {
		id = runner.NewRunID()
	}
	pr := &parallelRun{fs: fs, n: n, grow: grow, reportDir: *f.reportDir, junitPath: *f.junit, runID: id, deadline: *f.deadline, started: started, rate: *f.rate, stderr: stderr}
	if isTerminal(stdout) {
		pr.progress = stdout
	} else {
		pr.out = stdout
	}
	// Each worker derives the same deadline from the whole plan and says
	// it; the first to say it is passed on (parallelRun.workerLine).
	return pr.run(ctx, startedPlans)
}

// runnerOptions are the options of one in-process runner.Run.
func (f *runFlags) runnerOptions(s *runSettings, plans []runner.Plan, claim func(plan, caseID string) bool, caseDone func(plan, caseID string, failed bool), stdout io.Writer) runner.Options {
	return runner.Options{
		Plans: plans, RelayPubKey: *f.relayPubKey, RelayURL: *f.relayURL, ActorKeys: f.actorKeys, Hosts: f.hosts, HostKeys: f.hostKeys, Header: s.header, CommandTags: s.commandTags, PoW: *f.pow,
		StepTimeout: *f.timeout, Deadline: *f.deadline, Started: s.started, ReportDir: *f.reportDir, JUnitPath: *f.junit,
		Force: *f.force, Focus: f.focus, Skip: f.skip, Scale: *f.scale, Out: stdout, Baseline: s.base,
		Safe: *f.safe, Rate: *f.rate, AllowHeavy: *f.allowHeavy, Slow: *f.slow, Progress: isTerminal(stdout),
		Shard: s.shard, RunID: *f.runID, RoleMap: s.roles, LabelFilter: *f.labelFilter, Claim: claim, CaseDone: caseDone, Seed: *f.seed,
	}
}

// conclude prints a run's summary and what follows it (baseline entries
// now fixed, plan setup errors and notes, and last where the reports are)
// and returns the exit code; err is the run's (no results) or the
// reports' (results not all written).
func conclude(res *reports.Results, err error, strict bool, started time.Time, reportDir string, stdout, stderr io.Writer) int {
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
	defer fmt.Fprintf(stdout, "reports: %s (junit.xml, results.json, summary.md, badge.svg)\n", filepath.Join(reportDir, "report.html"))
	for _, p := range res.Plans {
		if p.SetupError != "" {
			fmt.Fprintf(stderr, "nipcl-conform: %s: %s\n", p.Name, p.SetupError)
		} else if p.Note != "" {
			fmt.Fprintf(stderr, "nipcl-conform: %s: %s\n", p.Name, p.Note)
		}
	}
	return code
}

// onThisMachine reports whether every plan's relay is the built-in
// reference relay in this process, with no simulated latency: round trips
// cost nothing there, so its worker count follows the cores
// (referenceWorkers). Every other target is measured (autoParallel): a loopback URL may
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
	line := lineFor(w)
	counts := res.Counts()
	fmt.Fprintf(w, "\n%-14s %s\n", "outcome", "cases")
	for _, o := range reports.Outcomes {
		if counts[o] > 0 {
			fmt.Fprintf(w, "%-14s %d\n", o, counts[o])
		}
	}
	var bad []reports.CaseResult
	var known []string
	notRun := map[string]int{}
	for _, c := range res.Cases {
		if strings.HasPrefix(c.Message, "not run: setup") {
			notRun[c.Plan]++
			continue
		}
		if reports.Known(c) {
			known = append(known, c.ID)
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
			fmt.Fprintf(w, "  %2d. %d × %s [%s] %s\n", i+1, len(k.Cases), k.Outcome, k.Level, line(strings.TrimPrefix(k.Example, "incompatible: ")))
			if b := reports.BrokenLine(reports.CaseResult{Violates: k.Violates}); b != "" {
				fmt.Fprintf(w, "      %s\n", line(b))
			}
			fmt.Fprintf(w, "      cases: %s\n      learn more: %s\n", causeCases(k.Cases), k.Explain)
		}
	}
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].ID < bad[j].ID })
	if len(bad) > 0 && len(bad) <= 12 {
		fmt.Fprintln(w, "\nnot passing:")
		for _, c := range bad {
			where := c.Section
			if c.Violates != "" {
				where = "breaks " + c.Violates
			}
			fmt.Fprintf(w, "  %-13s %-22s %s [%s %s] %s\n", c.Outcome, c.ID, c.Plan, c.Level, where, line(c.Message))
		}
	}
	if len(known) > 0 {
		fmt.Fprintf(w, "\n%d known failures (a --baseline lists them; they do not fail the run): %s\n", len(known), causeCases(known))
	}
	fmt.Fprintf(w, "\n%d cases in %s\n", len(res.Cases), took.Round(time.Millisecond))
	for _, p := range res.Plans {
		if p.Cleanup != nil {
			fmt.Fprintf(w, "safe mode (%s): deleted %d channels", p.Name, p.Cleanup.Deleted)
			if len(p.Cleanup.Failed) > 0 {
				fmt.Fprintf(w, "; could NOT delete %d:\n  %s", len(p.Cleanup.Failed), strings.Join(p.Cleanup.Failed, "\n  "))
			}
			fmt.Fprintln(w)
		}
	}
	if res.Interrupted != "" && res.StoppedBy == "" {
		fmt.Fprintln(w, res.Interrupted)
	}
	fmt.Fprintln(w, reports.Headline(res))
}

// summaryLine is the first line of a message, clipped to 160 bytes: one
// row of a usage error.
func summaryLine(s string) string { return text.Clip(text.FirstLine(s), 160) }

// lineFor returns how a summary row is cut for w: at the terminal's width
// ($COLUMNS, else 160) on a terminal, never in a file or pipe (a CI log
// keeps the observed value at the end of a message).
func lineFor(w io.Writer) func(string) string {
	if !isTerminal(w) {
		return text.FirstLine
	}
	width := 160
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 40 {
		width = n - 10
	}
	return func(s string) string { return text.Clip(text.FirstLine(s), width) }
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
