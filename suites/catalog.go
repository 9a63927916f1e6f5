package suites

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/nip29"
)

// Define registers one Ginkgo container for env with one Ginkgo spec per
// applicable case. Call it before RunSpecs, once per plan.
func Define(env *framework.Env) {
	if mint := profileGroupIDs[env.Profile]; mint != nil && env.GroupID == nil {
		env.GroupID = mint
	}
	framework.DefineSpecs(env, all())
}

// all returns every spec of every profile, in catalogue order.
func all() []framework.Spec {
	return slices.Concat(nip29.Specs(), profileSpecs())
}

// Catalogue returns every case's metadata, sorted by ID.
func Catalogue() []framework.Case {
	return append([]framework.Case(nil), catalogue()...)
}

// catalogue is every case's metadata, sorted by ID, built once: the cases
// are fixed at compile time, and Lookup runs once per case of every plan.
var catalogue = sync.OnceValue(func() []framework.Case {
	specs := all()
	out := make([]framework.Case, len(specs))
	for i, s := range specs {
		out[i] = s.Case
		if out[i].Where == "" {
			out[i].Where = framework.DefinedAt(s.Run)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
})

// caseByID indexes the catalogue (Validate reports duplicate IDs).
var caseByID = sync.OnceValue(func() map[string]framework.Case {
	m := map[string]framework.Case{}
	for _, c := range catalogue() {
		if _, dup := m[c.ID]; !dup {
			m[c.ID] = c
		}
	}
	return m
})

// Lookup returns the case with the given ID.
func Lookup(id string) (framework.Case, bool) {
	c, ok := caseByID()[id]
	return c, ok
}

// Validate checks the catalogue: unique IDs, known sections, levels and
// profiles, a requirement sentence.
func Validate() error {
	var problems []string
	seen := map[string]bool{}
	for _, c := range Catalogue() {
		if seen[c.ID] {
			problems = append(problems, "duplicate case ID "+c.ID)
		}
		seen[c.ID] = true
		if _, ok := clause.Lookup(c.Section); !ok {
			problems = append(problems, fmt.Sprintf("%s cites unknown section %q", c.ID, c.Section))
		}
		if !citesSection(c) && sectionTestable(c.Section) {
			problems = append(problems, fmt.Sprintf("%s is filed under %s but cites none of its clauses; cite its clause first (framework.NewCase)", c.ID, c.Section))
		}
		switch c.Level {
		case framework.MUST, framework.SHOULD, framework.MAY:
		default:
			problems = append(problems, fmt.Sprintf("%s has level %q", c.ID, c.Level))
		}
		switch c.Profile {
		case framework.ProfileBaseline, framework.ProfileIdentity, framework.ProfileLabels:
		default:
			problems = append(problems, fmt.Sprintf("%s has profile %q", c.ID, c.Profile))
		}
		if strings.TrimSpace(c.Requirement) == "" || c.Area == "" {
			problems = append(problems, c.ID+" lacks a requirement or area")
		}
		if !strings.HasPrefix(c.ID, framework.ProfilePrefix(c.Profile)) {
			problems = append(problems, fmt.Sprintf("%s: ID must start with %q", c.ID, framework.ProfilePrefix(c.Profile)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("case catalogue: %s", strings.Join(problems, "; "))
	}
	return nil
}

// citesSection reports whether a case cites a clause of its own section.
func citesSection(c framework.Case) bool {
	for _, id := range c.Clauses {
		if cl, ok := clause.LookupClause(id); ok && cl.Section == c.Section {
			return true
		}
	}
	return false
}

// sectionTestable reports whether a section has a testable clause.
func sectionTestable(section string) bool {
	for _, cl := range clause.Clauses() {
		if cl.Section == section && cl.Testable {
			return true
		}
	}
	return false
}
