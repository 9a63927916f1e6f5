package reports

import (
	"fmt"
	"path/filepath"
)

// Incomplete reports whether the run was stopped by the harness's own stop
// (an interrupt, a cancel, the run's deadline) before every case ran.
func (r *Results) Incomplete() bool {
	if r.StoppedBy != "" {
		return true
	}
	for _, c := range r.Cases {
		if c.Outcome == NotRun {
			return true
		}
	}
	return false
}

// Progress counts the cases of a run that were to run (every case but
// skipped ones) and how many of them ran to an end (every one but NotRun).
func (r *Results) Progress() (done, total int) {
	for _, c := range r.Cases {
		switch c.Outcome {
		case Skipped:
		case NotRun:
			total++
		default:
			total++
			done++
		}
	}
	return done, total
}

// KnownFailures counts the cases a --baseline lists that still do not
// pass (marked BaselineExpected).
func (r *Results) KnownFailures() int {
	n := 0
	for _, c := range r.Cases {
		if c.Baseline == BaselineExpected && c.Outcome != Pass {
			n++
		}
	}
	return n
}

// BaselineFile is the --baseline file a run was judged with ("" = none).
func (r *Results) BaselineFile() string { return r.Settings["baseline"] }

// Headline is the one line every report (terminal, summary.md,
// report.html, junit.xml, `report verify`) leads with; it agrees with
// ExitCode:
//   - "could not complete (setup or harness error)";
//   - "incomplete: stopped by … after N of M cases (P passed, F not
//     passing)" for a run the harness stopped;
//   - "does not conform" (with why, when no MUST case failed: the relay
//     lacks nip-cl);
//   - "incomplete: no MUST case failed, but …" when MUST cases were blocked;
//   - "conforms except N known failures (baseline FILE)" when a baseline
//     excused failures;
//   - "conforms (every MUST case passed)".
func Headline(r *Results) string {
	switch r.ExitCode(false) {
	case ExitOK:
		if n := r.KnownFailures(); n > 0 {
			return fmt.Sprintf("conforms except %d known %s (baseline %s)", n, plural(n, "failure", "failures"), filepath.Base(r.BaselineFile()))
		}
		return "conforms (every MUST case passed)"
	case ExitFailed:
		for _, c := range r.Cases {
			if Failing(c, false) {
				return "does not conform"
			}
		}
		return "does not conform: the relay does not advertise \"nip-cl\" (every MUST case of its NIP-29 baseline passed)"
	case ExitBlocked:
		return "incomplete: no MUST case failed, but the target does not meet preconditions some MUST cases need"
	case ExitIncomplete:
		return incompleteLine(r)
	default:
		return "could not complete (setup or harness error)"
	}
}

// incompleteLine is the headline of a run the harness stopped.
func incompleteLine(r *Results) string {
	done, total := r.Progress()
	by := r.StoppedBy
	if by == "" {
		by = "the harness"
	}
	passed, notPassing := 0, 0
	for _, c := range r.Cases {
		switch c.Outcome {
		case Pass:
			passed++
		case Fail, Timeout, HarnessError, Blocked:
			if c.Baseline != BaselineExpected {
				notPassing++
			}
		}
	}
	return fmt.Sprintf("incomplete: stopped by %s after %d of %d cases (%d passed, %d not passing; not a verdict on the relay)", by, done, total, passed, notPassing)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
