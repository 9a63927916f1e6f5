package suites

import (
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestReadingCases: every case a reading names exists and runs in a
// profile the reading applies to.
func TestReadingCases(t *testing.T) {
	for _, rd := range clause.Readings() {
		for _, id := range rd.Cases {
			c, ok := Lookup(id)
			if !ok {
				t.Errorf("reading %s names unknown case %s", rd.ID, id)
				continue
			}
			if c.Profile != framework.ProfileBaseline && rd.Profile != "" && c.Profile != rd.Profile {
				t.Errorf("reading %s (%s) names %s, a %s case", rd.ID, rd.Profile, id, c.Profile)
			}
			if c.Reading == "" {
				t.Errorf("reading %s names %s, whose Reading text says nothing of the open point", rd.ID, id)
			}
		}
	}
}
