package runner

import (
	"github.com/nipcl/nipcl-conform/clause"

	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/pace"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/version"
	"github.com/nipcl/nipcl-conform/version/catalogue"
)

// ErrAlreadyRan is returned by a second Run in one process: Ginkgo allows a
// single RunSpecs per process.
var ErrAlreadyRan = errors.New("runner: a process can run the suites only once (Ginkgo allows one RunSpecs per process)")

var runOnce sync.Mutex
var ran bool

// failer satisfies ginkgo.GinkgoTestingT for RunSpecs outside `go test`.
type failer struct{ failed bool }

func (f *failer) Fail() { f.failed = true }

// preparedPlan is a plan whose target has been started and probed.
type preparedPlan struct {
	plan   Plan
	env    *suites.Env
	result reports.PlanResult
	target Target
	// stoppedBeforeCases: the run was stopped before any case started.
	stoppedBeforeCases bool
	// rate is the run's --rate (repro commands repeat it).
	rate float64
	// probeDeleted and probeUndeleted: the capability probe's groups it
	// deleted and could not delete (safe mode reports them).
	probeDeleted   int
	probeUndeleted []string
	// findings is what the set-up observed (ProbePlans hands it on).
	findings *Findings
}

// stopInfo is what stopped a run early, for convert.
type stopInfo struct {
	by       string    // stopReason ("" = every case ran)
	ginkgo   string    // Ginkgo's special suite failure reasons
	deadline time.Time // the run context's deadline
}

