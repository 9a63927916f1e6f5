package runner

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Plan is one target run with one profile's suites. A run has one or more
// plans; all of them execute inside a single Ginkgo RunSpecs call (Ginkgo
// allows one per process), each plan with its own suites.Env.
type Plan struct {
	Name    string // unique label for reports, e.g. "labels" or "labels fault=x"
	Target  Target
	Profile string // "nip29" (or its old name "none"), "identity", "labels" or "auto"
	// Sections, when non-empty, restricts the plan to cases citing these
	// section IDs.
	Sections []string
	// Cases, when non-empty, restricts the plan to these case IDs (with
	// Sections too: to the listed cases of those sections). The fault
	// kill test runs only the cases citing a fault's clause.
	Cases []string
	// Findings, when set, is what another process of the run (a parallel
	// run's parent, ProbePlans) observed of this plan's relay: the plan's
	// set-up uses it instead of probing the relay again.
	Findings *Findings
}

// Options configures a run. The zero value plus Plans is usable.
type Options struct {
	Plans       []Plan
	RelayPubKey string // overrides NIP-11 "self" when the relay lacks it
	// RelayURL is the URL the relay knows itself by (--relay-url): signed
	// into AUTH relay tags instead of the URL the harness dials (a tunnel
	// or port forward). Empty: the target's own URL.
	RelayURL  string
	ActorKeys []string // secret keys (hex) for relays that only admit known keys
	Hosts     []string // extra Host header values naming other communities
	// HostKeys are --host-key HOST=HEX values: the secret key the harness
	// signs with in the community HOST names (a Hosts entry, or its host
	// name without the port), for deployments whose communities admit
	// different keys.
	HostKeys []string
	// Header holds extra HTTP headers (--header) sent on the NIP-11 request
	// and every WebSocket upgrade; reports never carry their values.
	Header http.Header
	// CommandTags are extra tags (--command-tag K=V) added to every group
	// command (kinds 9000-9022) the harness signs: a deployment's own
	// admission tags, outside NIP-29 and NIP-CL.
	CommandTags nostr.Tags
	// PoW is the NIP-13 difficulty (--pow N) every event the harness signs
	// is mined to; 0 mines only what a relay publishes in NIP-11
	// (limitation.min_pow_difficulty, up to fixtures.AutoPoW).
	PoW         int
	StepTimeout time.Duration // per network step, default 10s, plus 20 measured round trips
	// Deadline bounds the whole run, setup included; 0 derives one from
	// the plans once they are prepared (cases × their cost at the
	// measured round trip, plus pacing at Rate, with a margin) and prints
	// it to Out.
	Deadline time.Duration
	// Started is when the run began: an explicit Deadline counts from it
	// (zero: from the call). A parallel run's workers get their parent's,
	// so the whole run, the parent's probes and the workers' start
	// included, fits the --deadline.
	Started     time.Time
	ReportDir   string   // default "nipcl-report"
	JUnitPath   string   // default <ReportDir>/junit.xml
	Force       bool     // run NIP-CL cases even when the relay does not advertise nip-cl
	Focus, Skip []string // case ID / area / section patterns
	Scale       int      // distractor count for limit-ordering cases
	// Override replaces the body of the named cases for this run: the
	// harness's own self-tests plant a deliberately wrong judgement
	// (conformance/lawful) and require the lawful-relay property to catch
	// it. Never set by the CLI.
	Override map[string]func(*framework.T)
	Out      io.Writer // progress and summary; nil = io.Discard
	// Baseline lists expected failures; listed failures do not fail the
	// run and listed cases that pass are reported as fixed.
	Baseline *reports.Baseline
	// Safe mode for live relays: delete created channels, pace writes at
	// Rate per second, retry rate-limited answers, skip Heavy cases unless
	// AllowHeavy.
	Safe bool
	Rate float64
	// Pace, when set, is waited on before every write instead of a pacer
	// of this process's own at Rate: a parallel run's workers share one
	// pacer (their parent's), so that Rate holds across all of them.
	Pace       func(ctx context.Context) error
	AllowHeavy bool
	// Slow runs cases that wait on the relay's clock.
	Slow bool
	// Progress draws a live progress line (for terminals) instead of only
	// printing failures.
	Progress bool
	// Shard, when Total > 1, runs only the stable subset of cases that
	// ShardOf assigns to Index (0-based).
	Shard Shard
	// RunID, when set, names the run (shards of one run share it).
	RunID string
	// LabelFilter selects cases by their Ginkgo labels (suites.CaseLabels),
	// in Ginkgo's --label-filter syntax: "labels && MUST && !slow".
	LabelFilter string
	// Claim, when set, makes this process one worker of a case queue
	// shared with other processes (run --parallel): a case runs only when
	// Claim(plan, case ID) grants it, cases are taken longest first, and
	// the results hold only the cases this process ran.
	Claim func(plan, caseID string) bool
	// ResultsOnly writes only results.json to ReportDir: a worker of a
	// parallel run, whose parent merges the workers' results and writes
	// every report once.
	ResultsOnly bool
	// CaseDone, when set, is told of every case this process finished
	// (a worker tells the parent, which draws the progress line).
	CaseDone func(plan, caseID string, failed bool)
	// Seed, when not 0, runs the cases in a random order drawn from it
	// (0: the catalogue's fixed order). A case must pass in any order.
	Seed int64
	// RoleMap names the relay's roles for the harness's role words
	// (admin, owner, member); see suites.Env.RoleMap.
	RoleMap map[string]string
}

// Shard selects the i-th of n stable subsets of the cases.
type Shard struct{ Index, Total int }

// deadlineAt is when an explicit Deadline ends the run: Deadline after
// Started, or after now when Started is zero.
func (o *Options) deadlineAt() time.Time {
	start := o.Started
	if start.IsZero() {
		start = time.Now()
	}
	return start.Add(o.Deadline)
}
