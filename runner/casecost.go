package runner

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// caseCostJSON is each case's wall time in milliseconds against the
// reference relay at 50 ms RTT (a case ID → ms object). It only orders a
// parallel run's queue (longest first), so a stale entry costs speed,
// never a verdict. Regenerate after a run:
//
//	go run ./cmd/nipcl-conform run --simulate-rtt 50ms --report-dir /tmp/rtt50
//	go run ./runner/casecosts /tmp/rtt50/results.json > runner/casecost.json
//
//go:embed casecost.json
var caseCostJSON []byte

// caseCosts is caseCostJSON decoded, with the median for cases it lacks.
var caseCosts = sync.OnceValues(func() (map[string]int, int) {
	m := map[string]int{}
	_ = json.Unmarshal(caseCostJSON, &m) // checked by TestCaseCostTableDecodes
	vals := make([]int, 0, len(m))
	for _, v := range m {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	median := 0
	if len(vals) > 0 {
		median = vals[len(vals)/2]
	}
	return m, median
})

// casePriority is a case's expected cost in milliseconds: workers of a
// queue take the longest cases first, so the run ends on short ones.
func casePriority(c framework.Case) int {
	m, median := caseCosts()
	if v, ok := m[c.ID]; ok {
		return v
	}
	return median
}
