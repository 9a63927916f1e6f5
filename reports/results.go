// Package reports holds the results model of a run and one writer per
// report format (JUnit XML, JSON, Markdown). The runner fills a Results; the
// writers never see Ginkgo.
package reports

import (
	"sort"
	"time"
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
)

// Outcomes lists the classes in report order.
var Outcomes = []Outcome{Pass, Fail, Timeout, HarnessError, Unsupported, Skipped}

// Exit codes of `nipcl-conform run`; stable, documented in README and --help.
const (
	ExitOK      = 0 // every required (MUST) case passed
	ExitFailed  = 1 // a required case failed or timed out
	ExitHarness = 2 // setup or harness error: bad flags, unreachable target, no NIP-11
)

// CaseResult is one case run against one plan (target + profile).
type CaseResult struct {
	ID          string   `json:"id"`
	Plan        string   `json:"plan"`
	Profile     string   `json:"profile"`
	Area        string   `json:"area"`
	Section     string   `json:"section"`
	Level       string   `json:"level"`
	Requirement string   `json:"requirement"`
	Reading     string   `json:"reading,omitempty"`
	Outcome     Outcome  `json:"outcome"`
	Message     string   `json:"message,omitempty"`
	Location    string   `json:"location,omitempty"`
	Transcript  string   `json:"transcript,omitempty"`
	Notes       []string `json:"notes,omitempty"`
	DurationMS  int64    `json:"duration_ms"`
	Repro       string   `json:"repro,omitempty"`
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
}

// Cleanup lists what safe mode deleted and what it could not.
type Cleanup struct {
	Deleted int      `json:"deleted"`
	Failed  []string `json:"failed,omitempty"`
}

// Results is everything one run produced.
type Results struct {
	Tool        string            `json:"tool"`
	RunID       string            `json:"run_id"`
	Started     time.Time         `json:"started"`
	Finished    time.Time         `json:"finished"`
	Settings    map[string]string `json:"settings"`
	Plans       []PlanResult      `json:"plans"`
	Cases       []CaseResult      `json:"cases"`
	Interrupted string            `json:"interrupted,omitempty"`
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
// a case hit a harness error, 1 when a required case failed or timed out,
// 0 otherwise.
func (r *Results) ExitCode(strict bool) int {
	for _, p := range r.Plans {
		if p.SetupError != "" {
			return ExitHarness
		}
	}
	code := ExitOK
	for _, c := range r.Cases {
		if c.Outcome == HarnessError {
			return ExitHarness
		}
		if Failing(c, strict) {
			code = ExitFailed
		}
	}
	return code
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
