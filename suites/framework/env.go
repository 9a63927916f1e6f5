package framework

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// Env is the per-run configuration one target's specs read. The runner
// builds one Env per plan; specs never read anything global.
type Env struct {
	// Plan labels the target in reports ("labels", "identity fault=x", …).
	Plan string
	// Profile is what the target is checked against: "nip29" (NIP-29
	// only), "identity" or "labels".
	Profile string
	// GroupID, when set, mints the group id of a case's bare 9007 where the
	// profile constrains it (suites.Define sets the profile's: the labels
	// draft requires a UUID for every h-tagged creation); nil: an ordinary
	// NIP-29 id (T.NewGroupID).
	GroupID func() string
	// URL is the relay's WebSocket URL.
	URL string
	// RelayURL is the URL the relay knows itself by, when it is not URL:
	// the target's own URL behind a delay proxy (--simulate-rtt), the URL
	// --relay-url names behind a tunnel. AUTH relay tags carry it
	// (SelfURL).
	RelayURL string
	// RelayPubKey is the key relay-signed state events must carry.
	RelayPubKey string
	// Info is the relay's NIP-11 document (nil when it could not be read).
	Info *fixtures.RelayInfo
	// StepTimeout bounds each network step; CaseTimeout bounds a whole case.
	StepTimeout time.Duration
	CaseTimeout time.Duration
	// AuthOnConnect: the relay sends its AUTH challenge on connect, so
	// clients authenticate before their first command.
	AuthOnConnect bool
	// Hosts are extra Host header values that address other communities of
	// the same relay (empty: community isolation cases are unsupported).
	Hosts []string
	// HostKeys are the keys the harness signs with in another community
	// (--host-key HOST=HEX), by Hosts entry, for deployments whose
	// communities admit different keys. A community without one is
	// written to with the same actor as the first (T.HostActor).
	HostKeys map[string]*fixtures.Actor
	// Header holds extra HTTP headers (--header) sent on every WebSocket
	// upgrade and NIP-11 request; never written to reports in clear.
	Header http.Header
	// CommandTags are extra tags the deployment requires on every group
	// command (--command-tag; outside NIP-29 and NIP-CL): every case actor
	// adds them to the commands it signs (fixtures.Actor.CommandTags).
	CommandTags nostr.Tags
	// PoW is the NIP-13 difficulty every event a case signs is mined to
	// (fixtures.Actor.PoW): --pow, or the relay's published
	// limitation.min_pow_difficulty up to fixtures.AutoPoW.
	PoW int
	// Previous is how many NIP-29 timeline references the relay was seen
	// to require on group events (capability.Findings.Previous; 0 = not
	// seen): every case actor then adds them to the group events it
	// publishes without a previous tag (fixtures.Actor.Previous).
	Previous int
	// Scale is the distractor count for limit-ordering cases.
	Scale int
	// Rounds is how many times race scenarios repeat.
	Rounds int
	// RunID is unique per run; names and labels carry it so runs on a
	// shared relay never see each other's data.
	RunID string
	// Instance is random per process (per plan): names and labels carry it
	// beside the run ID, so shards that share a run ID (--parallel, or
	// --shard on several machines) never mint the same value.
	Instance string
	// Keys are configured actor keys for relays that only admit known keys;
	// empty means fresh random keys.
	Keys []*fixtures.Actor
	// KeyCaps is the capability probe's finding (package capability): one
	// per configured key, in Keys' order, or, with no configured keys, one
	// row (Generated) for every fresh key. Nil: not probed; keys are then
	// handed out in order and fresh keys are assumed to fit every actor.
	KeyCaps []*capability.Key
	// StatePublished is the probe's finding of which state kinds (39000,
	// 39001, 39002) the relay publishes for a new group: the relay-wide
	// precondition those kinds are, judged once before the cases.
	StatePublished map[int]capability.Answer
	// ProbedCreatorRoles are the roles the probe's own 39001 gave its
	// group's creator, the whole set (nil = none seen): the moderating
	// roles a case falls back on when its own group's 39001 is gone
	// (NIP-29 allows none).
	ProbedCreatorRoles []string
	// RoleMap names the relay's roles for the harness's role words
	// ("admin", "owner", "member"): --role-map admin=moderator. Empty: the
	// NIP-29 cases learn the moderating role from 39001.
	RoleMap map[string]string
	// Override, when set, replaces the body of the named cases (the
	// harness's self-tests plant a wrong judgement to prove a property
	// catches it); the case keeps its ID, clauses and level.
	Override map[string]func(*T)
	// Include, when set, selects the cases this plan registers.
	Include func(Case) bool
	// Claim, when set, makes this process one worker of a queue shared
	// with other processes: a case runs here only when Claim(case ID)
	// grants it; otherwise it is left out of this process's results.
	Claim func(caseID string) bool
	// Priority, when set, orders cases: higher runs first (the runner
	// gives long cases a high one, so a queue ends with short cases).
	Priority func(Case) int
	// Unsupported, when non-empty, marks every NIP-CL profile case of this
	// plan unsupported with this sentence (relay does not advertise nip-cl).
	Unsupported string
	// SetupErr, when set, makes every case of this plan report it instead
	// of running (unreachable target, no NIP-11 …).
	SetupErr error
	// SetupTimedOut classifies SetupErr as a timeout rather than an error.
	SetupTimedOut bool

	// Slow runs cases marked Slow (they wait on the relay's clock).
	Slow bool
	// Safe is safe mode for live deployments: every channel a case creates
	// is deleted (9008) when the case ends, writes are paced by Pace,
	// "rate-limited:" answers are retried with backoff, and Heavy cases are
	// skipped unless AllowHeavy.
	Safe       bool
	AllowHeavy bool
	// Pace, when set, is called before every write a case makes (rate limit).
	Pace func(ctx context.Context) error
	// Cleanup receives the channels a safe-mode case could not delete.
	Cleanup *CleanupLog

	// Delays are the OK→state delays the relay has shown in this plan
	// (the capability probe's and every settled wait's): the settle
	// window of a wait for something that may never come (settle.go).
	Delays *Delays

	// seq numbers unique names and labels across every case of the plan.
	seq atomic.Int64
}

