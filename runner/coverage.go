package runner

import (
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// Coverage maps every section to the cases citing it and their outcomes in
// res (nil res: catalogue only).
func Coverage(res *reports.Results) []reports.Coverage {
	var out []reports.Coverage
	cat := suites.Catalogue()
	for _, s := range clause.Sections() {
		row := reports.Coverage{ID: s.ID, Title: s.Doc + ": " + s.Title, Outcomes: map[reports.Outcome]int{}}
		for _, c := range cat {
			if c.Section == s.ID {
				row.Cases = append(row.Cases, c.ID)
			}
		}
		if res != nil {
			for _, c := range res.Cases {
				if c.Section == s.ID {
					row.Outcomes[c.Outcome]++
				}
			}
		}
		if len(row.Cases) == 0 {
			row.Note = "no case yet"
		}
		out = append(out, row)
	}
	return out
}
