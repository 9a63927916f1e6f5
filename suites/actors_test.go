package suites

import (
	"testing"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestHistoryFreeCasesExist keeps historyFreeCases naming real cases.
func TestHistoryFreeCasesExist(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range Catalogue() {
		ids[c.ID] = true
	}
	for id := range framework.HistoryFreeCases {
		if !ids[id] {
			t.Errorf("historyFreeCases names %s, which is no case", id)
		}
	}
}