// nextSeq returns a number unique within this plan's run.
func (e *Env) nextSeq() int64 { return e.seq.Add(1) }

// UniqueToken returns prefix-<run ID>[-<instance>]-<n>: unique across the
// processes of a run and within one (lowercase letters, digits and '-').
func (e *Env) UniqueToken(prefix string) string {
	if e.Instance == "" {
		return fmt.Sprintf("%s-%s-%d", prefix, e.RunID, e.nextSeq())
	}
	return fmt.Sprintf("%s-%s-%s-%d", prefix, e.RunID, e.Instance, e.nextSeq())
}

// CleanupLog collects safe-mode cleanup failures across cases.
type CleanupLog struct {
	mu       sync.Mutex
	deleted  int
	failures []string
}

func (l *CleanupLog) add(ok bool, what string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if ok {
		l.deleted++
		return
	}
	l.failures = append(l.failures, what)
}

// Result returns how many channels were deleted and what could not be.
func (l *CleanupLog) Result() (int, []string) {
	if l == nil {
		return 0, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.deleted, append([]string(nil), l.failures...)
}

// Applies reports whether this plan registers case c.
func (e *Env) Applies(c Case) bool {
	if c.Profile != ProfileBaseline && c.Profile != e.Profile && !(e.Profile == ProfileNIP29 && e.Unsupported != "") {
		return false
	}
	if e.Include != nil && !e.Include(c) {
		return false
	}
	return true
}

func (e *Env) defaults() {
	if e.Delays == nil {
		e.Delays = &Delays{}
	}
	if e.StepTimeout <= 0 {
		e.StepTimeout = 10 * time.Second
	}
	if e.CaseTimeout <= 0 {
		e.CaseTimeout = 12 * e.StepTimeout
		if e.CaseTimeout < 30*time.Second {
			e.CaseTimeout = 30 * time.Second
		}
	}
	if e.Scale <= 0 {
		e.Scale = 200
	}
	if e.Rounds <= 0 {
		e.Rounds = 20
	}
}

// SelfURL is the URL the relay knows itself by: RelayURL, else URL. The
// harness signs it into NIP-42 AUTH relay tags and uses it for relay hints.
func (e *Env) SelfURL() string {
	if e.RelayURL != "" {
		return e.RelayURL
	}
	return e.URL
}
