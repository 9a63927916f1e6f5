package spec

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/reports"
)

// Impl is one implementation's run: the results of a results.json by case.
type Impl struct {
	Name  string
	cases map[string][]reports.CaseResult
}

// Aggregated outcomes of a sentence or change for one implementation.
const (
	OutcomePass        = "pass"
	OutcomeFail        = "fail"
	OutcomeBlocked     = "blocked"
	OutcomeUnsupported = "unsupported"
	OutcomeSkipped     = "skipped"
	OutcomeNotRun      = "not run"
)

// LoadImpl reads a results.json (reports.ReadJSON). The name defaults to
// the file's directory name ("a/results.json" → "a"), or its base name
// without extension when the directory says nothing.
func LoadImpl(name, path string) (*Impl, error) {
	r, err := reports.ReadJSON(path)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = filepath.Base(filepath.Dir(path))
		if name == "." || name == "/" || name == "" {
			name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		}
	}
	return NewImpl(name, r), nil
}

// NewImpl indexes a run's results by case.
func NewImpl(name string, r *reports.Results) *Impl {
	im := &Impl{Name: name, cases: map[string][]reports.CaseResult{}}
	for _, c := range r.Cases {
		im.cases[c.ID] = append(im.cases[c.ID], c)
	}
	return im
}

// Cases counts the distinct cases the run has results for.
func (im *Impl) Cases() int { return len(im.cases) }

// Verdict is one implementation's aggregated outcome over some cases.
type Verdict struct {
	Impl    string            `json:"impl"`
	Outcome string            `json:"outcome"`
	ByCase  map[string]string `json:"by_case,omitempty"`
	// Readings: the reading each case took, as "CASE: reading", so that a
	// reading is never shown as another case's.
	Readings []string `json:"readings,omitempty"`
}

// Verdict aggregates the outcomes of cases: fail if any case failed (or
// timed out, or hit a harness error), else pass if any passed, else
// blocked, unsupported, skipped, or not run.
func (im *Impl) Verdict(caseIDs []string) Verdict {
	v := Verdict{Impl: im.Name, Outcome: OutcomeNotRun, ByCase: map[string]string{}}
	rank := map[string]int{OutcomeNotRun: 0, OutcomeSkipped: 1, OutcomeUnsupported: 2, OutcomeBlocked: 3, OutcomePass: 4, OutcomeFail: 5}
	seen := map[string]bool{}
	for _, id := range caseIDs {
		caseOutcome := ""
		for _, c := range im.cases[id] {
			o := classOf(c.Outcome)
			if caseOutcome == "" || rank[o] > rank[caseOutcome] {
				caseOutcome = o
			}
			if r := id + ": " + c.Reading; c.Reading != "" && !seen[r] {
				seen[r] = true
				v.Readings = append(v.Readings, r)
			}
		}
		if caseOutcome == "" {
			caseOutcome = OutcomeNotRun
		}
		v.ByCase[id] = caseOutcome
		if rank[caseOutcome] > rank[v.Outcome] {
			v.Outcome = caseOutcome
		}
	}
	sort.Strings(v.Readings)
	return v
}

func classOf(o reports.Outcome) string {
	switch o {
	case reports.Pass:
		return OutcomePass
	case reports.Fail, reports.Timeout, reports.HarnessError:
		return OutcomeFail
	case reports.Blocked:
		return OutcomeBlocked
	case reports.Unsupported:
		return OutcomeUnsupported
	case reports.Skipped:
		return OutcomeSkipped
	}
	return OutcomeNotRun
}