func (o *Options) defaults() {
	if o.StepTimeout <= 0 {
		o.StepTimeout = 10 * time.Second
	}
	if o.ReportDir == "" {
		o.ReportDir = "nipcl-report"
	}
	if o.JUnitPath == "" {
		o.JUnitPath = filepath.Join(o.ReportDir, "junit.xml")
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
}

// ValidRunID reports whether id can name a run: 1-16 lowercase letters,
// digits and '-', starting with a letter or digit, so every name and label
// built from it stays within both drafts' grammars.
func ValidRunID(id string) bool { return runIDPattern.MatchString(id) }

var runIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,15}$`)

// NewRunID returns a short random run identifier (lowercase hex).
func NewRunID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Run executes every plan and writes the reports. It returns the results
// even when err is non-nil whenever any were produced. Run may be called
// once per process.
func Run(ctx context.Context, opts Options) (*reports.Results, error) {
	runOnce.Lock()
	if ran {
		runOnce.Unlock()
		return nil, ErrAlreadyRan
	}
	ran = true
	runOnce.Unlock()

	opts.defaults()
	if len(opts.Plans) == 0 {
		return nil, errors.New("runner: no plans")
	}
	if err := suites.Validate(); err != nil {
		return nil, fmt.Errorf("harness error: %w", err)
	}
	if opts.LabelFilter != "" {
		if _, err := types.ParseLabelFilter(opts.LabelFilter); err != nil {
			return nil, fmt.Errorf("label filter %q: %w", opts.LabelFilter, err)
		}
	}
	if err := CheckSelection(opts.Focus, opts.Skip, opts.LabelFilter); err != nil {
		return nil, err
	}
	if err := CheckProfileSelection(planProfiles(opts.Plans), opts.Focus, opts.Skip, opts.LabelFilter); err != nil {
		return nil, err
	}
	// An explicit deadline covers the whole run, setup included; a derived
	// one (Options.Deadline 0) starts once the plans are prepared.
	if opts.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, opts.deadlineAt(), StopByDeadline(opts.Deadline))
		defer cancel()
	}

	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	}
	if !ValidRunID(runID) {
		return nil, fmt.Errorf("runner: run ID %q: want 1-16 lowercase letters, digits or '-' (it becomes part of labels)", runID)
	}
	release, note, err := ClaimReportDir(opts.ReportDir, opts.JUnitPath)
	if err != nil {
		return nil, err
	}
	defer release()
	if note != "" {
		fmt.Fprintln(opts.Out, note)
	}
	build := version.Get()
	res := &reports.Results{
		Tool: "nipcl-conform", Version: build.Version, Commit: build.Commit, Modified: build.Modified,
		Catalogue: catalogue.Fingerprint(), Specs: specRevisions(),
		RunID: runID, Started: time.Now(),
		Settings: map[string]string{
			"step_timeout": opts.StepTimeout.String(),
			"scale":        fmt.Sprint(opts.Scale),
			"safe":         fmt.Sprint(opts.Safe),
			"rate":         fmt.Sprint(opts.Rate),
			"slow":         fmt.Sprint(opts.Slow),
			"seed":         fmt.Sprint(opts.Seed),
		},
	}
	var prepared []*preparedPlan
	defer func() {
		stopCtx, c := context.WithTimeout(context.Background(), 30*time.Second)
		defer c()
		for _, p := range prepared {
			_ = p.target.Stop(stopCtx)
		}
	}()
	// Plans are prepared concurrently where their relay is the built-in
	// one or already started (a parallel run's workers): each plan's
	// set-up (NIP-11, the link probe, the capability probe) is round trips
	// to its own relay, so the plans' waits overlap. Containers start one
	// at a time (they may share an image build).
	prepared = make([]*preparedPlan, len(opts.Plans))
	var wg sync.WaitGroup
	for i, plan := range opts.Plans {
		switch plan.Target.(type) {
		case *ReferenceTarget, *StartedTarget:
			wg.Add(1)
			go func() {
				defer wg.Done()
				prepared[i] = prepare(ctx, &opts, plan, res.RunID)
			}()
		default:
			prepared[i] = prepare(ctx, &opts, plan, res.RunID)
		}
	}
	wg.Wait()
	// An auto profile is known now: a selection of none of the detected
	// profiles' cases is refused like an empty one.
	if err := CheckProfileSelection(preparedProfiles(prepared), opts.Focus, opts.Skip, opts.LabelFilter); err != nil {
		return nil, err
	}

	est := estimate(prepared, &opts)
	allowSharedPacing(prepared, &opts, est)
	if ctx.Err() == nil {
		var cancel context.CancelFunc
		ctx, cancel = fitDeadline(ctx, &opts, est, res)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	var specReports types.SpecReports
	stop := stopInfo{deadline: deadline}
	if ctx.Err() != nil {
		// Stopped (an interrupt, a cancel, the deadline) while the targets
		// were prepared: no case starts, each is reported as not run, and
		// a setup step the stop cut short is no setup error.
		stop.by = stopReason(ctx, "", opts.Deadline)
		for _, p := range prepared {
			if p.env.SetupErr != nil {
				p.result.Note = joinNotes(p.result.Note, "setup did not finish: "+p.result.SetupError)
				p.result.SetupError, p.env.SetupErr = "", nil
			}
			p.stoppedBeforeCases = true
		}
		res.Interrupted = "stopped by " + stop.by + " before the cases started"
	} else {
		specReports, stop.ginkgo = runGinkgo(ctx, &opts, prepared)
		stop.by = stopReason(ctx, stop.ginkgo, opts.Deadline)
	}
	res.StoppedBy = stop.by
	res.Finished = time.Now()
	for _, p := range prepared {
		if opts.Safe {
			n, failed := p.env.Cleanup.Result()
			p.result.Cleanup = &reports.Cleanup{Deleted: n + p.probeDeleted, Failed: append(p.probeUndeleted, failed...)}
		}
		res.Plans = append(res.Plans, p.result)
	}
	var interrupted string
	res.Cases, interrupted = convert(specReports, prepared, stop)
	if res.Interrupted == "" {
		res.Interrupted = interrupted
	}
	if stop.ginkgo == "" && res.Counts()[reports.NotRun] == 0 {
		// Every case ran to its end, even if the deadline passed as the
		// last one finished: the run is complete.
		res.StoppedBy = ""
	}
	attachLogs(prepared, res)
	res.Sort()
	if opts.Baseline != nil {
		opts.Baseline.Apply(res)
		res.Settings["baseline"] = opts.Baseline.Path
	}
	if opts.ResultsOnly {
		return res, reports.WriteFile(filepath.Join(opts.ReportDir, "results.json"), res, reports.WriteJSON)
	}
	if err := WriteReports(opts.ReportDir, opts.JUnitPath, res); err != nil {
		return res, err
	}
	return res, nil
}

// planProfiles lists the plans' profiles as asked ("auto" for a profile
// still to be detected).
func planProfiles(plans []Plan) []string {
	var out []string
	for _, p := range plans {
		out = append(out, p.Profile)
	}
	return out
}

// preparedProfiles lists the profiles of the prepared plans that will run
// cases: none (no judgement) when a plan runs every profile's cases (a
// relay without NIP-CL asked for it: reported unsupported) or when no plan
// was set up.
func preparedProfiles(prepared []*preparedPlan) []string {
	var out []string
	for _, p := range prepared {
		switch {
		case p.env.SetupErr != nil:
		case p.env.Unsupported != "":
			return nil
		default:
			out = append(out, p.env.Profile)
		}
	}
	return out
}

// fitDeadline sets a derived deadline on ctx when the run has none
// (Options.Deadline 0) and says it at start; with an explicit one it says
// when the run is expected not to fit. It records the deadline in the
// results' settings.
func fitDeadline(ctx context.Context, opts *Options, est Estimate, res *reports.Results) (context.Context, context.CancelFunc) {
	cancel := context.CancelFunc(func() {})
	if opts.Deadline <= 0 && est.Cases == 0 {
		opts.Deadline = est.Deadline // no case will run: nothing to say
	} else if opts.Deadline <= 0 {
		opts.Deadline = est.Deadline
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Deadline, &Stop{By: "the run's deadline (" + opts.Deadline.String() + ", derived from the plan; --deadline to change)"})
		fmt.Fprintf(opts.Out, "deadline %s, derived from the plan (%s); --deadline to change\n", opts.Deadline, est)
		res.Settings["deadline_derived"] = "true"
	} else if need := est.Work + est.Pace; need > opts.Deadline {
		fmt.Fprintf(opts.Out, "warning: --deadline %s is shorter than this run is expected to take (about %s: %s): it will likely stop incomplete (exit %d); pass --deadline %s, or leave it out to have it derived\n",
			opts.Deadline, need.Round(time.Second), est, reports.ExitIncomplete, est.Deadline)
	}
	res.Settings["deadline"] = opts.Deadline.String()
	return ctx, cancel
}

// prepare starts a plan's target and probes it. Failures are recorded in
// the plan result and the env (every case then reports the setup error).
func prepare(ctx context.Context, opts *Options, plan Plan, runID string) *preparedPlan {
	p := &preparedPlan{plan: plan, target: plan.Target, rate: opts.Rate}
	env := &suites.Env{
		Plan: plan.Name, Profile: plan.Profile, StepTimeout: opts.StepTimeout,
		Hosts: opts.Hosts, Header: opts.Header, Scale: opts.Scale, RunID: runID, Instance: NewRunID(),
		Slow: opts.Slow, Safe: opts.Safe, AllowHeavy: opts.AllowHeavy, Cleanup: &framework.CleanupLog{},
		RoleMap: opts.RoleMap, CommandTags: opts.CommandTags, Override: opts.Override,
	}
	env.Profile = clause.CanonicalProfile(plan.Profile)
	switch {
	case opts.Pace != nil:
		env.Pace = opts.Pace
	case opts.Rate > 0:
		env.Pace = pace.New(opts.Rate).Wait
	}
	p.env = env
	p.result = reports.PlanResult{Name: plan.Name, Target: plan.Target.String(), Profile: plan.Profile}
	if f := plan.Findings; f != nil && f.Failed != nil {
		// The set-up already failed once for the whole run (a parallel
		// run's parent): the same failure, without a second probe.
		failed := *f.Failed
		failed.Name, failed.Target = p.result.Name, p.result.Target
		p.result = failed
		p.probeDeleted, p.probeUndeleted = f.Deleted, f.Undeleted
		setupFailed(p, errors.New(failed.SetupError), f.FailedTimedOut)
		return p
	}
	if include := caseFilter(plan, opts); include != nil {
		env.Include = include
	}
	declared, err := parseActorKeys(opts.ActorKeys)
	if err != nil {
		setupFailed(p, err, false)
		return p
	}
	for _, k := range declared {
		k.Actor.CommandTags = opts.CommandTags
		env.Keys = append(env.Keys, k.Actor)
	}
	startCtx, cancel := context.WithTimeout(ctx, 3*opts.StepTimeout+time.Minute)
	ep, err := plan.Target.Start(startCtx)
	cancel()
	if err != nil {
		setupFailed(p, err, errors.Is(err, context.DeadlineExceeded))
		return p
	}
	env.URL, p.result.URL = ep.URL, ep.URL
	env.RelayURL = firstNonEmpty(opts.RelayURL, ep.RelayURL)
	if env.RelayURL == env.URL {
		env.RelayURL = ""
	}
	if len(env.Hosts) == 0 {
		env.Hosts = ep.Hosts
	}
	if env.HostKeys, err = hostKeys(opts.HostKeys, env.Hosts, opts.CommandTags); err != nil {
		setupFailed(p, err, false)
		return p
	}

	info := plan.Findings.relayInfo()
	if info == nil {
		infoCtx, cancel := context.WithTimeout(ctx, opts.StepTimeout)
		info, err = fixtures.FetchInfoWith(infoCtx, ep.URL, "", opts.Header)
		cancel()
		if err != nil {
			setupFailed(p, fmt.Errorf("no NIP-11 document: %w", err), errors.Is(err, fixtures.ErrTimeout))
			return p
		}
	}
	env.Info = info
	env.PoW = minedDifficulty(opts.PoW, info)
	for _, a := range env.Keys {
		a.PoW = env.PoW
	}
	for _, a := range env.HostKeys {
		a.PoW = env.PoW
	}
	p.result.Relay = &reports.RelayIdentity{Name: info.Name, Self: info.Self, Software: info.Software, Version: info.Version}
	env.RelayPubKey = firstNonEmpty(opts.RelayPubKey, ep.RelayPubKey, info.Self)
	keyNote := ""
	if env.RelayPubKey == "" && text.IsHex64(info.PubKey) {
		// NIP-29 names self as the key of group state; older relays put
		// their own key in pubkey (NIP-11's admin contact) instead.
		env.RelayPubKey = info.PubKey
		keyNote = "NIP-11 has no \"self\"; group state is checked against its \"pubkey\" " + info.PubKey + " (interop: NIP-29 clients look for self; pass --relay-pubkey to choose another key)"
	}
	p.result.RelayPubKey = env.RelayPubKey
	if env.RelayPubKey == "" {
		setupFailed(p, errors.New("NIP-11 document has no \"self\" key; pass --relay-pubkey"), false)
		return p
	}

	given := plan.Findings
	var probe linkProbe
	if given != nil {
		probe = linkProbe{rtt: given.RTT, challenge: given.Challenge}
	} else if probe, err = probeLink(ctx, ep.URL, opts.StepTimeout, opts.Header); err != nil {
		setupFailed(p, err, errors.Is(err, fixtures.ErrTimeout))
		return p
	}
	env.AuthOnConnect = probe.challenge
	// A step waits for answers across the link: a slow link gets the same
	// margin a fast one has, in round trips.
	env.StepTimeout = opts.StepTimeout + rttSteps*probe.rtt
	if opts.Rate > 0 {
		env.CaseTimeout = caseTimeout(env.StepTimeout, opts.Rate)
	}
	p.result.RTTMS = float64(probe.rtt.Microseconds()) / 1000
	p.result.StepTimeout = env.StepTimeout.String()
	if opts.Claim != nil {
		name := plan.Name
		env.Claim = func(id string) bool { return opts.Claim(name, id) }
		env.Priority = casePriority
	}

	var profile, note string
	switch {
	case given != nil:
		// Observed once for the whole run (a parallel run's parent).
		profile, note = given.Profile, given.Note
	default:
		profile, note = resolveProfile(env.Profile, info, opts.Force)
		if env.Profile == clause.ProfileAuto && info.HasExtension("nip-cl") {
			profile, note = detect(ctx, opts, env, runID)
		}
	}
	env.Profile, p.result.Profile, p.result.Note = profile, profile, joinNotes(keyNote, note)
	if given != nil {
		if err := applyKeyFindings(env, declared, given, &p.result); err != nil {
			setupFailed(p, fmt.Errorf("harness error: %w", err), false)
			return p
		}
		p.probeDeleted, p.probeUndeleted = given.Deleted, given.Undeleted
	} else {
		found := probeKeys(ctx, env, declared, &p.result)
		p.probeDeleted, p.probeUndeleted = found.Deleted, found.Undeleted
		if err, timedOut := observedNothing(p.result, probe, found.Answered); err != nil {
			setupFailed(p, err, timedOut)
			return p
		}
		p.findings = findingsOf(probe, profile, note, found)
		p.findings.NIP11 = handedNIP11(info.Raw)
	}
	if profile == framework.ProfileNIP29 && clause.CanonicalProfile(plan.Profile) != framework.ProfileNIP29 && !opts.Force {
		env.Unsupported = note
	}
	return p
}

// powFlag repeats the mined difficulty in a repro command.
func powFlag(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" --pow %d", n)
}

// minedDifficulty is the NIP-13 difficulty the plan's events are mined to:
// --pow, raised to the relay's published limitation.min_pow_difficulty when
// that is no more than fixtures.AutoPoW (a relay that asks more is met only
// by an explicit --pow; its refusals block on proof-of-work with that
// advice).
func minedDifficulty(flag int, info *fixtures.RelayInfo) int {
	if info != nil && info.Limitation != nil {
		if d := info.Limitation.MinPowDifficulty; d > flag && d <= fixtures.AutoPoW {
			return d
		}
	}
	return flag
}

// detect resolves profile "auto" on a relay that advertises nip-cl by
// behaviour; it reports the claim (nip-cl advertised) next to what it saw.
func detect(ctx context.Context, opts *Options, env *suites.Env, runID string) (string, string) {
	actor := fixtures.NewActor("detector")
	actor.CommandTags = env.CommandTags
	actor.PoW = env.PoW
	if len(env.Keys) > 0 {
		actor = env.Keys[0]
	}
	d, err := DetectProfile(ctx, env.URL, env.AuthOnConnect, opts.StepTimeout, actor, runID, env.RelayURL, env.Header, env.Pace)
	switch {
	case err != nil:
		return framework.ProfileLabels, "profile auto: nip-cl advertised, but detection failed (" + err.Error() + "); checking the labels line — pass --profile to choose"
	case d.Profile == "":
		return framework.ProfileLabels, "profile auto: nip-cl advertised, but " + d.Detail + "; checking the labels line — pass --profile to choose"
	default:
		return d.Profile, "profile auto: claims nip-cl; behaviour says " + d.Profile + ": " + d.Detail
	}
}

// observedNothing is the setup error of a relay of which the capability
// probe observed nothing: no key's write answered either way and no group
// state seen — every connection dropped after the WebSocket upgrade, or
// every write unanswered. Its cases would only repeat that hundreds of
// times as failures, so the run stops with one line. timedOut: the relay
// left steps unanswered (its REQs or writes timed out) rather than
// dropping the connections.
func observedNothing(r reports.PlanResult, link linkProbe, answered bool) (error, bool) {
	// A relay that answered a write (a pow: or rate-limited: refusal says
	// nothing of a key's powers) is not silent: its cases run and quote
	// the refusal with its own advice.
	if answered || len(r.Keys) == 0 || len(r.StateEvents) > 0 {
		return nil, false
	}
	var evidence string
	for _, k := range r.Keys {
		if k.Admitted != "" || k.MayCreate != "" || k.ModeratesForeign != "" {
			return nil, false
		}
		if evidence == "" && len(k.Evidence) > 0 {
			evidence = k.Evidence[0]
		}
	}
	if link.pingErr != nil && !errors.Is(link.pingErr, fixtures.ErrTimeout) {
		return fmt.Errorf("the relay accepted the WebSocket, then dropped every connection before answering anything (first: %v): nothing to judge — is it crashing? (see its logs)", link.pingErr), false
	}
	return fmt.Errorf("the capability probe observed nothing: no write was answered in time (%s)", evidence), true
}

func setupFailed(p *preparedPlan, err error, timedOut bool) {
	p.result.SetupError = text.OneLine(err.Error())
	p.env.SetupErr = err
	p.env.SetupTimedOut = timedOut
}

// rttSteps is how many measured round trips each step deadline adds to
// the configured step timeout.
const rttSteps = 20

// linkProbe is what one WebSocket to the relay showed before any case ran.
type linkProbe struct {
	rtt       time.Duration // the link's round trip (see measureRTT)
	challenge bool          // the relay sent an AUTH challenge on connect
	pingErr   error         // why the first REQ got no EOSE or CLOSED (nil: answered)
}

// probeLink measures the round trip to the relay (measureRTT) and whether
// it sends an AUTH challenge on connect, on a second connection that sends
// nothing; the probe waits a few round trips for it. Not receiving one is not an error: clients then
// authenticate when the relay asks ("auth-required:").
func probeLink(ctx context.Context, url string, step time.Duration, header http.Header) (linkProbe, error) {
	var lp linkProbe
	c, rtt, pingErr, err := dialAndMeasure(ctx, url, step, header)
	if err != nil {
		return lp, err
	}
	c.Close()
	lp.rtt, lp.pingErr = rtt, pingErr
	// A challenge counts as sent on connect only on a connection that has
	// sent nothing: the measuring REQs may themselves draw one from a relay
	// that asks on demand (AUTH required for reads).
	quiet, err := fixtures.Dial(ctx, url, fixtures.DialOptions{StepTimeout: step, Header: header})
	if err != nil {
		return lp, fmt.Errorf("cannot open a WebSocket: %w", err)
	}
	defer quiet.Close()
	wctx, cancel := context.WithTimeout(ctx, min(step, 4*lp.rtt+250*time.Millisecond))
	defer cancel()
	lp.challenge = quiet.WaitChallenge(wctx)
	return lp, nil
}

// MeasureRTT opens a WebSocket to the relay and returns the link's round
// trip for choosing a worker count: the median of rttSamples REQs for an
// unknown id (answered by EOSE or CLOSED), at most half the WebSocket
// handshake (0 when the relay answers no REQ). The median, not one
// sample, so one busy moment of the relay (its database writing) does not
// decide the run's worker count: the same relay gets the same count run
// after run. One connection: a second one, with three more REQs first,
// gave the same figure (half its handshake or the median) a few round
// trips later.
func MeasureRTT(ctx context.Context, url string, step time.Duration) (time.Duration, error) {
	start := time.Now()
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{StepTimeout: step})
	if err != nil {
		return 0, fmt.Errorf("cannot open a WebSocket: %w", err)
	}
	defer c.Close()
	handshake := time.Since(start) / 2
	var samples []time.Duration
	for i := 0; i < rttSamples; i++ {
		t0 := time.Now()
		if c.Ping(ctx) != nil {
			break
		}
		samples = append(samples, time.Since(t0))
	}
	if len(samples) == 0 {
		return 0, nil
	}
	slices.Sort(samples)
	return min(samples[len(samples)/2], handshake), nil
}

// rttSamples is how many REQs MeasureRTT times.
const rttSamples = 7

// dialAndMeasure opens a WebSocket and measures the round trip: the
// fastest of three REQs for an unknown id (answered by EOSE or CLOSED),
// and at most half the WebSocket handshake (TCP and the HTTP upgrade), so
// it is the link, not the relay's own slowness, which the cases judge. A
// relay that answers no such REQ gets 0 (no extra time); pingErr is why
// the first REQ went unanswered.
func dialAndMeasure(ctx context.Context, url string, step time.Duration, header http.Header) (c *fixtures.Client, rtt time.Duration, pingErr, err error) {
	start := time.Now()
	c, err = fixtures.Dial(ctx, url, fixtures.DialOptions{StepTimeout: step, Header: header})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("cannot open a WebSocket: %w", err)
	}
	handshake := time.Since(start) / 2
	var best time.Duration
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		if err := c.Ping(ctx); err != nil {
			if i == 0 {
				pingErr = err
			}
			break
		}
		if d := time.Since(t0); best == 0 || d < best {
			best = d
		}
	}
	if best == 0 {
		return c, 0, pingErr, nil
	}
	return c, min(best, handshake), nil, nil
}

// resolveProfile picks the profile a plan is checked against.
func resolveProfile(requested string, info *fixtures.RelayInfo, force bool) (string, string) {
	advertised := info.HasExtension("nip-cl")
	switch requested {
	case framework.ProfileIdentity, framework.ProfileLabels:
		if !advertised && !force {
			return framework.ProfileNIP29, fmt.Sprintf("the relay does not advertise \"nip-cl\" in NIP-11 supported_extensions, so the %s profile cases are unsupported (use --force to run them anyway)", requested)
		}
		return requested, ""
	case framework.ProfileNIP29:
		return framework.ProfileNIP29, ""
	default: // auto
		if !advertised {
			return framework.ProfileNIP29, "the relay does not advertise \"nip-cl\" in NIP-11 supported_extensions: NIP-CL cases are unsupported, baseline NIP-29 cases still run"
		}
		return framework.ProfileLabels, ""
	}
}

// ShardOf assigns a case to one of total shards, stably: the same case ID
// always lands in the same shard, whatever else the catalogue holds.
func ShardOf(caseID string, total int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(caseID))
	return int(h.Sum32() % uint32(total))
}

func caseFilter(plan Plan, opts *Options) func(framework.Case) bool {
	if len(plan.Sections) == 0 && len(plan.Cases) == 0 && len(opts.Focus) == 0 && len(opts.Skip) == 0 && opts.Shard.Total <= 1 && opts.LabelFilter == "" {
		return nil
	}
	var labels types.LabelFilter
	if opts.LabelFilter != "" {
		// Validated by Run before any plan is prepared.
		labels, _ = types.ParseLabelFilter(opts.LabelFilter)
	}
	sections := map[string]bool{}
	for _, s := range plan.Sections {
		sections[s] = true
	}
	ids := map[string]bool{}
	for _, id := range plan.Cases {
		ids[id] = true
	}
	return func(c framework.Case) bool {
		if len(sections) > 0 && !sections[c.Section] {
			return false
		}
		if len(ids) > 0 && !ids[c.ID] {
			return false
		}
		if opts.Shard.Total > 1 && ShardOf(c.ID, opts.Shard.Total) != opts.Shard.Index {
			return false
		}
		if len(opts.Focus) > 0 && !matchAny(c, opts.Focus) {
			return false
		}
		if labels != nil && !labels(framework.CaseLabels(c)) {
			return false
		}
		return !matchAny(c, opts.Skip)
	}
}

// matchAny reports whether a case's ID, area or section matches a pattern
// (exact, or prefix when the pattern ends with '/' or '*').
func matchAny(c framework.Case, patterns []string) bool {
	for _, p := range patterns {
		prefix := strings.TrimSuffix(p, "*")
		for _, v := range []string{c.ID, c.Area, c.Section} {
			if v == p || (prefix != p && strings.HasPrefix(v, prefix)) || (strings.HasSuffix(p, "/") && strings.HasPrefix(v, p)) {
				return true
			}
		}
	}
	return false
}

// runGinkgo registers every plan's specs and runs them once.
// The string is why Ginkgo stopped early ("" when it ran every spec): the
// suite deadline or an interrupt.
func runGinkgo(ctx context.Context, opts *Options, prepared []*preparedPlan) (types.SpecReports, string) {
	var captured types.SpecReports
	var stopped string
	total := 0
	// Plans are defined in the order Ginkgo sorts them into (by their
	// container's text, every container having the same code location):
	// its first sort then meets sorted input and costs a pass, not a
	// sort of every spec in each of up to 48 workers. The order the specs
	// run in is Ginkgo's either way.
	byName := slices.Clone(prepared)
	slices.SortStableFunc(byName, func(a, b *preparedPlan) int { return strings.Compare(a.env.Plan, b.env.Plan) })
	for _, p := range byName {
		if p.env.SetupErr != nil {
			continue // reported from the catalogue, without Ginkgo
		}
		suites.Define(p.env)
		total++
	}
	if total == 0 {
		return nil, ""
	}
	specs := 0
	for _, p := range prepared {
		if p.env.SetupErr == nil {
			for _, c := range suites.Catalogue() {
				if p.env.Applies(c) {
					specs++
				}
			}
		}
	}
	var done, failed int
	var mu sync.Mutex
	ReportAfterEach(func(r SpecReport) {
		if unclaimed(r) {
			return // another worker's case
		}
		// A case the harness's own stop cut short (an interrupt, the run's
		// deadline) is not-run, not a failure: it is not printed as one.
		cutShort := r.State == types.SpecStateInterrupted || (r.State == types.SpecStateTimedout && ctx.Err() != nil)
		failedCase := r.State.Is(types.SpecStateFailureStates) && !cutShort
		if opts.CaseDone != nil {
			opts.CaseDone(planOf(r), r.LeafNodeText, failedCase)
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		if failedCase {
			failed++
			if opts.Progress {
				fmt.Fprint(opts.Out, "\r\033[K")
			}
			word := "FAIL"
			if v, _ := framework.VerdictOf(r); v.Outcome == reports.Blocked {
				word = "BLOCKED"
			}
			if opts.Baseline.Lists(planOf(r), r.LeafNodeText) {
				word = "KNOWN " + word + " (baseline)"
			}
			fmt.Fprintf(opts.Out, "%s %s %s\n", word, planOf(r), r.LeafNodeText)
		}
		if opts.Progress {
			fmt.Fprintf(opts.Out, "\r\033[K[%d/%d] %d not passing  %s %s", done, specs, failed, planOf(r), r.LeafNodeText)
			if done == specs {
				fmt.Fprintln(opts.Out)
			}
		}
	})
	if !opts.Progress && opts.Out != io.Discard {
		// Without a terminal (a CI log) a line every few seconds, so a
		// long run shows it lives.
		stopTicker := make(chan struct{})
		defer close(stopTicker)
		go func() {
			tick := time.NewTicker(ProgressEvery)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					mu.Lock()
					d, f := done, failed
					mu.Unlock()
					fmt.Fprintf(opts.Out, "progress: %d/%d cases done, %d not passing so far\n", d, specs, f)
				case <-stopTicker:
					return
				}
			}
		}()
	}
	// A stop (SIGINT, SIGTERM, a cancel) that lands after Run last looked
	// at ctx but before RunSpecs installs Ginkgo's own interrupt handler
	// reaches only ctx: Ginkgo never hears of it and would run every case
	// until the suite deadline. BeforeSuite runs once that handler is in
	// place (a later signal is Ginkgo's to act on), so a ctx ended by then
	// skips every case: they are not-run, the stop said first.
	stoppedBeforeCases := false
	BeforeSuite(func() {
		if ctx.Err() != nil {
			stoppedBeforeCases = true
			Skip("the run was stopped before the cases started")
		}
	})
	ReportAfterSuite("nipcl-conform capture", func(r Report) {
		captured, stopped = r.SpecReports, strings.Join(r.SpecialSuiteFailureReasons, "; ")
		if stoppedBeforeCases {
			stopped = "the run was stopped before the cases started"
		}
	})

	logPath := filepath.Join(opts.ReportDir, "ginkgo.log")
	_ = os.MkdirAll(opts.ReportDir, 0o755)
	logFile, err := os.Create(logPath)
	if err == nil {
		formatter.ColorableStdOut = logFile
		defer logFile.Close()
	} else {
		formatter.ColorableStdOut = io.Discard
	}
	// Each case asserts with its own Gomega (framework.T.Expect), whose
	// fail handler words failures as "expected …, observed …"; the
	// process-wide Gomega only serves code outside a case.
	gomega.RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	// The whole run has one deadline: what setup used is not given again.
	suiteConfig.Timeout = opts.Deadline
	if dl, ok := ctx.Deadline(); ok {
		suiteConfig.Timeout = max(time.Until(dl), time.Second)
	}
	suiteConfig.RandomSeed = 1
	if opts.Seed != 0 {
		suiteConfig.RandomSeed = opts.Seed
		suiteConfig.RandomizeAllSpecs = true
	}
	if opts.Claim != nil {
		// Workers of one queue take cases in one order: longest first
		// (SpecPriority), which orders single specs only when every spec
		// is its own shuffle group.
		suiteConfig.RandomizeAllSpecs = true
	}
	suiteConfig.GracePeriod = 5 * time.Second
	if opts.Safe {
		// A case stopped by an interrupt or the deadline still deletes
		// what it created (on a context of its own, 3 step deadlines, plus
		// its pacing): Ginkgo waits that long for it before moving on.
		for _, p := range prepared {
			suiteConfig.GracePeriod = max(suiteConfig.GracePeriod, 3*p.env.StepTimeout+10*time.Second)
		}
	}
	suiteConfig.FailFast = false
	reporterConfig.NoColor = true
	reporterConfig.Succinct = true
	RunSpecs(&failer{}, "nipcl-conform", suiteConfig, reporterConfig)
	return captured, stopped
}

// ProgressEvery is how often a run without a terminal prints a progress
// line (cases done of the total, not passing so far): 5 s, or the
// duration in $NIPCL_PROGRESS_EVERY.
var ProgressEvery = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("NIPCL_PROGRESS_EVERY")); err == nil && d > 0 {
		return d
	}
	return 5 * time.Second
}()

// unclaimed reports whether a spec was another worker's case (Env.Claim).
func unclaimed(r SpecReport) bool {
	v, _ := framework.VerdictOf(r)
	return v.Unclaimed
}

func planOf(r SpecReport) string {
	if len(r.ContainerHierarchyTexts) > 0 {
		return r.ContainerHierarchyTexts[0]
	}
	return ""
}

// convert maps Ginkgo spec reports (and plans that never ran) to results.
//
// When the harness stopped the run (stop.by: an interrupt, a cancel, the
// run's deadline), the specs Ginkgo then never started (skipped without a
// message), the spec the stop interrupted and a spec the suite deadline
// cut short are not-run: the stop kept them from running, the relay did
// not. A case's own timeout (SpecTimeout, a step deadline) stays a timeout.
func convert(specs types.SpecReports, prepared []*preparedPlan, stop stopInfo) ([]reports.CaseResult, string) {
	interrupted := ""
	if stop.ginkgo != "" {
		interrupted = "interrupted: " + stop.ginkgo
	}
	var out []reports.CaseResult
	byPlan := map[string]*preparedPlan{}
	for _, p := range prepared {
		byPlan[p.plan.Name] = p
		if p.env.SetupErr != nil || p.stoppedBeforeCases {
			outcome := reports.HarnessError
			msg := "not run: setup of " + p.plan.Name + " failed: " + p.result.SetupError
			switch {
			case p.stoppedBeforeCases:
				outcome, msg = reports.NotRun, "not run: the run was stopped by "+stop.by+" before the cases started"
			case p.env.SetupTimedOut:
				outcome = reports.Timeout
			}
			for _, c := range suites.Catalogue() {
				if !p.env.Applies(c) {
					continue
				}
				r := caseResult(c, p)
				r.Outcome = outcome
				r.Message = msg
				out = append(out, r)
			}
		}
	}
	for _, s := range specs {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		p := byPlan[planOf(s)]
		c, ok := suites.Lookup(s.LeafNodeText)
		if p == nil || !ok || unclaimed(s) { // unclaimed: another worker ran it
			continue
		}
		r := caseResult(c, p)
		r.DurationMS = s.RunTime.Milliseconds()
		for _, e := range s.ReportEntries {
			switch e.Name {
			case framework.EntryTranscript:
				r.Transcript = e.StringRepresentation()
			case framework.EntryNote:
				r.Notes = append(r.Notes, e.StringRepresentation())
			}
		}
		verdict, _ := framework.VerdictOf(s)
		r.Precondition, r.Violates = verdict.Precondition, verdict.Violates
		r.Outcome, r.Message = classify(s, verdict.Outcome)
		if s.Failure.Location.FileName != "" {
			r.Location = fmt.Sprintf("%s:%d", filepath.Base(s.Failure.Location.FileName), s.Failure.Location.LineNumber)
		}
		if s.State == types.SpecStateInterrupted {
			interrupted = "interrupted: " + s.Failure.Message
		}
		if stop.by != "" {
			if why := notRun(s, verdict, stop); why != "" {
				r.Outcome, r.Message, r.Precondition, r.Violates = reports.NotRun, why, "", ""
			}
		}
		out = append(out, r)
	}
	return out, interrupted
}

// notRun says why a spec of a run the harness stopped is not-run ("" when
// it ran to its own end): Ginkgo never started it, the stop interrupted
// it, or the suite deadline (not the case's own) cut it short.
func notRun(s types.SpecReport, verdict framework.Verdict, stop stopInfo) string {
	switch {
	case s.State == types.SpecStateSkipped && s.Failure.Message == "" && verdict.Outcome == "":
		return "not run: the run was stopped by " + stop.by + " before this case"
	case s.State == types.SpecStateInterrupted:
		return "not run to the end: the run was stopped by " + stop.by + " while this case ran"
	case s.State == types.SpecStateTimedout && !stop.deadline.IsZero() && !s.Failure.TimelineLocation.Time.IsZero() &&
		!s.Failure.TimelineLocation.Time.Before(stop.deadline):
		return "not run to the end: the run was stopped by " + stop.by + " while this case ran"
	}
	return ""
}

// UnreportedCase is the result of a case a worker of a parallel run took
// and never reported (the worker died): a harness error, never a verdict.
func UnreportedCase(plan string, c framework.Case, why string) reports.CaseResult {
	r := baseResult(plan, c)
	r.Outcome, r.Message = reports.HarnessError, "not run to the end: "+why
	return r
}

func caseResult(c framework.Case, p *preparedPlan) reports.CaseResult {
	r := baseResult(p.plan.Name, c)
	r.Repro = reproCommand(p, c)
	return r
}

// baseResult is a case's result with what the catalogue says of it.
func baseResult(plan string, c framework.Case) reports.CaseResult {
	source, ref, clauses := suites.CaseSource(c.ID)
	return reports.CaseResult{
		ID: c.ID, Plan: plan, Profile: c.Profile, Area: c.Area, Section: c.Section,
		Level: c.Level, Requirement: c.Requirement, Reading: c.Reading,
		Source: source, Ref: ref, Clauses: clauses,
	}
}

func reproCommand(p *preparedPlan, c framework.Case) string {
	return ReproPrefix(p.target, p.env.Profile, p.result.URL) + safeFlags(p.env.Safe, p.rate) + redactedHeaderFlags(p.env.Header) + commandTagFlags(p.env.CommandTags) + powFlag(p.env.PoW) + " --focus " + c.ID
}

// safeFlags are the --safe and --rate flags of a run: a repro command
// against a live relay keeps its word to be as careful as the run was.
func safeFlags(safe bool, rate float64) string {
	var out string
	if safe {
		out += " --safe"
	}
	if rate > 0 {
		out += " --rate " + strconv.FormatFloat(rate, 'g', -1, 64)
	}
	return out
}

// commandTagFlags are the --command-tag flags of a run: the tags are
// signed into every command the run sent (and its transcripts), so a
// repro command carries them as they are, shell-quoted.
func commandTagFlags(tags nostr.Tags) string {
	var b strings.Builder
	for _, t := range tags {
		b.WriteString(" --command-tag '" + strings.ReplaceAll(t[0]+"="+t[1], "'", `'\''`) + "'")
	}
	return b.String()
}

// redactedHeaderFlags names the --header flags of a run with their values
// redacted: a repro command says a header is needed, never what it is.
func redactedHeaderFlags(h http.Header) string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		for range h[name] {
			b.WriteString(" --header '" + name + ": <redacted>'")
		}
	}
	return b.String()
}

// ReproPrefix is the command that runs one case again against target
// (without its --focus): the reference relay with its profile, faults and
// simulated RTT, or the target's URL.
func ReproPrefix(target Target, profile, url string) string {
	switch t := target.(type) {
	case *ReferenceTarget:
		cmd := "nipcl-conform run --profile " + t.Config.Profile
		for _, f := range t.Config.Faults {
			cmd += " --fault " + f
		}
		return cmd
	case *DelayedTarget:
		cmd := ReproPrefix(t.Inner, profile, url)
		if t.RTT > 0 {
			cmd += " --simulate-rtt " + t.RTT.String()
		}
		if t.Host != "" {
			cmd += " --host-header " + t.Host
		}
		return cmd
	case *StartedTarget:
		if t.Repro != "" {
			return t.Repro
		}
	}
	return fmt.Sprintf("nipcl-conform run --target %s --profile %s", url, profile)
}

// classify maps a Ginkgo state and the outcome the case recorded
// (framework.Verdict; "" = none) to a class. The case decided what its
// failure means (framework's judgeFailure); nothing here converts it again.
func classify(s types.SpecReport, override reports.Outcome) (reports.Outcome, string) {
	msg := s.Failure.Message
	switch s.State {
	case types.SpecStatePassed:
		return reports.Pass, ""
	case types.SpecStateSkipped, types.SpecStatePending:
		if override == reports.Unsupported {
			return reports.Unsupported, msg
		}
		return reports.Skipped, msg
	case types.SpecStatePanicked:
		return reports.HarnessError, "panic: " + msg + "\n" + s.Failure.ForwardedPanic
	case types.SpecStateTimedout:
		return reports.Timeout, msg
	case types.SpecStateInterrupted:
		// An interrupt is the harness's own stop, never the relay's doing.
		return reports.NotRun, msg
	case types.SpecStateAborted:
		return reports.HarnessError, msg
	default: // failed
		switch override {
		case reports.Blocked, reports.Timeout, reports.HarnessError, reports.Unsupported:
			return override, msg
		}
		return reports.Fail, msg
	}
}

func attachLogs(prepared []*preparedPlan, res *reports.Results) {
	failedPlans := map[string]bool{}
	for _, c := range res.Cases {
		if c.Outcome != reports.Pass && c.Outcome != reports.Skipped && c.Outcome != reports.Unsupported {
			failedPlans[c.Plan] = true
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, p := range prepared {
		if failedPlans[p.plan.Name] || p.result.SetupError != "" {
			res.Plans[i].Logs = p.target.Logs(ctx)
		}
	}
}

// WriteReports writes every report format for res into dir: junit.xml
// (or junitPath when set), results.json, summary.md, report.html and
// badge.svg.
func WriteReports(dir, junitPath string, res *reports.Results) error {
	if junitPath == "" {
		junitPath = filepath.Join(dir, "junit.xml")
	}
	return errors.Join(
		reports.WriteFile(junitPath, res, reports.WriteJUnit),
		reports.WriteFile(filepath.Join(dir, "results.json"), res, reports.WriteJSON),
		reports.WriteFile(filepath.Join(dir, "summary.md"), res, reports.WriteMarkdown),
		reports.WriteFile(filepath.Join(dir, "report.html"), res, reports.HTMLWriter(reports.HTMLOptions{Coverage: Coverage(res)})),
		reports.WriteFile(filepath.Join(dir, "badge.svg"), res, reports.WriteBadge),
	)
}

// specRevisions lists the spec revisions the catalogue targets
// (version.Specs, current ones) for the reports.
func specRevisions() []reports.SpecRevision {
	var out []reports.SpecRevision
	for _, s := range version.Specs() {
		if s.Current {
			out = append(out, reports.SpecRevision{Profile: s.Profile, Name: s.Name, Revision: s.Revision, Date: s.Date})
		}
	}
	return out
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}
