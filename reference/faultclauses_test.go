package reference

import (
	"reflect"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// TestFaultClauses checks the fault tables: every fault names a clause, the
// clause exists and is testable, the fault's Section is the clause's, and
// no name is in two rows. A row that still carries a Section of its own
// (the shape before issue 40) must agree with its clause.
func TestFaultClauses(t *testing.T) {
	seen := map[FaultName]string{}
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			if p, dup := seen[f.Name]; dup {
				t.Errorf("fault %s is in the table of profile %q and again in %q", f.Name, p, tb.profile)
			}
			seen[f.Name] = tb.profile
			if f.Clause == "" {
				t.Errorf("fault %s names no clause: give its row the Clause whose sentence its Breaks contradicts", f.Name)
				continue
			}
			c, ok := clause.LookupClause(f.Clause)
			if !ok {
				t.Errorf("fault %s names clause %s, which clause/ does not define", f.Name, f.Clause)
				continue
			}
			if sec := reflect.ValueOf(f).FieldByName("Section"); sec.IsValid() && sec.String() != c.Section {
				t.Errorf("fault %s names clause %s of section %s, but its row says Section %s (drop the row's Section: it is the clause's)", f.Name, f.Clause, c.Section, sec.String())
			}
			if !c.Testable {
				t.Errorf("fault %s names clause %s, which is not testable (%s): no case can catch the fault", f.Name, f.Clause, c.Reason)
			}
		}
	}
	for _, f := range Faults() {
		if c, _ := clause.LookupClause(f.Clause); f.Section != c.Section {
			t.Errorf("Faults(): %s has Section %q, its clause %s is of %q", f.Name, f.Section, f.Clause, c.Section)
		}
	}
	if len(seen) != len(Faults()) {
		t.Errorf("the tables hold %d names, Faults() returns %d", len(seen), len(Faults()))
	}
}
