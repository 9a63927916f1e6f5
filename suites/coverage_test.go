package suites

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
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
		t.Errorf("%d testable clauses have no case (%s); write the case or map an existing one in suites/coverage.go:\n%s",
			len(missing), strings.Join(counts, ", "), strings.Join(missing, "\n"))
	}
}

// TestMappingCitesKnownIDs checks clauseCases: every key is a known,
// testable clause; every value is a known case of a profile that runs the
// clause (baseline cases run in every profile; an identity case cannot cover
// a labels clause nor the reverse); no case is listed twice for one clause.
func TestMappingCitesKnownIDs(t *testing.T) {
	cases := map[string]Case{}
	for _, c := range Catalogue() {
		cases[c.ID] = c
	}
	var problems []string
	for id, ids := range clauseCases {
		cl, ok := clause.LookupClause(id)
		if !ok {
			problems = append(problems, fmt.Sprintf("unknown clause %q", id))
			continue
		}
		if !cl.Testable {
			problems = append(problems, fmt.Sprintf("%s is marked not testable (%s) but is mapped to cases", id, cl.Reason))
		}
		if len(ids) == 0 {
			problems = append(problems, fmt.Sprintf("%s has an empty case list; leave it out of the map instead", id))
		}
		seen := map[string]bool{}
		for _, cid := range ids {
			if seen[cid] {
				problems = append(problems, fmt.Sprintf("%s lists case %s twice", id, cid))
			}
			seen[cid] = true
			c, ok := cases[cid]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s cites unknown case %q", id, cid))
				continue
			}
			if c.Profile != ProfileBaseline && cl.Profile() != ProfileBaseline && c.Profile != cl.Profile() {
				problems = append(problems, fmt.Sprintf("%s (%s clause) cites %s, a %s case that never runs in that profile",
					id, profileName(cl.Profile()), cid, profileName(c.Profile)))
			}
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("suites/coverage.go:\n  %s", strings.Join(problems, "\n  "))
	}
}

// TestEveryCaseCoversAClause fails for a case that no clause cites: either
// the mapping misses it or the case checks nothing the drafts require.
func TestEveryCaseCoversAClause(t *testing.T) {
	var orphans []string
	for _, c := range Catalogue() {
		if len(CasesClauses(c.ID)) == 0 {
			orphans = append(orphans, fmt.Sprintf("  %-24s %s", c.ID, c.Requirement))
		}
	}
	if len(orphans) > 0 {
		t.Errorf("%d cases cover no clause; map them in suites/coverage.go:\n%s", len(orphans), strings.Join(orphans, "\n"))
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
	if p == ProfileBaseline {
		return "baseline"
	}
	return p
}
