package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reference"
)

func runDispatch(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestListClauses(t *testing.T) {
	code, out, errs := runDispatch(t, "list", "--clauses")
	if code != 0 {
		t.Fatalf("list --clauses: exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "ID ") || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "TESTABLE") {
		t.Errorf("list --clauses header: %q", strings.SplitN(out, "\n", 2)[0])
	}
	for _, c := range clause.Clauses() {
		if !strings.Contains(out, c.ID+" ") {
			t.Errorf("list --clauses lacks %s", c.ID)
		}
	}
	if !strings.Contains(out, "base/delete/1") {
		t.Error("list --clauses does not show the cases of mapped clauses")
	}

	code, out, errs = runDispatch(t, "list", "--clauses", "--profile", "labels")
	if code != 0 {
		t.Fatalf("list --clauses --profile labels: exit %d, stderr %q", code, errs)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.HasPrefix(line, "labels/") {
			t.Errorf("--profile labels lists %q", line)
		}
	}
	if !strings.Contains(out, "labels/snapshot.3 ") {
		t.Error("--profile labels lacks labels/snapshot.3")
	}

	code, out, _ = runDispatch(t, "list", "--clauses", "--profile", "identity")
	if code != 0 || !strings.Contains(out, "identity/notices.2 ") {
		t.Errorf("list --clauses --profile identity: exit %d, output:\n%s", code, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.HasPrefix(line, "identity/") {
			t.Errorf("--profile identity lists %q", line)
		}
	}
	if code, _, _ := runDispatch(t, "list", "--clauses", "--profile", "bogus"); code != 2 {
		t.Errorf("list --clauses --profile bogus: exit %d, want 2", code)
	}
}

func TestExplainClause(t *testing.T) {
	// A mapped testable clause: statement, section and its cases.
	code, out, errs := runDispatch(t, "explain", "nip29/membership.3")
	if code != 0 {
		t.Fatalf("explain clause: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"nip29/membership.3", "statement:", "source:", "nip29/membership", "base/membership/4"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain nip29/membership.3 lacks %q:\n%s", want, out)
		}
	}

	// A clause that cannot be tested: the reason instead of cases.
	cl, ok := clause.LookupClause("identity/reads-leave-out.9")
	if !ok || cl.Testable {
		t.Fatal("identity/reads-leave-out.9 should be a not-testable clause")
	}
	_, out, _ = runDispatch(t, "explain", cl.ID)
	if !strings.Contains(out, "testable:    no") || !strings.Contains(out, cl.Reason) {
		t.Errorf("explain %s lacks the not-testable reason:\n%s", cl.ID, out)
	}

	// A section lists its clauses.
	code, out, _ = runDispatch(t, "explain", "labels/snapshot")
	if code != 0 || !strings.Contains(out, "clauses:") || !strings.Contains(out, "labels/snapshot.3") {
		t.Errorf("explain labels/snapshot: exit %d, output:\n%s", code, out)
	}

	// A case names the clauses it covers.
	_, out, _ = runDispatch(t, "explain", "base/membership/1")
	if !strings.Contains(out, "nip29/membership.1, nip29/membership.2") {
		t.Errorf("explain base/membership/1 lacks its clauses:\n%s", out)
	}
	// And where it is defined, as file:line under the module.
	if !regexp.MustCompile(`defined at:  suites/\S+\.go:\d+\n`).MatchString(out) {
		t.Errorf("explain base/membership/1 does not say where the case is defined:\n%s", out)
	}

	// A clause lists the faults that break it and where the relay's code
	// consults each.
	_, out, _ = runDispatch(t, "explain", "nip01/filters.3")
	if !strings.Contains(out, "filter-last-filter-only (profile any)") ||
		!regexp.MustCompile(`consulted at reference/\S+\.go:\d+ \(Relay\.query\)\n`).MatchString(out) {
		t.Errorf("explain nip01/filters.3 lacks its fault and where it is consulted:\n%s", out)
	}

	if code, _, errs := runDispatch(t, "explain", "labels/snapshot.999"); code != 2 || !strings.Contains(errs, "no case or section") {
		t.Errorf("explain of an unknown clause: exit %d, stderr %q", code, errs)
	}
}

// TestClientCasesJoinTheCatalogue: client-mode cases are listed, explained,
// and shown as covering the drafts' client clauses in list --clauses.
func TestClientCasesJoinTheCatalogue(t *testing.T) {
	code, out, errs := runDispatch(t, "list", "--profile", "labels")
	if code != 0 || !strings.Contains(out, "client/labels/capability-checked") {
		t.Fatalf("list --profile labels: exit %d, client case missing\n%s%s", code, out, errs)
	}
	code, out, _ = runDispatch(t, "list", "--clauses", "--profile", "labels")
	if code != 0 || !strings.Contains(out, "client mode") {
		t.Errorf("list --clauses does not show client clauses covered in client mode:\n%s", out)
	}
	code, out, _ = runDispatch(t, "explain", "client/labels/capability-checked")
	if code != 0 || !strings.Contains(out, "labels/capability.3") {
		t.Errorf("explain of a client case: exit %d\n%s", code, out)
	}
}

// TestFaultsWhere: faults --where lists every fault switch with the
// file:line and function of each place that consults it (for a fault
// installed as a hook set: its install func and "-> hooks.X", the slice it
// joins).
func TestFaultsWhere(t *testing.T) {
	code, out, errs := runDispatch(t, "faults", "--where")
	if code != 0 {
		t.Fatalf("faults --where: exit %d, stderr %q", code, errs)
	}
	if strings.Contains(out, "POLICY") || strings.Contains(out, " nowhere") {
		t.Errorf("faults --where lists only faults, each consulted somewhere:\n%s", out)
	}
	for _, f := range reference.Faults() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f.Name) + ` .* ` + regexp.QuoteMeta(f.Clause) + ` +reference/\S+\.go:\d+ \(\S+( -> \S+)?\)$`).MatchString(out) {
			t.Errorf("faults --where: no line for %s with its clause and a place:\n%s", f.Name, out)
			break
		}
	}
}
