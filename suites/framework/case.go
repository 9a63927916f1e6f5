// Package framework is what the scenario packages (suites/nip29,
// suites/identity, suites/labels) build their cases with: the case as a
// value (Case, made by NewCase), the per-case handle T with its steps,
// waits and verdicts, actors, and DefineSpecs, which registers the Ginkgo
// specs of one run for one *Env. It holds no case and knows no profile's
// rules; the catalogue (suites.Catalogue) gathers the cases.
//
// Nothing here is global mutable state: DefineSpecs registers the specs of
// one run for one *Env.
package framework

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// Level is the requirement level of a case: the one level vocabulary,
// clause.Level, at MUST, SHOULD or MAY.
type Level = clause.Level

// Requirement levels of a case, as in RFC 2119.
const (
	MUST   = clause.LevelMust
	SHOULD = clause.LevelShould
	MAY    = clause.LevelMay
)

// Profiles a case can belong to (clause's names, the one spelling). A case
// with Profile "" (baseline) runs in every profile.
const (
	ProfileBaseline = clause.ProfileBaseline
	// ProfileNIP29 checks NIP-29 itself (the baseline cases) on a relay
	// without NIP-CL; "none" is its former name and still accepted.
	ProfileNIP29    = clause.ProfileNIP29
	ProfileIdentity = clause.ProfileIdentity
	ProfileLabels   = clause.ProfileLabels
)

// ProfileNames lists the profiles a user can name, in help order.
var ProfileNames = clause.ProfileNames

// ParseProfile validates a profile name given by a user and returns its
// canonical form (clause.ParseProfile).
func ParseProfile(name string) (string, error) { return clause.ParseProfile(name) }

// Case is the metadata of one conformance check. Make one with NewCase:
// its Profile, Section and Area are derived, never written.
type Case struct {
	// ID is stable: "<profile prefix><grouping>/<n>", the prefix "base/"
	// (baseline), "identity/" or "labels/". A new ID's grouping is its
	// section's slug (SectionArea); older IDs keep theirs, which may name
	// another grouping than the section (the golden catalogue freezes them).
	ID string
	// Clauses are the clause IDs (clause.Clauses) the case checks, sorted:
	// the coverage index (ClauseIndex) is their inversion. Cite a clause
	// only when the case really observes it.
	Clauses []string
	Profile string // "" (baseline), "identity" or "labels": from the ID's prefix
	// Section is the clause.Section ID the case tests: the section of its
	// main clause (the first clause given to NewCase). The case is defined
	// in the file of its section (SectionFile).
	Section string
	// Area is the report grouping: the section's slug (SectionArea), so
	// the area, the section and the file are one name.
	Area        string
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
	// FreshKeys marks a case whose reads select by an actor's own key (#P,
	// #p, COUNT by key): it counts everything the key did on the relay, so
	// it needs keys with no history. Configured keys (--actor-key) are
	// shared by every case of a run, so with them the case is blocked
	// (PreFreshKeys) instead of judging other cases' channels.
	FreshKeys bool
	// CurrentHead, when set, is a rule of the case's draft that a read
	// serves only the current head of one addressable kind: JudgeHeads
	// fails the case on more. Without it, NIP-01 lets a relay keep older
	// versions and several heads are only noted.
	CurrentHead *HeadRule `json:"-"`
	// Where is the file and line that define the case ("suites/x.go:42"),
	// filled in by the catalogue from the case's function (for a row of a
	// table run by one function: the table's function). `explain` prints it.
	Where string `json:"where,omitempty"`
}

