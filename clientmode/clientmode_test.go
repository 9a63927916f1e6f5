package clientmode

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

func TestCasesCiteClientClauses(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases {
		if seen[c.ID] {
			t.Errorf("duplicate case %s", c.ID)
		}
		seen[c.ID] = true
		cl, ok := clause.LookupClause(c.Clause)
		if !ok {
			t.Errorf("%s: unknown clause %s", c.ID, c.Clause)
			continue
		}
		if cl.Subject != clause.SubjectClient {
			t.Errorf("%s: cites %s, which is not a client clause", c.ID, c.Clause)
		}
		if caseLevel(cl.Level) != c.Level {
			t.Errorf("%s: level %s, clause %s says %s", c.ID, c.Level, c.Clause, cl.Level)
		}
		if c.Profile != clauseProfile(cl) {
			t.Errorf("%s: profile %s, clause %s belongs to %s", c.ID, c.Profile, c.Clause, clauseProfile(cl))
		}
	}
	for _, f := range Faults {
		if _, ok := clause.LookupClause(f.Clause); !ok {
			t.Errorf("fault %s: unknown clause %s", f.Name, f.Clause)
		}
	}
}

// TestKill: the clean reference client passes every case; every fault
// switch is caught by a failing case that cites the clause it breaks.
func TestKill(t *testing.T) {
	ctx := context.Background()
	o := Options{Timeout: 10 * time.Second, Wait: 500 * time.Millisecond}
	for _, r := range Run(ctx, o) {
		if r.Outcome != reports.Pass {
			t.Errorf("clean client: %s: %s: %s\n%s", r.ID, r.Outcome, r.Message, r.Transcript)
		}
	}
	for _, f := range Faults {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel() // the runs mostly wait on sockets
			killOne(t, f.Name, f.Clause)
		})
	}
}

// killOne runs every case with one fault switched on: no case may end in
// a timeout or harness error, and a case citing the clause the fault
// breaks must fail.
func killOne(t *testing.T, fault, breaks string) {
	o := Options{Fault: fault, Timeout: 10 * time.Second, Wait: 500 * time.Millisecond}
	caught := false
	for _, r := range Run(context.Background(), o) {
		switch r.Outcome {
		case reports.Pass:
		case reports.Fail:
			if len(r.Clauses) == 1 && r.Clauses[0] == breaks {
				caught = true
			}
		default:
			t.Errorf("fault %s: %s: %s: %s", fault, r.ID, r.Outcome, r.Message)
		}
	}
	if !caught {
		t.Errorf("fault %s (breaks %s) is caught by no case citing that clause", fault, breaks)
	}
}

// caseLevel folds a clause level into a case level as relay cases do:
// MUST NOT and declarative rules are required (MUST), SHOULD NOT is SHOULD.
func caseLevel(l string) string {
	switch l {
	case clause.LevelMustNot, clause.LevelRule:
		return clause.LevelMust
	case clause.LevelShouldNot:
		return clause.LevelShould
	}
	return l
}

// TestDocsListEveryCaseAndFault keeps docs/client-mode.md in step with the
// case table and the fault switches.
func TestDocsListEveryCaseAndFault(t *testing.T) {
	doc, err := os.ReadFile("../docs/client-mode.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Cases {
		if !strings.Contains(string(doc), "`"+c.ID+"`") {
			t.Errorf("docs/client-mode.md does not list case %s", c.ID)
		}
	}
	for _, f := range Faults {
		if !strings.Contains(string(doc), "`"+f.Name+"`") {
			t.Errorf("docs/client-mode.md does not list fault %s", f.Name)
		}
	}
}

// TestServeAdapter: the adapter loop answers each intent with its id and
// answers a line that is not an intent with an error.
func TestServeAdapter(t *testing.T) {
	in := strings.NewReader(`{"id":1,"op":"init","secret":"` + NewKeys().UserSK + `"}` + "\nnot json\n" + `{"id":3,"op":"bogus"}` + "\n")
	var out strings.Builder
	if err := ServeAdapter(context.Background(), in, &out, &Reference{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || lines[0] != `{"id":1}` || !strings.Contains(lines[1], `"error":"not an intent`) || !strings.Contains(lines[2], `"id":3,"error":"unknown op`) {
		t.Errorf("answers: %q", lines)
	}
}
