// Package suites holds the conformance cases: a catalogue of cases as values
// (ID, profile, area, section, level, requirement) and the Ginkgo specs that
// run them against one target. Files are named after the section they test.
//
// Nothing here is global mutable state: Define registers the specs of one
// run for one *Env, and Catalogue returns the metadata the reporters, `list`,
// `explain` and the coverage check read.
package framework

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// Level is the requirement level of a case.
type Level string

// Requirement levels, as in RFC 2119.
const (
	MUST   Level = "MUST"
	SHOULD Level = "SHOULD"
	MAY    Level = "MAY"
)

// Profiles a case can belong to. A case with Profile "" (baseline) runs in
// every profile.
const (
	ProfileBaseline = ""
	// ProfileNIP29 checks NIP-29 itself (the baseline cases) on a relay
	// without NIP-CL; "none" is its former name and still accepted.
	ProfileNIP29    = "nip29"
	ProfileNone     = ProfileNIP29
	ProfileIdentity = "identity"
	ProfileLabels   = "labels"
)

// ProfileNames lists the profiles a user can name, in help order.
var ProfileNames = []string{ProfileNIP29, ProfileIdentity, ProfileLabels}

// ParseProfile validates a profile name given by a user and returns its
// canonical form ("none" is the former name of "nip29"). "auto" is the
// caller's to handle.
func ParseProfile(name string) (string, error) {
	switch name {
	case ProfileNIP29, "none":
		return ProfileNIP29, nil
	case ProfileIdentity, ProfileLabels:
		return name, nil
	}
	return "", fmt.Errorf("unknown profile %q (valid: %s)", name, strings.Join(ProfileNames, ", "))
}

// Case is the metadata of one conformance check.
type Case struct {
	ID string // stable, e.g. "base/auth/1"
	// Clauses are the clause IDs (clause.Clauses) the case checks, sorted:
	// the coverage index (ClauseIndex) is their inversion. Cite a clause
	// only when the case really observes it.
	Clauses     []string
	Profile     string // "", "identity" or "labels"
	Area        string // report grouping, e.g. "auth", "discovery"
	Section     string // clause.Section ID the case tests
	Level       Level
	Requirement string // one line, our own words
	// Reading records the interpretation chosen where the draft is ambiguous.
	Reading string
	// Slow marks cases that wait on the relay's real clock (seconds or
	// more); they run only when Env.Slow is set.
	Slow bool
	// Heavy marks cases that need many writes (distractors, race rounds);
	// safe mode skips them unless Env.AllowHeavy is set.
	Heavy bool
	// Refusal says what a refusal of a step the case's scenario needs (a
	// write, a read, a state event) means for the verdict; the zero value
	// takes the profile's rule (see RefusalBlocks).
	Refusal Refusal
	// Where is the file and line that define the case ("suites/x.go:42"),
	// filled in by the catalogue from the case's function (for a row of a
	// table run by one function: the table's function). `explain` prints it.
	Where string `json:"where,omitempty"`
}

// Spec is a case with the function that runs it.
type Spec struct {
	Case
	Run func(t *T)
}

func ProfilePrefix(p string) string {
	if p == ProfileBaseline {
		return "base/"
	}
	return p + "/"
}

// DefinedAt is where fn's code starts, as a path under the module
// ("suites/labels/values_and_limits.go:42"): a case's function sits at its
// definition.
func DefinedAt(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return ""
	}
	file, line := f.FileLine(f.Entry())
	file = filepath.ToSlash(file)
	if i := strings.LastIndex(file, modulePath+"/"); i >= 0 {
		file = file[i+len(modulePath)+1:]
	} else if i := strings.LastIndex(file, "/suites/"); i >= 0 {
		file = file[i+1:]
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// modulePath prefixes source paths in a -trimpath build.
const modulePath = "github.com/nipcl/nipcl-conform"

// ClausesInOrder returns a case's Clauses in clause order (clause.Clauses).
func ClausesInOrder(c Case) []string {
	cited := map[string]bool{}
	for _, id := range c.Clauses {
		cited[id] = true
	}
	var out []string
	for _, cl := range clause.Clauses() {
		if cited[cl.ID] {
			out = append(out, cl.ID)
		}
	}
	return out
}

// CaseSource returns whose rule a case enforces, from the clauses it
// covers, preferring those of the case's own section: the first NIP or
// draft clause's source and reference; "contract" only when every clause
// of that section it covers is a contract clause (such a case can block,
// never fail, a relay).
func CaseSource(c Case) (source, ref string, clauses []string) {
	clauses = ClausesInOrder(c)
	section := c.Section
	for _, own := range []bool{true, false} {
		for _, id := range clauses {
			cl, _ := clause.LookupClause(id)
			if (cl.Section == section) != own {
				continue
			}
			if cl.Source != clause.SourceContract {
				return cl.Source, cl.Ref, clauses
			}
			if source == "" {
				source, ref = cl.Source, cl.Ref
			}
		}
		if source != "" {
			return source, ref, clauses
		}
	}
	return source, ref, clauses
}

// WithReading sets a case's Reading.
func WithReading(c Case, reading string) Case { c.Reading = reading; return c }

// Heavy marks a case that needs many writes.
func Heavy(c Case) Case { c.Heavy = true; return c }

// Refusal is what a refused or missing step of a case's scenario means.
type Refusal int

// Refusal policies.
const (
	// RefusalByProfile: NIP-29 cases block (NIP-29 obliges a relay to accept
	// or serve none of the writes and reads a scenario sets up with), NIP-CL
	// cases fail (the drafts require the command forms and reads they use).
	RefusalByProfile Refusal = iota
	// RefusalBlocksCase: a refused step is an unmet precondition (blocked).
	RefusalBlocksCase
	// RefusalFailsCase: a refused step breaks the rule the case checks.
	RefusalFailsCase
)

// RefusalBlocks reports whether a refused step of the case's scenario
// blocks the case (an unmet precondition) rather than failing it: the one
// place that reads Case.Refusal.
func (c Case) RefusalBlocks() bool {
	switch c.Refusal {
	case RefusalBlocksCase:
		return true
	case RefusalFailsCase:
		return false
	}
	return c.Profile == ProfileBaseline
}
