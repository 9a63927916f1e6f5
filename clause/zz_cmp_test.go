package clause

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestClauseTablesUnchanged: the constructors make exactly the clauses the
// literal rows made (every field, anchors included), captured before the
// rewrite in testdata/clauses-before.json.
func TestClauseTablesUnchanged(t *testing.T) {
	b, err := os.ReadFile("testdata/clauses-before.json")
	if err != nil {
		t.Fatal(err)
	}
	var before []Clause
	if err := json.Unmarshal(b, &before); err != nil {
		t.Fatal(err)
	}
	now := Clauses()
	if len(now) != len(before) {
		t.Fatalf("%d clauses, %d before", len(now), len(before))
	}
	for i := range now {
		if !reflect.DeepEqual(now[i], before[i]) {
			t.Errorf("clause %d:\n now    %+v\n before %+v", i, now[i], before[i])
		}
	}
}
