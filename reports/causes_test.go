package reports

import (
	"strings"
	"testing"
)

// TestCausesGroupOneBrokenRule: the same broken rule seen in several cases
// (different ids and values in each message) is one root cause; another
// symptom is another cause; blocked cases group by their precondition;
// the cause explaining most cases comes first.
func TestCausesGroupOneBrokenRule(t *testing.T) {
	r := &Results{Cases: []CaseResult{
		{ID: "labels/a/1", Plan: "labels", Section: "labels/snapshot", Level: "MUST", Outcome: Fail,
			Message: `snapshot 0123456789abcdef0123: l tags are not sorted, got "b-1f2e3d4c-7" before "a-1f2e3d4c-8"`},
		{ID: "labels/b/2", Plan: "labels", Section: "labels/add-remove", Level: "MUST", Outcome: Fail,
			Message: `snapshot fedcba9876543210fedc: l tags are not sorted, got "z-1f2e3d4c-90" before "y-1f2e3d4c-91"`},
		{ID: "labels/c/3", Plan: "labels", Section: "labels/scope", Level: "SHOULD", Outcome: Fail,
			Message: `snapshot aaaaaaaaaaaaaaaaaaaa: l tags are not sorted, got "q" before "p"`},
		{ID: "labels/d/4", Plan: "labels", Section: "labels/responses", Level: "MUST", Outcome: Fail,
			Message: `retry answered "error: x", want duplicate: nip-cl-committed`},
		{ID: "base/x/1", Plan: "labels", Outcome: Blocked, Precondition: "flag-hidden", Message: "incompatible: one"},
		{ID: "base/x/2", Plan: "labels", Outcome: Blocked, Precondition: "flag-hidden", Message: "incompatible: two"},
		{ID: "labels/e/5", Plan: "labels", Outcome: Pass},
		{ID: "base/read/1", Plan: "labels", Level: "MUST", Outcome: Fail, Violates: "nip29/read-access.1", Message: "NIP-29 (nip29/read-access.1): an outsider read 1 event"},
		{ID: "base/read/2", Plan: "labels", Level: "SHOULD", Outcome: Fail, Violates: "nip29/read-access.1", Message: "NIP-29 (nip29/read-access.1): an outsider got a private group's message abc"},
	}}
	causes := r.Causes()
	if len(causes) != 4 {
		t.Fatalf("%d causes, want 4 (unsorted snapshots, the two read-access failures breaking one clause (Violates), the blocked pair, the retry answer): %+v", len(causes), causes)
	}
	if got := causes[0].Cases; len(got) != 3 || causes[0].Level != "MUST" || len(causes[0].Sections) != 3 {
		t.Errorf("first cause: cases %v, level %s, sections %v; want the three unsorted-snapshot cases, MUST, three sections", got, causes[0].Level, causes[0].Sections)
	}
	var blocked, cited *Cause
	for i := range causes {
		switch {
		case causes[i].Outcome == Blocked:
			blocked = &causes[i]
		case len(causes[i].Cases) == 2:
			cited = &causes[i]
		}
	}
	if blocked == nil || len(blocked.Cases) != 2 || blocked.Source != "contract" {
		t.Errorf("want the two blocked cases as one cause whose rule is the target contract: %+v", causes)
	}
	if cited == nil || cited.Cases[0] != "base/read/1" || cited.Cases[1] != "base/read/2" {
		t.Errorf("want the two cases citing nip29/read-access.1 as one cause: %+v", causes)
	}
	if id := CauseOf(causes, r.Cases[1]); id != causes[0].ID || id == "" {
		t.Errorf("CauseOf(labels/b/2) = %q, want %q", id, causes[0].ID)
	}
	if id := CauseOf(causes, r.Cases[6]); id != "" {
		t.Errorf("a passing case has cause %q", id)
	}
	if again := r.Causes(); again[0].ID != causes[0].ID {
		t.Errorf("cause IDs are not stable: %s then %s", causes[0].ID, again[0].ID)
	}
}

// TestCausesOneFaultOneCause: failures that recorded one clause are one
// root cause whatever their messages, cases and sections (the run of one
// fault), and the cause names the clause's section and sentence, not the
// cases'; a failure of the same plan that recorded another clause is
// another cause, and one that recorded none is grouped by its symptom.
func TestCausesOneFaultOneCause(t *testing.T) {
	r := &Results{Cases: []CaseResult{
		{ID: "labels/add-remove/3", Plan: "labels fault=labels-unsorted", Section: "labels/add-remove", Level: "MUST", Outcome: Fail, Violates: "labels/snapshot.4",
			Message: `snapshot 0123456789abcdef0123: l tags are deduplicated and sorted by ASCII value, got "b" before "a"`},
		{ID: "labels/snapshot/1", Plan: "labels fault=labels-unsorted", Section: "labels/snapshot", Level: "MUST", Outcome: Fail, Violates: "labels/snapshot.4",
			Message: `channel x: current label set: expected ["a", "b"], observed ["b", "a"]`},
		{ID: "labels/scope/5", Plan: "labels fault=labels-unsorted", Section: "labels/scope", Level: "SHOULD", Outcome: Fail, Violates: "labels/snapshot.4",
			Message: `archived channel found by label: expected [x], observed []`},
		{ID: "labels/responses/2", Plan: "labels fault=labels-unsorted", Section: "labels/responses", Level: "MUST", Outcome: Fail, Violates: "labels/responses.8",
			Message: `add: expected ["OK",…,true,""], got ["OK",…,true,"x"]`},
		{ID: "labels/x/9", Plan: "labels fault=labels-unsorted", Section: "labels/x", Level: "MUST", Outcome: Fail,
			Message: `something else`},
	}}
	causes := r.Causes()
	if len(causes) != 3 {
		t.Fatalf("%d causes, want 3 (snapshot.4 for three cases, responses.8, the unattributed failure by symptom): %+v", len(causes), causes)
	}
	k := causes[0]
	if len(k.Cases) != 3 || k.Violates != "labels/snapshot.4" || len(k.Sections) != 1 || k.Sections[0] != "labels/snapshot" || k.Level != "MUST" {
		t.Errorf("first cause: cases %v, violates %q, sections %v, level %s; want the three snapshot.4 failures, labels/snapshot, MUST", k.Cases, k.Violates, k.Sections, k.Level)
	}
	if !strings.HasPrefix(k.Requirement, "labels/snapshot.4 (") {
		t.Errorf("the cause's requirement is the broken sentence, got %q", k.Requirement)
	}
	for _, k := range causes[1:] {
		if len(k.Cases) != 1 {
			t.Errorf("cause %+v: want one case", k)
		}
	}
}
