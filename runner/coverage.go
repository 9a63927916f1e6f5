package runner

import (
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// Coverage maps every clause (clause.Clauses) to the cases that check it
// (suites.ClauseCases) and their outcomes in res, over every plan (nil res:
// catalogue only). A clause that cannot be tested over the wire says why in
// Note.
func Coverage(res *reports.Results) []reports.Coverage {
	var out []reports.Coverage
	for _, c := range clause.Clauses() {
		row := reports.Coverage{ID: c.ID, Title: string(c.Level) + " (" + c.Subject + "): " + c.Text, Outcomes: map[reports.Outcome]int{}}
		row.Cases = suites.ClauseCases(c.ID)
		if res != nil {
			cited := map[string]bool{}
			for _, id := range row.Cases {
				cited[id] = true
			}
			for _, r := range res.Cases {
				if cited[r.ID] {
					row.Outcomes[r.Outcome]++
				}
			}
		}
		switch {
		case !c.Testable:
			row.Note = "not testable over the wire: " + c.Reason
		case len(row.Cases) == 0:
			row.Note = "no case yet"
		}
		out = append(out, row)
	}
	return out
}
