package conformance

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
)

// The synthetic section "s" has two clauses: s.1 cited by x/a/1 and
// x/a/2, s.2 cited by x/b/1 and x/a/2 (which cites both).
var judgeIndex = map[string][]string{
	"s.1": {"x/a/1", "x/a/2"},
	"s.2": {"x/a/2", "x/b/1"},
}

// judgeResults builds results; a failure records, as a case would, the
// clause it broke: its only clause, or the one violates names for a case
// citing several (x/a/2; none when violates has no entry).
func judgeResults(outcomes map[string]reports.Outcome, violates map[string]string) []reports.CaseResult {
	only := map[string]string{"x/a/1": "s.1", "x/b/1": "s.2"}
	var out []reports.CaseResult
	for id, o := range outcomes {
		c := reports.CaseResult{ID: id, Section: "s", Outcome: o}
		if o == reports.Fail {
			c.Violates = only[id]
			if v, ok := violates[id]; ok {
				c.Violates = v
			}
		}
		out = append(out, c)
	}
	return out
}

func TestJudgeKill(t *testing.T) {
	for _, tc := range []struct {
		name         string
		clause       string
		outcomes     map[string]reports.Outcome
		violates     map[string]string // recorded clause of a failing case (default: its only one)
		killers      []string
		bystanders   []string
		unattributed []string
		why          string // substring of Why when it survives
	}{
		{name: "a case citing the clause fails", clause: "s.1",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Pass, "x/a/2": reports.Fail, "x/b/1": reports.Pass},
			violates: map[string]string{"x/a/2": "s.1"},
			killers:  []string{"x/a/2"}},
		// A case citing both clauses that recorded the other one is a
		// bystander: its failure broke another sentence.
		{name: "a citing case failing at another of its clauses does not count", clause: "s.1",
			outcomes:   map[string]reports.Outcome{"x/a/1": reports.Pass, "x/a/2": reports.Fail, "x/b/1": reports.Pass},
			violates:   map[string]string{"x/a/2": "s.2"},
			bystanders: []string{"x/a/2"}, why: "only cases of other clauses did: x/a/2"},
		{name: "a failure without a recorded clause is unattributed, and a citing one still kills", clause: "s.1",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Pass, "x/a/2": reports.Fail, "x/b/1": reports.Pass},
			killers:  []string{"x/a/2"}, unattributed: []string{"x/a/2"}},
		{name: "a timeout of a citing case counts", clause: "s.1",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Timeout, "x/b/1": reports.Pass},
			killers:  []string{"x/a/1"}},
		{name: "other clauses' failures are reported beside the killers", clause: "s.2",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Fail, "x/b/1": reports.Fail},
			killers:  []string{"x/b/1"}, bystanders: []string{"x/a/1"}},
		// The deliberately mislabelled fault: it names s.2, but only a case
		// of s.1 (same section) fails. Section-level judging called this
		// killed; it survived.
		{name: "mislabelled fault: only another clause's case fails", clause: "s.2",
			outcomes:   map[string]reports.Outcome{"x/a/1": reports.Fail, "x/a/2": reports.Fail, "x/b/1": reports.Pass},
			violates:   map[string]string{"x/a/2": "s.1"},
			bystanders: []string{"x/a/1", "x/a/2"}, why: "only cases of other clauses did: x/a/1 x/a/2"},
		{name: "blocked, unsupported and harness errors never kill", clause: "s.1",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Blocked, "x/a/2": reports.Unsupported, "x/b/1": reports.HarnessError},
			why:      "no case citing s.1 failed (ran 3)"},
		{name: "no case ran", clause: "s.1", outcomes: nil, why: "no case ran"},
		{name: "clause without cases", clause: "s.3",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Fail}, bystanders: []string{"x/a/1"},
			why: "no case cites its clause s.3"},
		{name: "fault without a clause", clause: "",
			outcomes: map[string]reports.Outcome{"x/a/1": reports.Fail}, bystanders: []string{"x/a/1"},
			why: "names no clause"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := reference.Fault{Name: "synthetic", Section: "s", Clause: tc.clause}
			v := judgeKill(f, "nip29", judgeResults(tc.outcomes, tc.violates), judgeIndex)
			if !reflect.DeepEqual(v.Killers, tc.killers) {
				t.Errorf("killers: expected %v, observed %v", tc.killers, v.Killers)
			}
			if !reflect.DeepEqual(v.Bystanders, tc.bystanders) {
				t.Errorf("bystanders: expected %v, observed %v", tc.bystanders, v.Bystanders)
			}
			if !reflect.DeepEqual(v.Unattributed, tc.unattributed) {
				t.Errorf("unattributed: expected %v, observed %v", tc.unattributed, v.Unattributed)
			}
			if survived := tc.killers == nil; v.Survived != survived {
				t.Errorf("survived: expected %v, observed %v (%s)", survived, v.Survived, v.Why)
			}
			if !strings.Contains(v.Why, tc.why) || (tc.why == "") != (v.Why == "") {
				t.Errorf("why: expected %q, observed %q", tc.why, v.Why)
			}
		})
	}
}

func TestKillCases(t *testing.T) {
	index := map[string][]string{"s.1": {"x/other/1", "x/a/1", "x/a/1"}, "s.2": {"x/b/1"}}
	f := reference.Fault{Name: "synthetic", Section: "s", Clause: "s.1"}
	if got, want := killCases(f, index), []string{"x/a/1", "x/other/1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cases: expected %v, observed %v", want, got)
	}
	if got := killCases(reference.Fault{Name: "none", Clause: "s.9"}, index); len(got) != 0 {
		t.Errorf("a clause no case cites: expected no case, observed %v", got)
	}
}
