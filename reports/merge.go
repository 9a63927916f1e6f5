package reports

import (
	"fmt"
	"maps"
)

// Merge joins the results of shards of one run (or of several runs) into
// one: plans are united by name, cases concatenated and sorted, the time
// span covers every part. A case reported by two parts is an error.
func Merge(parts ...*Results) (*Results, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no results")
	}
	out := &Results{Tool: parts[0].Tool, RunID: parts[0].RunID, Settings: map[string]string{}}
	seenPlan := map[string]int{}
	seenCase := map[string]bool{}
	for i, p := range parts {
		if i == 0 || p.Started.Before(out.Started) {
			out.Started = p.Started
		}
		if p.Finished.After(out.Finished) {
			out.Finished = p.Finished
		}
		maps.Copy(out.Settings, p.Settings)
		if p.Interrupted != "" {
			out.Interrupted = p.Interrupted
		}
		for _, pl := range p.Plans {
			j, ok := seenPlan[pl.Name]
			if !ok {
				seenPlan[pl.Name] = len(out.Plans)
				out.Plans = append(out.Plans, pl)
				continue
			}
			mergePlan(&out.Plans[j], pl)
		}
		for _, c := range p.Cases {
			k := c.Plan + " " + c.ID
			if seenCase[k] {
				return nil, fmt.Errorf("merge: case %s reported twice", k)
			}
			seenCase[k] = true
			out.Cases = append(out.Cases, c)
		}
	}
	out.Sort()
	return out, nil
}

// mergePlan folds another shard's view of the same plan into dst.
func mergePlan(dst *PlanResult, src PlanResult) {
	if dst.SetupError == "" {
		dst.SetupError = src.SetupError
	}
	if dst.Logs == "" {
		dst.Logs = src.Logs
	}
	if src.Cleanup != nil {
		if dst.Cleanup == nil {
			dst.Cleanup = &Cleanup{}
		}
		dst.Cleanup.Deleted += src.Cleanup.Deleted
		dst.Cleanup.Failed = append(dst.Cleanup.Failed, src.Cleanup.Failed...)
	}
}
