package reference

import (
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// TestFaultClauses checks faultClauses against the catalogue: every fault
// names a clause, the clause exists and lies in the fault's Section, and no
// entry names a fault the catalogue does not have.
func TestFaultClauses(t *testing.T) {
	known := map[string]bool{}
	for _, f := range Faults() {
		known[f.Name] = true
		if f.Clause == "" {
			t.Errorf("fault %s names no clause: add %q: \"<clause ID in %s>\" to faultClauses (reference/faultclauses.go)", f.Name, f.Name, f.Section)
			continue
		}
		c, ok := clause.LookupClause(f.Clause)
		if !ok {
			t.Errorf("fault %s names clause %s, which clause/ does not define", f.Name, f.Clause)
			continue
		}
		if c.Section != f.Section {
			t.Errorf("fault %s names clause %s of section %s, but the fault's Section is %s", f.Name, f.Clause, c.Section, f.Section)
		}
		if !c.Testable {
			t.Errorf("fault %s names clause %s, which is not testable (%s): no case can catch the fault", f.Name, f.Clause, c.Reason)
		}
	}
	for name := range faultClauses {
		if !known[name] {
			t.Errorf("faultClauses names %q, which is no fault of the catalogue", name)
		}
	}
}
