package suites

import (
	"sort"
	"sync"

	"github.com/nipcl/nipcl-conform/suites/framework"
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
	return framework.ClausesInOrder(c)
}

// CaseSource returns whose rule the case with this ID enforces (see
// framework.CaseSource).
func CaseSource(caseID string) (source, ref string, clauses []string) {
	c, ok := Lookup(caseID)
	if !ok {
		return "", "", nil
	}
	return framework.CaseSource(c)
}
