package runner

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/reports"
)

// TestClassify maps every Ginkgo end state (and the outcome a case may
// record itself) to exactly one outcome class; nothing that did not pass
// is ever classified as a pass.
func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		state    types.SpecState
		msg      string
		override reports.Outcome
		want     reports.Outcome
	}{
		{"passed", types.SpecStatePassed, "", "", reports.Pass},
		{"failed", types.SpecStateFailed, "Expected 1 to equal 2", "", reports.Fail},
		{"failed by a step timeout", types.SpecStateFailed, "waiting for OK: timeout after 1s", reports.Timeout, reports.Timeout},
		{"failed setup", types.SpecStateFailed, "setup: no NIP-11", reports.HarnessError, reports.HarnessError},
		{"panicked", types.SpecStatePanicked, "nil map", "", reports.HarnessError},
		{"case timeout", types.SpecStateTimedout, "A node timeout occurred", "", reports.Timeout},
		{"interrupted", types.SpecStateInterrupted, "Interrupted by User", "", reports.NotRun},
		{"aborted", types.SpecStateAborted, "aborted", "", reports.HarnessError},
		{"skipped", types.SpecStateSkipped, "slow case", "", reports.Skipped},
		{"unsupported", types.SpecStateSkipped, "no NIP-50", reports.Unsupported, reports.Unsupported},
		{"blocked", types.SpecStateFailed, "incompatible: the harness needs …", reports.Blocked, reports.Blocked},
		// A Skip message of our own that happens to say "timeout" is a skip:
		// the class comes from the state and the recorded verdict, never
		// from message text.
		{"skipped, message names a timeout", types.SpecStateSkipped, "safe mode: timeout-heavy case", "", reports.Skipped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := types.SpecReport{State: tt.state, Failure: types.Failure{Message: tt.msg}}
			got, _ := classify(r, tt.override)
			if got != tt.want {
				t.Errorf("classify(%v, %q) = %s, want %s", tt.state, tt.override, got, tt.want)
			}
		})
	}
}
