package framework

import (
	"encoding/json"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/reports"
)

// TestVerdictOfReadsTypedAndJSONValues: the verdict crosses Ginkgo as a
// typed value; a report that crossed a process boundary carries its JSON,
// which reads back the same. Later verdicts win field by field.
func TestVerdictOfReadsTypedAndJSONValues(t *testing.T) {
	blocked := Verdict{Outcome: reports.Blocked, Precondition: "create-group"}
	raw, _ := json.Marshal(Verdict{Violates: "nip29/join.1"})
	r := types.SpecReport{ReportEntries: types.ReportEntries{
		{Name: EntryNote, Value: types.WrapEntryValue("a note")},
		{Name: EntryVerdict, Value: types.WrapEntryValue(blocked)},
		{Name: EntryVerdict, Value: types.ReportEntryValue{AsJSON: string(raw)}},
	}}
	got, ok := VerdictOf(r)
	want := Verdict{Outcome: reports.Blocked, Precondition: "create-group", Violates: "nip29/join.1"}
	if !ok || got != want {
		t.Errorf("VerdictOf = %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := VerdictOf(types.SpecReport{}); ok {
		t.Error("a report without a verdict entry has no verdict")
	}
}

// TestBreaking: a plain failure breaks the step's scope (Checking), else
// a case's only clause; a case citing several clauses with no scope set
// names none (a harness bug the kill test reports), and no clause is ever
// read from a message.
func TestBreaking(t *testing.T) {
	one := Case{ID: "base/leave/1", Clauses: []string{"nip29/leave.1"}}
	two := Case{ID: "base/membership/1", Clauses: []string{"nip29/membership.1", "nip29/membership.2"}}
	for _, tt := range []struct {
		c      Case
		scoped string
		want   string
	}{
		{one, "", "nip29/leave.1"},
		{one, "nip29/leave.1", "nip29/leave.1"},
		{two, "", ""},
		{two, "nip29/membership.2", "nip29/membership.2"},
		{Case{ID: "x/none/1"}, "", ""},
	} {
		if got := breaking(tt.c, tt.scoped); got != tt.want {
			t.Errorf("breaking(%s, %q) = %q, want %q", tt.c.ID, tt.scoped, got, tt.want)
		}
	}
}

// TestContractCasesBlock: a failed case whose clauses are all contract
// points blocks with a "contract-<section>" precondition; a NIP case does
// not.
func TestContractCasesBlock(t *testing.T) {
	contract := Case{ID: "base/create/1", Section: "nip29/create", Clauses: []string{"nip29/create.1"}}
	if v, ok := contractBlocked(contract); !ok || v.Outcome != reports.Blocked || v.Precondition != "contract-nip29/create" {
		t.Errorf("contractBlocked(base/create/1) = %+v, %v", v, ok)
	}
	nip := Case{ID: "base/leave/1", Section: "nip29/leave", Clauses: []string{"nip29/leave.1"}}
	if v, ok := contractBlocked(nip); ok {
		t.Errorf("contractBlocked(base/leave/1) = %+v, want none", v)
	}
}

// TestRefusalPolicy: a refused step blocks a NIP-29 case and fails a
// NIP-CL case unless the case says otherwise.
func TestRefusalPolicy(t *testing.T) {
	for _, tt := range []struct {
		c    Case
		want bool
	}{
		{Case{Profile: ProfileBaseline}, true},
		{Case{Profile: ProfileLabels}, false},
		{Case{Profile: ProfileIdentity}, false},
		{Case{Profile: ProfileLabels, Refusal: RefusalBlocksCase}, true},
		{Case{Profile: ProfileBaseline, Refusal: RefusalFailsCase}, false},
	} {
		if got := tt.c.RefusalBlocks(); got != tt.want {
			t.Errorf("%+v: RefusalBlocks = %v, want %v", tt.c, got, tt.want)
		}
	}
}

// TestScopeRestores: a helper's deferred scope gives the case its own
// scope back when the step passes, and keeps the step's when the step
// fails (the failure panics through it and is judged afterwards).
func TestScopeRestores(t *testing.T) {
	c := Case{ID: "base/membership/1", Clauses: []string{"nip29/membership.1", "nip29/membership.2"}}
	ct := &T{Case: c}
	ct.scope("nip29/membership.1")
	func() {
		defer ct.scope("nip29/membership.2")()
	}()
	if got := ct.Breaking(); got != "nip29/membership.1" {
		t.Errorf("after a step that passed: Breaking() = %q, want the case's scope nip29/membership.1", got)
	}
	func() {
		defer func() { _ = recover() }()
		defer ct.scope("nip29/membership.2")()
		panic("the step failed")
	}()
	if got := ct.Breaking(); got != "nip29/membership.2" {
		t.Errorf("after a step that failed: Breaking() = %q, want the step's scope nip29/membership.2", got)
	}
}
