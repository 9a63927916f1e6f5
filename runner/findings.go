package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// Findings is what a plan's set-up observed of its relay before any case:
// the link probe (round trip, AUTH challenge on connect), the profile
// (detected by behaviour for "auto") and the capability probe. A parallel
// run's parent observes them once per plan (ProbePlans) and hands them to
// every worker (Plan.Findings), which then skips those probes: the relay
// gets one probe's writes instead of one per worker, and every worker
// checks the same profile with the same step timeout and the same keys'
// findings. It is JSON (the worker's description carries it).
type Findings struct {
	RTT       time.Duration `json:"rtt"`
	Challenge bool          `json:"challenge,omitempty"`
	// Profile and Note are the plan's resolved profile and what was said
	// about it (resolveProfile, or the detection for "auto").
	Profile string `json:"profile"`
	Note    string `json:"note,omitempty"`
	// Keys are the capability probe's findings, one per --actor-key in
	// order, or one row for the generated keys.
	Keys         []KeyFinding              `json:"keys"`
	State        map[int]capability.Answer `json:"state,omitempty"`
	CreatorRoles []string                  `json:"creator_roles,omitempty"`
	// Previous and PreviousEvidence: the NIP-29 timeline references the
	// relay was seen to require (capability.Findings.Previous).
	Previous         int             `json:"previous,omitempty"`
	PreviousEvidence []string        `json:"previous_evidence,omitempty"`
	StateDelays      []time.Duration `json:"state_delays,omitempty"`
	// Deleted and Undeleted are the probe's groups it deleted and could
	// not delete (safe mode reports them): one worker reports them.
	Deleted   int      `json:"deleted,omitempty"`
	Undeleted []string `json:"undeleted,omitempty"`
	// Failed, when set, is the plan as its failed set-up left it (its
	// setup_error says why; FailedTimedOut: the relay left a step
	// unanswered): the run reports it without probing the relay again,
	// which for a silent relay would wait out the same step timeouts
	// once more in every worker.
	Failed         *reports.PlanResult `json:"failed,omitempty"`
	FailedTimedOut bool                `json:"failed_timed_out,omitempty"`
	// NIP11 is the relay's NIP-11 document as the probe read it: a worker
	// starts from it instead of fetching it again (a round trip each,
	// while the workers grow).
	NIP11 string `json:"nip11,omitempty"`
}

// maxHandedNIP11 is the largest NIP-11 document Findings carries: a
// worker's description travels in one environment variable, which Linux
// caps at 128 KiB; a larger document is fetched by each worker.
const maxHandedNIP11 = 16 << 10

// handedNIP11 is the document Findings carries: raw, or none when it is
// larger than maxHandedNIP11.
func handedNIP11(raw string) string {
	if len(raw) > maxHandedNIP11 {
		return ""
	}
	return raw
}

// relayInfo is the NIP-11 document the probe read (nil without one, f
// nil included): the document a fetch would give, Raw as served.
func (f *Findings) relayInfo() *fixtures.RelayInfo {
	if f == nil || f.NIP11 == "" {
		return nil
	}
	info, err := fixtures.ParseInfo([]byte(f.NIP11))
	if err != nil {
		return nil // not what a fetch accepted: fetch it
	}
	return info
}

// KeyFinding is one key's row of Findings (capability.Key without its
// secret: a worker parses the same --actor-key values itself).
type KeyFinding struct {
	Label            string            `json:"label"`
	Generated        bool              `json:"generated,omitempty"`
	Declared         capability.Role   `json:"declared,omitempty"`
	Admitted         capability.Answer `json:"admitted,omitempty"`
	MayCreate        capability.Answer `json:"may_create,omitempty"`
	ModeratesForeign capability.Answer `json:"moderates_foreign,omitempty"`
	Evidence         []string          `json:"evidence,omitempty"`
}

// ProbePlans prepares every plan as Run would — NIP-11, the link probe,
// profile detection, the capability probe — without running a case, and
// returns each plan's findings (for a plan whose set-up failed, the
// failure: Findings.Failed) and the profiles the plans resolved to
// (preparedProfiles). The plans' targets must already be
// started (StartedTarget). runID must be the run's (the probe's labels
// carry it).
func ProbePlans(ctx context.Context, opts Options, runID string) ([]*Findings, []string) {
	opts.defaults()
	if opts.Deadline > 0 {
		// As in Run: an explicit deadline bounds the set-up too (the
		// capability probe takes at most a third of what is left).
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, opts.deadlineAt(), StopByDeadline(opts.Deadline))
		defer cancel()
	}
	prepared := make([]*preparedPlan, len(opts.Plans))
	var wg sync.WaitGroup
	for i, plan := range opts.Plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prepared[i] = prepare(ctx, &opts, plan, runID)
		}()
	}
	wg.Wait()
	out := make([]*Findings, len(prepared))
	for i, p := range prepared {
		if p.env.SetupErr == nil {
			out[i] = p.findings
			continue
		}
		failed := p.result
		out[i] = &Findings{Failed: &failed, FailedTimedOut: p.env.SetupTimedOut,
			Deleted: p.probeDeleted, Undeleted: p.probeUndeleted}
	}
	return out, preparedProfiles(prepared)
}

// findingsOf records what prepare observed, for ProbePlans.
func findingsOf(link linkProbe, profile, note string, found *capability.Findings) *Findings {
	f := &Findings{RTT: link.rtt, Challenge: link.challenge, Profile: profile, Note: note,
		State: found.State, CreatorRoles: found.CreatorRoles, StateDelays: found.StateDelays,
		Previous: found.Previous, PreviousEvidence: found.PreviousEvidence,
		Deleted: found.Deleted, Undeleted: found.Undeleted}
	for _, k := range found.Keys {
		f.Keys = append(f.Keys, KeyFinding{Label: k.Label, Generated: k.Generated, Declared: k.Declared,
			Admitted: k.Admitted, MayCreate: k.MayCreate, ModeratesForeign: k.ModeratesForeign, Evidence: k.Evidence})
	}
	return f
}

// applyKeyFindings gives env and the plan's report the capability probe's
// findings another process observed, as probeKeys does with its own:
// declared are this process's --actor-key keys, in the order the findings
// have them.
func applyKeyFindings(env *suites.Env, declared []*capability.Key, f *Findings, result *reports.PlanResult) error {
	keys := make([]*capability.Key, len(f.Keys))
	switch {
	case len(declared) == 0 && len(f.Keys) == 1 && f.Keys[0].Generated:
		// The generated row stands for every fresh key; cases draw their
		// own (T.ActorAs), this one only names the row.
		keys[0] = &capability.Key{Actor: fixtures.NewActor("generated")}
	case len(declared) == len(f.Keys):
		copy(keys, declared)
	default:
		return fmt.Errorf("the run's probe found %d keys, this process has %d --actor-key values", len(f.Keys), len(declared))
	}
	for i, kf := range f.Keys {
		k := keys[i]
		if !kf.Generated && k.Label != kf.Label {
			return fmt.Errorf("the run's probe found key %s where this process has %s", kf.Label, k.Label)
		}
		k.Label, k.Generated, k.Declared = kf.Label, kf.Generated, kf.Declared
		k.Admitted, k.MayCreate, k.ModeratesForeign, k.Evidence = kf.Admitted, kf.MayCreate, kf.ModeratesForeign, kf.Evidence
	}
	recordKeyFindings(env, &capability.Findings{Keys: keys, State: f.State, CreatorRoles: f.CreatorRoles, StateDelays: f.StateDelays,
		Previous: f.Previous, PreviousEvidence: f.PreviousEvidence}, result)
	return nil
}
