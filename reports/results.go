// Package reports holds the results model of a run and one writer per
// report format (JUnit XML, JSON, Markdown). The runner fills a Results; the
// writers never see Ginkgo.
package reports

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/clause"
)

// Outcome is the class of a case's result.
type Outcome string

// Outcome classes. Exit codes depend on them (see ExitCode).
const (
	Pass         Outcome = "pass"
	Fail         Outcome = "fail"
	Skipped      Outcome = "skipped"     // not applicable to the profile or run
	Unsupported  Outcome = "unsupported" // relay lacks an optional feature
	Timeout      Outcome = "timeout"     // no answer before a deadline
	HarnessError Outcome = "harness-error"
	// Blocked: the target does not meet a precondition the harness needs to
	// drive the case (the target contract); it says nothing about
	// conformance and is reported once per precondition as "incompatible".
	Blocked Outcome = "blocked"
	// NotRun: the harness itself stopped before the case started or while
	// it ran (an interrupt, a cancel, the run's deadline); it says nothing
	// about the relay. A relay that did not answer in time is Timeout.
	NotRun Outcome = "not-run"
)

// Outcomes lists the classes in report order.
var Outcomes = []Outcome{Pass, Fail, Timeout, HarnessError, Blocked, Unsupported, NotRun, Skipped}

// Exit codes of `nipcl-conform run`; stable, documented in README and --help.
const (
	ExitOK      = 0 // every required (MUST) case passed
	ExitFailed  = 1 // a required case failed or timed out
	ExitHarness = 2 // setup or harness error: bad flags, unreachable target, no NIP-11
	ExitBlocked = 3 // no required case failed, but required cases were blocked by unmet preconditions
	// ExitIncomplete: the run was stopped by the harness's own stop (an
	// interrupt, a cancel, the run's deadline) before every case ran; the
	// reports say "incomplete: stopped by … after N of M cases".
	ExitIncomplete = 4
)

