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
	first := parts[0]
	out := &Results{
		Tool: first.Tool, Version: first.Version, Commit: first.Commit, Modified: first.Modified,
		Catalogue: first.Catalogue, Specs: first.Specs,
		RunID: first.RunID, Settings: map[string]string{},
	}
	seenPlan := map[string]int{}
	seenCase := map[string]bool{}
	for i, p := range parts {
		// A merged file is one claim: every part must come from the same
		// harness build and case catalogue.
		if p.Version != first.Version || p.Commit != first.Commit || p.Modified != first.Modified || p.Catalogue != first.Catalogue {
			return nil, fmt.Errorf("merge: part %d was produced by %s, part 1 by %s: merge only the shards of one build", i+1, buildOf(p), buildOf(first))
		}
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
		if p.StoppedBy != "" && out.StoppedBy == "" {
			out.StoppedBy = p.StoppedBy
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
	if dst.Relay == nil {
		dst.Relay = src.Relay
	}
	if len(dst.Keys) == 0 {
		dst.Keys, dst.StateEvents = src.Keys, src.StateEvents
	}
	if src.Cleanup != nil {
		if dst.Cleanup == nil {
			dst.Cleanup = &Cleanup{}
		}
		dst.Cleanup.Deleted += src.Cleanup.Deleted
		dst.Cleanup.Failed = append(dst.Cleanup.Failed, src.Cleanup.Failed...)
	}
}

// buildOf names the harness build and catalogue that produced r.
func buildOf(r *Results) string {
	if r.Version == "" && r.Catalogue == "" {
		return "a harness that recorded no version"
	}
	m := ""
	if r.Modified {
		m = ", modified"
	}
	return fmt.Sprintf("nipcl-conform %s (commit %s%s, catalogue %s)", r.Version, r.Commit, m, r.Catalogue)
}
