package reports

import (
	"fmt"
	"io"
	"sort"
)

// Change is one case whose outcome differs between two runs.
type Change struct {
	Key      string // "PLAN ID"
	Old, New Outcome
}

// Diff compares two runs: regressions (was pass, now not), fixes (was not
// pass, now pass), other changes, and cases only in one run.
type Diff struct {
	Regressions, Fixes, Changed []Change
	Added, Removed              []string
}

// Compare returns the differences between old and new results.
func Compare(old, new *Results) Diff {
	index := func(r *Results) map[string]Outcome {
		m := map[string]Outcome{}
		for _, c := range r.Cases {
			m[c.Plan+" "+c.ID] = c.Outcome
		}
		return m
	}
	o, n := index(old), index(new)
	var d Diff
	for k, no := range n {
		oo, ok := o[k]
		switch {
		case !ok:
			d.Added = append(d.Added, k)
		case oo == no:
		case oo == Pass:
			d.Regressions = append(d.Regressions, Change{k, oo, no})
		case no == Pass:
			d.Fixes = append(d.Fixes, Change{k, oo, no})
		default:
			d.Changed = append(d.Changed, Change{k, oo, no})
		}
	}
	for k := range o {
		if _, ok := n[k]; !ok {
			d.Removed = append(d.Removed, k)
		}
	}
	for _, s := range [][]Change{d.Regressions, d.Fixes, d.Changed} {
		sort.Slice(s, func(i, j int) bool { return s[i].Key < s[j].Key })
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	return d
}

// Write prints the diff for people.
func (d Diff) Write(w io.Writer) {
	section := func(title string, cs []Change) {
		fmt.Fprintf(w, "%s (%d)\n", title, len(cs))
		for _, c := range cs {
			fmt.Fprintf(w, "  %-50s %s -> %s\n", c.Key, c.Old, c.New)
		}
	}
	section("regressions", d.Regressions)
	section("fixes", d.Fixes)
	section("other changes", d.Changed)
	fmt.Fprintf(w, "only in new (%d)\n", len(d.Added))
	for _, k := range d.Added {
		fmt.Fprintf(w, "  %s\n", k)
	}
	fmt.Fprintf(w, "only in old (%d)\n", len(d.Removed))
	for _, k := range d.Removed {
		fmt.Fprintf(w, "  %s\n", k)
	}
}
