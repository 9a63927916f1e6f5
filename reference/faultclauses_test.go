package reference

import (
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// TestFaultClauses checks the fault tables: every fault names a clause, the
// clause exists, lies in the fault's Section and is testable, and no name
// is in two rows.
func TestFaultClauses(t *testing.T) {
	seen := map[FaultName]string{}
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			if p, dup := seen[f.Name]; dup {
				t.Errorf("fault %s is in the table of profile %q and again in %q", f.Name, p, tb.profile)
			}
			seen[f.Name] = tb.profile
			if f.Clause == "" {
				t.Errorf("fault %s names no clause: give its row a Clause in %s", f.Name, f.Section)
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
	}
	if len(seen) != len(Faults()) {
		t.Errorf("the tables hold %d names, Faults() returns %d", len(seen), len(Faults()))
	}
}