// CaseResult is one case run against one plan (target + profile).
type CaseResult struct {
	ID          string       `json:"id"`
	Plan        string       `json:"plan"`
	Profile     string       `json:"profile"`
	Area        string       `json:"area"`
	Section     string       `json:"section"`
	Level       clause.Level `json:"level"`
	Requirement string       `json:"requirement"`
	Reading     string       `json:"reading,omitempty"`
	// Source is whose rule the case enforces: "nip", "draft" or "contract"
	// (clause.Source of the clauses it covers); Ref where the sentence is;
	// Clauses the clause IDs it covers.
	Source  string   `json:"source,omitempty"`
	Ref     string   `json:"ref,omitempty"`
	Clauses []string `json:"clauses,omitempty"`
	// Precondition is the ID of the unmet precondition of a blocked case.
	Precondition string `json:"precondition,omitempty"`
	// Violates is the clause ID a failed case breaks, as the case recorded
	// it: one of Clauses, or a clause of the case's section a shared step
	// checks, or a sentence every read or write is held to (NIP-01's OK
	// rules, a labels snapshot's shape; suites/framework/verdict.go).
	Violates   string   `json:"violates,omitempty"`
	Outcome    Outcome  `json:"outcome"`
	Message    string   `json:"message,omitempty"`
	Location   string   `json:"location,omitempty"`
	Transcript string   `json:"transcript,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	DurationMS int64    `json:"duration_ms"`
	Repro      string   `json:"repro,omitempty"`
	// Baseline is set when a --baseline file lists the case:
	// "expected-failure" or "fixed".
	Baseline string `json:"baseline,omitempty"`
}

// PlanResult describes one target a run used.
type PlanResult struct {
	Name        string `json:"name"`
	Target      string `json:"target"`
	Profile     string `json:"profile"`
	URL         string `json:"url,omitempty"`
	RelayPubKey string `json:"relay_pubkey,omitempty"`
	SetupError  string `json:"setup_error,omitempty"`
	Logs        string `json:"logs,omitempty"`
	Note        string `json:"note,omitempty"`
	// Cleanup is safe mode's account of the channels the run created.
	Cleanup *Cleanup `json:"cleanup,omitempty"`
	// Relay is the target's identity from its NIP-11 document.
	Relay *RelayIdentity `json:"relay,omitempty"`
	// RTTMS is the round trip the harness measured to the relay (a REQ
	// answered by EOSE), in milliseconds; step deadlines grow with it.
	RTTMS float64 `json:"rtt_ms,omitempty"`
	// StepTimeout is the per-step deadline the plan's cases ran with.
	StepTimeout string `json:"step_timeout,omitempty"`
	// Keys is what the capability probe saw each key may do, before any
	// case used it: one row per --actor-key, or one ("generated") for the
	// fresh keys the harness makes when none is passed.
	Keys []KeyFinding `json:"keys,omitempty"`
	// StateEvents is what the probe saw published for its new group, by
	// kind ("39000", "39001", "39002"): "yes" or "no" (absent: not observed).
	StateEvents map[string]string `json:"state_events,omitempty"`
}

// KeyFinding is the capability probe's account of one key.
type KeyFinding struct {
	Label  string `json:"label"`            // "key1" (the first --actor-key) or "generated"
	PubKey string `json:"pubkey,omitempty"` // hex; empty for "generated"
	// Declared is the role given with --actor-key ROLE=HEX ("" = none).
	Declared string `json:"declared,omitempty"`
	// Admitted, MayCreate, ModeratesForeign: "yes", "no" or "" (not observed).
	Admitted         string `json:"admitted,omitempty"`
	MayCreate        string `json:"may_create,omitempty"`
	ModeratesForeign string `json:"moderates_foreign,omitempty"`
	// Kind sums the findings up in words ("creator, unprivileged elsewhere").
	Kind string `json:"kind"`
	// Evidence is the wire answers the findings rest on.
	Evidence []string `json:"evidence,omitempty"`
}

// String renders a finding in one line for summaries.
func (k KeyFinding) String() string {
	or := func(s string) string {
		if s == "" {
			return "not observed"
		}
		return s
	}
	out := k.Label
	if k.PubKey != "" {
		out += " " + shortKey(k.PubKey)
	}
	if k.Declared != "" {
		out += " (declared " + k.Declared + ")"
	}
	return fmt.Sprintf("%s: %s — admitted %s, may create %s, moderates foreign groups %s", out, k.Kind, or(k.Admitted), or(k.MayCreate), or(k.ModeratesForeign))
}

func shortKey(pk string) string {
	if len(pk) > 12 {
		return pk[:12] + "…"
	}
	return pk
}

// RelayIdentity is what a target's NIP-11 document says it is.
type RelayIdentity struct {
	Name     string `json:"name,omitempty"`
	Self     string `json:"self,omitempty"`     // the relay's own key (NIP-29 group state is signed with it)
	Software string `json:"software,omitempty"` // e.g. a repository URL
	Version  string `json:"version,omitempty"`
}

// String describes the relay in one line: "software version (name), self KEY".
func (r *RelayIdentity) String() string {
	if r == nil {
		return ""
	}
	var parts []string
	if sw := strings.TrimSpace(r.Software + " " + r.Version); sw != "" {
		parts = append(parts, sw)
	}
	if r.Name != "" {
		parts = append(parts, "("+r.Name+")")
	}
	out := strings.Join(parts, " ")
	if r.Self != "" {
		if out != "" {
			out += ", "
		}
		out += "self " + r.Self
	}
	return out
}

// SpecRevision is one specification revision the harness's case catalogue
// was written against.
type SpecRevision struct {
	// Profile is the profile whose own cases the revision backs ("nip29":
	// the baseline cases every profile runs).
	Profile string `json:"profile"`
	// Name is a draft's file name or "nostr-protocol/nips NIP-29".
	Name string `json:"name"`
	// Revision is "sha256:" + the first 12 hex digits of the SHA-256 of a
	// draft file, or "git:" + the nostr-protocol/nips commit.
	Revision string `json:"revision"`
	Date     string `json:"date,omitempty"`
}

// String is "name revision (date)".
func (s SpecRevision) String() string {
	out := s.Name + " " + s.Revision
	if s.Date != "" {
		out += " (" + s.Date + ")"
	}
	return out
}

// Cleanup lists what safe mode deleted and what it could not.
type Cleanup struct {
	Deleted int      `json:"deleted"`
	Failed  []string `json:"failed,omitempty"`
}

// Results is everything one run produced.
type Results struct {
	Tool string `json:"tool"`
	// Version and Commit identify the harness build (module version, or
	// "(devel)"; VCS commit, or "unknown"); Modified marks a build from a
	// checkout with uncommitted changes.
	Version  string `json:"version,omitempty"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Catalogue is the fingerprint of the case catalogue that produced the
	// results (suites/testdata/catalogue.golden; `nipcl-conform version`).
	Catalogue string `json:"catalogue,omitempty"`
	// Specs are the specification revisions the catalogue targets.
	Specs       []SpecRevision    `json:"specs,omitempty"`
	RunID       string            `json:"run_id"`
	Started     time.Time         `json:"started"`
	Finished    time.Time         `json:"finished"`
	Settings    map[string]string `json:"settings"`
	Plans       []PlanResult      `json:"plans"`
	Cases       []CaseResult      `json:"cases"`
	Interrupted string            `json:"interrupted,omitempty"`
	// StoppedBy says what stopped the run before every case ran, in words
	// ("an interrupt (SIGINT)", "a cancel (SIGTERM)", "the run's deadline
	// (--deadline 5m0s)"); empty when every case ran. Its cases that never
	// started or were cut short are NotRun.
	StoppedBy string `json:"stopped_by,omitempty"`
	// StoredCounts are the cases per outcome as the file states them:
	// WriteJSON stores every outcome class (zeros included) so that a
	// reader can check them against the cases (`nipcl-conform report
	// verify`). Nil in memory until read back; use Counts for the tally.
	StoredCounts map[Outcome]int `json:"counts,omitempty"`
	// Digest is "sha256:" + the SHA-256 of the file's canonical JSON without
	// this field (see Digest), set by WriteJSON: a check that the file was
	// not edited after it was written. Not a signature: anyone can recompute
	// it.
	Digest string `json:"digest,omitempty"`
}

