package suites

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestEveryTestableClauseHasACase fails while a testable clause has no case;
// the message lists every such clause at once.
func TestEveryTestableClauseHasACase(t *testing.T) {
	var missing []string
	perProfile := map[string]int{}
	for _, c := range clause.Clauses() {
		if c.Testable && len(ClauseCases(c.ID)) == 0 {
			missing = append(missing, fmt.Sprintf("  %-34s %-8s %s", c.ID, c.Level, c.Text))
			perProfile[profileName(c.Profile())]++
		}
	}
	if len(missing) > 0 {
		var counts []string
		for p, n := range perProfile {
			counts = append(counts, fmt.Sprintf("%s %d", p, n))
		}
		sort.Strings(counts)
		t.Errorf("%d testable clauses have no case (%s); write the case, or cite the clause in the Clauses of an existing case that observes it:\n%s",
			len(missing), strings.Join(counts, ", "), strings.Join(missing, "\n"))
	}
}

// TestCasesCiteKnownClauses checks every case's Clauses: each is a known,
// testable clause of a profile that runs the case (baseline cases run in
// every profile; an identity case cannot cover a labels clause nor the
// reverse), cited once.
func TestCasesCiteKnownClauses(t *testing.T) {
	var problems []string
	for _, c := range Catalogue() {
		seen := map[string]bool{}
		for _, id := range c.Clauses {
			if seen[id] {
				problems = append(problems, fmt.Sprintf("%s cites %s twice", c.ID, id))
			}
			seen[id] = true
			cl, ok := clause.LookupClause(id)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s cites unknown clause %q", c.ID, id))
				continue
			}
			if !cl.Testable {
				problems = append(problems, fmt.Sprintf("%s cites %s, marked not testable (%s)", c.ID, id, cl.Reason))
			}
			if c.Profile != framework.ProfileBaseline && cl.Profile() != framework.ProfileBaseline && c.Profile != cl.Profile() {
				problems = append(problems, fmt.Sprintf("%s, a %s case that never runs in the %s profile, cites %s",
					c.ID, profileName(c.Profile), profileName(cl.Profile()), id))
			}
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("case Clauses:\n  %s", strings.Join(problems, "\n  "))
	}
}

// TestEveryCaseCoversAClause fails for a case that no clause cites: either
// its Clauses miss the clause it observes or the case checks nothing the drafts require.
func TestEveryCaseCoversAClause(t *testing.T) {
	var orphans []string
	for _, c := range Catalogue() {
		if len(CasesClauses(c.ID)) == 0 {
			orphans = append(orphans, fmt.Sprintf("  %-24s %s", c.ID, c.Requirement))
		}
	}
	if len(orphans) > 0 {
		t.Errorf("%d cases cite no clause; fill in their Clauses:\n%s", len(orphans), strings.Join(orphans, "\n"))
	}
}

func TestClauseCasesAndCasesClausesAgree(t *testing.T) {
	for _, cl := range clause.Clauses() {
		for _, cid := range ClauseCases(cl.ID) {
			found := false
			for _, back := range CasesClauses(cid) {
				found = found || back == cl.ID
			}
			if !found {
				t.Errorf("ClauseCases(%s) has %s but CasesClauses(%s) lacks the clause", cl.ID, cid, cid)
			}
		}
	}
	if got := CasesClauses("base/membership/1"); strings.Join(got, ",") != "nip29/membership.1,nip29/membership.2" {
		t.Errorf("CasesClauses(base/membership/1) = %v", got)
	}
}

func profileName(p string) string {
	if p == framework.ProfileBaseline {
		return "baseline"
	}
	return p
}
