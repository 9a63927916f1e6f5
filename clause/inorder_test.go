package clause

import (
	"slices"
	"testing"
)

// TestInOrderIsClausesOrder: InOrder keeps the clauses of a list in the
// order of Clauses, once each, and drops IDs that name no clause.
func TestInOrderIsClausesOrder(t *testing.T) {
	all := Clauses()
	var ids []string
	for i := len(all) - 1; i >= 0; i -= 7 {
		ids = append(ids, all[i].ID, all[i].ID)
	}
	ids = append(ids, "no/such-clause.1")
	var want []string
	for _, c := range all {
		if slices.Contains(ids, c.ID) {
			want = append(want, c.ID)
		}
	}
	if got := InOrder(ids); !slices.Equal(got, want) {
		t.Errorf("InOrder = %v, want %v", got, want)
	}
	if got := InOrder(nil); got != nil {
		t.Errorf("InOrder(nil) = %v, want nil", got)
	}
}