// SpecsForProfile returns the revisions a plan of the profile was checked
// against: the NIP-29 baseline and the profile's own draft.
func (r *Results) SpecsForProfile(profile string) []SpecRevision {
	var out []SpecRevision
	for _, s := range r.Specs {
		if s.Profile == "nip29" || s.Profile == profile {
			out = append(out, s)
		}
	}
	return out
}

// Counts returns the number of cases per outcome.
func (r *Results) Counts() map[Outcome]int {
	m := map[Outcome]int{}
	for _, c := range r.Cases {
		m[c.Outcome]++
	}
	return m
}

// Failing reports whether c makes the run fail: a MUST case (or, with
// strict, a SHOULD case) that failed, timed out or hit a harness error.
func Failing(c CaseResult, strict bool) bool {
	switch c.Outcome {
	case Fail, Timeout, HarnessError:
	default:
		return false
	}
	if c.Baseline == BaselineExpected {
		return false
	}
	return c.Level == "MUST" || (strict && c.Level == "SHOULD")
}

// ExitCode applies the exit policy: 2 when any plan could not be set up or
// a case hit a harness error, 4 when the run was stopped before every case
// ran (Incomplete), 1 when a required case failed or timed out or the
// relay lacks nip-cl (LacksNIPCL), 3 when none did but a required case was
// blocked by an unmet precondition, 0 otherwise.
func (r *Results) ExitCode(strict bool) int {
	for _, p := range r.Plans {
		if p.SetupError != "" {
			return ExitHarness
		}
	}
	for _, c := range r.Cases {
		if c.Outcome == HarnessError {
			return ExitHarness
		}
	}
	if r.Incomplete() {
		return ExitIncomplete
	}
	code := ExitOK
	for _, c := range r.Cases {
		if Failing(c, strict) {
			code = ExitFailed
		}
		if code == ExitOK && c.Outcome == Blocked && c.Level == "MUST" && c.Baseline != BaselineExpected {
			code = ExitBlocked
		}
	}
	if code == ExitOK && r.LacksNIPCL() {
		code = ExitFailed
	}
	return code
}

// LacksNIPCL reports whether a plan's relay was checked for NIP-CL (an
// identity, labels or auto profile) and does not advertise "nip-cl": a
// NIP-CL harness then fails it, whatever its NIP-29 baseline did.
func (r *Results) LacksNIPCL() bool {
	for _, p := range r.Plans {
		if strings.Contains(p.Note, `does not advertise "nip-cl"`) {
			return true
		}
	}
	return false
}

// Sort orders cases by plan, then ID.
func (r *Results) Sort() {
	sort.SliceStable(r.Cases, func(i, j int) bool {
		if r.Cases[i].Plan != r.Cases[j].Plan {
			return r.Cases[i].Plan < r.Cases[j].Plan
		}
		return r.Cases[i].ID < r.Cases[j].ID
	})
}

// Incompatibility is one unmet precondition and the cases it blocked.
type Incompatibility struct {
	Plan         string   `json:"plan"`
	Precondition string   `json:"precondition"`
	Message      string   `json:"message"` // the first blocked case's message (first line)
	Cases        []string `json:"cases"`
}

// Incompatibilities are the blocked root causes (Causes groups blocked
// cases by plan and precondition), ordered by plan, then most cases first:
// one line per thing the target does not offer.
func (r *Results) Incompatibilities() []Incompatibility {
	var out []Incompatibility
	for _, k := range r.Causes() {
		if k.Outcome == Blocked {
			out = append(out, Incompatibility{Plan: k.Plan, Precondition: k.Precondition, Message: k.Example, Cases: k.Cases})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Plan != out[j].Plan {
			return out[i].Plan < out[j].Plan
		}
		return len(out[i].Cases) > len(out[j].Cases)
	})
	return out
}
