package suites

import "testing"

// TestHistoryFreeCasesExist keeps historyFreeCases naming real cases.
func TestHistoryFreeCasesExist(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range Catalogue() {
		ids[c.ID] = true
	}
	for id := range historyFreeCases {
		if !ids[id] {
			t.Errorf("historyFreeCases names %s, which is no case", id)
		}
	}
}
