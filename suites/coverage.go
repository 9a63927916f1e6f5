package suites

import (
	"sort"
	"sync"

	"github.com/nipcl/nipcl-conform/clause"
)

// clauseCases inverts the cases' own Clauses: for each clause ID, the IDs
// of the cases that cite it, in catalogue order. It is built once from the
// cases themselves; there is no side table to keep in step.
var clauseCases = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, c := range catalogue() {
		for _, id := range c.Clauses {
			m[id] = append(m[id], c.ID)
		}
	}
	return m
})

// ClauseCases returns the IDs of the cases that check the clause, sorted.
func ClauseCases(clauseID string) []string {
	out := append([]string(nil), clauseCases()[clauseID]...)
	sort.Strings(out)
	return out
}

// CasesClauses returns the IDs of the clauses a case checks, in clause
// order.
func CasesClauses(caseID string) []string {
	c, ok := Lookup(caseID)
	if !ok {
		return nil
	}
	cited := map[string]bool{}
	for _, id := range c.Clauses {
		cited[id] = true
	}
	var out []string
	for _, cl := range clause.Clauses() {
		if cited[cl.ID] {
			out = append(out, cl.ID)
		}
	}
	return out
}

// CaseSource returns whose rule a case enforces, from the clauses it
// covers, preferring those of the case's own section: the first NIP or
// draft clause's source and reference; "contract" only when every clause
// of that section it covers is a contract clause (such a case can block,
// never fail, a relay).
func CaseSource(caseID string) (source, ref string, clauses []string) {
	clauses = CasesClauses(caseID)
	section := ""
	if c, ok := Lookup(caseID); ok {
		section = c.Section
	}
	for _, own := range []bool{true, false} {
		for _, id := range clauses {
			cl, _ := clause.LookupClause(id)
			if (cl.Section == section) != own {
				continue
			}
			if cl.Source != clause.SourceContract {
				return cl.Source, cl.Ref, clauses
			}
			if source == "" {
				source, ref = cl.Source, cl.Ref
			}
		}
		if source != "" {
			return source, ref, clauses
		}
	}
	return source, ref, clauses
}