// NewCase is the one constructor of a case: its ID, level, requirement
// (one line, our own words) and the clauses it checks, main clause first.
// The main clause gives the case its Section (and Area); the others may
// belong to any section. The profile is the ID's prefix ("base/",
// "identity/", "labels/"). NewCase panics on a case without a clause, on
// an unknown clause or on an ID without a profile prefix: a case is fixed
// at compile time, and the catalogue is built at start-up.
func NewCase(id string, level Level, requirement string, clauses ...string) Case {
	if len(clauses) == 0 {
		panic("framework.NewCase: case " + id + " cites no clause")
	}
	main, ok := clause.LookupClause(clauses[0])
	if !ok {
		panic("framework.NewCase: case " + id + " cites unknown clause " + clauses[0])
	}
	profile, ok := ProfileOfID(id)
	if !ok {
		panic("framework.NewCase: case " + id + " has no profile prefix")
	}
	cl := slices.Clone(clauses)
	slices.Sort(cl)
	return Case{ID: id, Clauses: slices.Compact(cl), Profile: profile, Section: main.Section,
		Area: SectionArea(main.Section), Level: level, Requirement: requirement}
}

// ProfileOfID returns the profile a case ID's prefix names ("base/" is
// the baseline).
func ProfileOfID(id string) (string, bool) {
	for _, p := range []string{ProfileBaseline, ProfileIdentity, ProfileLabels} {
		if strings.HasPrefix(id, ProfilePrefix(p)) {
			return p, true
		}
	}
	return "", false
}

// SectionArea is the report area of a section: its ID after the
// document's part ("labels/snapshot" -> "snapshot", "nip01/filters" ->
// "filters").
func SectionArea(section string) string {
	_, slug, _ := strings.Cut(section, "/")
	return slug
}

// SectionFile is the file of a scenario package that defines the cases
// of a section, with their builder: the section's slug with '_' for '-',
// prefixed by the document for NIP-01/11/42/45 sections, which share the
// nip29 package with NIP-29's ("nip29/read-access" -> "read_access.go",
// "nip01/filters" -> "nip01_filters.go").
func SectionFile(section string) string {
	doc, slug, _ := strings.Cut(section, "/")
	name := slug
	switch doc {
	case "nip29", "identity", "labels":
	default:
		name = doc + "_" + slug
	}
	return strings.ReplaceAll(name, "-", "_") + ".go"
}

// InSection files a case under a section none of whose clauses it can
// cite, because every clause of that section is untestable (a rule for
// clients, say) and the case checks what the relay must do for it under
// another section's clause. suites.Validate refuses it for a section with
// a testable clause: such a case cites that clause first instead.
func (c Case) InSection(section string) Case {
	c.Section, c.Area = section, SectionArea(section)
	return c
}

// WithReading records the interpretation the case chose where the text
// is ambiguous.
func (c Case) WithReading(reading string) Case { c.Reading = reading; return c }

// WithSlow marks a case that waits on the relay's real clock.
func (c Case) WithSlow() Case { c.Slow = true; return c }

// WithHeavy marks a case that needs many writes.
func (c Case) WithHeavy() Case { c.Heavy = true; return c }

// WithFreshKeys marks a case that needs keys with no history (FreshKeys).
func (c Case) WithFreshKeys() Case { c.FreshKeys = true; return c }

// HeadRule is a draft's rule that a read serves only the current head of
// Kind (one per d): Clause is the clause it breaks (recorded as the
// failure's, whatever the case cites, and named in the message), Says
// states it.
type HeadRule struct {
	Kind         int
	Clause, Says string
}

// WithRefusal sets what a refused step of the case's scenario means.
func (c Case) WithRefusal(r Refusal) Case { c.Refusal = r; return c }

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
	return modulePathLine(f.FileLine(f.Entry()))
}

// CallerAt is where the caller of the function calling CallerAt stands,
// as a path under the module ("suites/nip29/read_access.go:86"): for a
// table of cases run by a shared engine (readmatrix.ReadsSpecs), the line
// in the section's file that hands the engine its rows.
func CallerAt() string {
	_, file, line, ok := runtime.Caller(2)
	if !ok {
		return ""
	}
	return modulePathLine(file, line)
}

// modulePathLine writes file:line as a path under the module.
func modulePathLine(file string, line int) string {
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
	return clause.InOrder(c.Clauses)
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
