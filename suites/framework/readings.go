package framework

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

// Reading notes which careful reading of an open point (clause.Readings)
// the target took, as "reading: <id>=<value>", once per case and value.
// Cases call it where they observe the point; every value of the reading
// must pass. An id or value the catalogue does not know is a harness bug.
func (t *T) Reading(id, value string) {
	GinkgoHelper()
	if err := clause.CheckReading(id, value); err != nil {
		recordOutcome(reports.HarnessError)
		Fail(fmt.Sprintf("harness: t.Reading: %v", err))
	}
	key := id + "=" + value
	t.mu.Lock()
	seen := t.readings[key]
	if t.readings == nil {
		t.readings = map[string]bool{}
	}
	t.readings[key] = true
	t.mu.Unlock()
	if !seen {
		t.Note("reading: %s", key)
	}
}

// ReadingNote is the note T.Reading writes for reading id with value v.
func ReadingNote(id, v string) string { return "reading: " + id + "=" + v }
