// Package catalogue renders the case catalogue as the golden list
// suites/testdata/catalogue.golden: one line per case with its ID, level,
// profile, source, the spec revision it was written against and the clauses
// it covers. A test (suites/catalogue_golden_test.go) fails when the cases
// drift from the checked-in list, so no case changes its ID, level or
// meaning silently; the list's fingerprint goes into every report
// ("catalogue") so that `nipcl-conform report verify` can tell which
// catalogue a result was produced by.
package catalogue

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/version"
)

// RegenerateCommand rewrites the golden list from the current cases.
const RegenerateCommand = "go test ./suites -run TestGoldenCatalogue -update"

// Entry is one case of the golden list.
type Entry struct {
	ID      string
	Level   string // MUST, SHOULD, MAY
	Profile string // "nip29" for baseline cases (which run in every profile), "identity", "labels"
	// Source is whose rule the case enforces: nip, draft or contract
	// (suites.CaseSource); "-" when it covers no clause.
	Source string
	// Revision is the spec revision of the case's section document
	// (version.Spec.Short), e.g. "nip-cl-labels.md@f3f5f551a3c1".
	Revision string
	Clauses  []string
}

// line renders an entry as one tab-separated line.
func (e Entry) line() string {
	cl := strings.Join(e.Clauses, ",")
	if cl == "" {
		cl = "-"
	}
	return strings.Join([]string{e.ID, e.Level, e.Profile, orDash(e.Source), orDash(e.Revision), cl}, "\t")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

var current = sync.OnceValue(func() []Entry {
	var out []Entry
	for _, c := range suites.Catalogue() {
		source, _, clauses := suites.CaseSource(c.ID)
		e := Entry{ID: c.ID, Level: string(c.Level), Profile: c.Profile, Source: source, Clauses: clauses}
		if e.Profile == framework.ProfileBaseline {
			e.Profile = framework.ProfileNIP29
		}
		if s, ok := clause.Lookup(c.Section); ok {
			if sp, ok := version.SpecForDoc(s.Doc); ok {
				e.Revision = sp.Short()
			}
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
})

// Current returns the catalogue of this build, sorted by ID.
func Current() []Entry {
	out := slices.Clone(current())
	for i := range out {
		out[i].Clauses = slices.Clone(out[i].Clauses)
	}
	return out
}

var fingerprint = sync.OnceValue(func() string { return FingerprintOf(current()) })

// Fingerprint is this build's catalogue fingerprint: the first 12 hex
// digits of the SHA-256 of the case lines of the golden list (every line
// that is not a # comment, each ending in a newline).
func Fingerprint() string { return fingerprint() }

// FingerprintOf fingerprints a list of entries (see Fingerprint).
func FingerprintOf(entries []Entry) string {
	h := sha256.New()
	for _, e := range entries {
		h.Write([]byte(e.line() + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Levels maps each case ID of this build to its level.
func Levels() map[string]string {
	m := make(map[string]string, len(current()))
	for _, e := range current() {
		m[e.ID] = e.Level
	}
	return m
}

const header = `# nipcl-conform case catalogue: generated, do not edit by hand.
#
# Regenerate: ` + RegenerateCommand + `
# (or NIPCL_UPDATE_GOLDEN=1 go test ./suites -run TestGoldenCatalogue)
#
# Rules (CONTRIBUTING.md, "Case stability"): a case ID is never reused;
# changing a case's ID, level or meaning (its clauses) needs this file
# regenerated and a CHANGELOG.md entry; a stricter check is a new case or a
# level change.
#
# Columns (tab-separated): id, level, profile, source, revision, clauses
#   profile   nip29 = a baseline case (base/...), which runs in every profile
#   source    nip | draft | contract: whose rule the case enforces
#   revision  the spec revision the case was written against (version/specs.go)
#
# The catalogue fingerprint in reports ("catalogue") is the first 12 hex
# digits of the SHA-256 of the case lines (every line not starting with #).
`

const retiredPrefix = "# retired "

// Render writes the golden list: the header, one line per entry (sorted by
// ID), and the retired IDs (cases that were removed; never reuse them).
func Render(entries []Entry, retired []string) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	for _, e := range entries {
		b.WriteString(e.line())
		b.WriteByte('\n')
	}
	if len(retired) > 0 {
		b.WriteString("#\n# Retired case IDs (removed cases; an ID is never given to another case):\n")
		for _, id := range retired {
			b.WriteString(retiredPrefix + id + "\n")
		}
	}
	return b.Bytes()
}

// Parse reads a golden list back: its entries and retired IDs.
func Parse(data []byte) (entries []Entry, retired []string, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, retiredPrefix); ok {
			retired = append(retired, strings.TrimSpace(id))
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			return nil, nil, fmt.Errorf("catalogue line %d: want 6 tab-separated fields, got %d: %q", n, len(f), line)
		}
		e := Entry{ID: f[0], Level: f[1], Profile: f[2], Source: undash(f[3]), Revision: undash(f[4])}
		if f[5] != "-" {
			e.Clauses = strings.Split(f[5], ",")
		}
		entries = append(entries, e)
	}
	return entries, retired, sc.Err()
}

func undash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// Drift lists how current differs from the golden entries, one line per
// case: removed, added, and each changed field, sorted by case ID. A
// current case whose ID is retired is reported too.
func Drift(golden, current []Entry, retired []string) []string {
	old := map[string]Entry{}
	for _, e := range golden {
		old[e.ID] = e
	}
	cur := map[string]Entry{}
	for _, e := range current {
		cur[e.ID] = e
	}
	var out []string
	for _, e := range golden {
		if _, ok := cur[e.ID]; !ok {
			out = append(out, fmt.Sprintf("%s: removed (was %s %s); its ID is retired and never reused", e.ID, e.Level, e.Profile))
		}
	}
	for _, e := range current {
		o, ok := old[e.ID]
		if !ok {
			if slices.Contains(retired, e.ID) {
				out = append(out, fmt.Sprintf("%s: this ID was retired (a removed case); IDs are never reused: give the case a new ID", e.ID))
			} else {
				out = append(out, fmt.Sprintf("%s: added (%s %s)", e.ID, e.Level, e.Profile))
			}
			continue
		}
		for _, f := range []struct{ name, was, now string }{
			{"level", o.Level, e.Level},
			{"profile", o.Profile, e.Profile},
			{"source", orDash(o.Source), orDash(e.Source)},
			{"revision", orDash(o.Revision), orDash(e.Revision)},
			{"clauses", strings.Join(o.Clauses, ","), strings.Join(e.Clauses, ",")},
		} {
			if f.was != f.now {
				out = append(out, fmt.Sprintf("%s: %s %s -> %s", e.ID, f.name, orDash(f.was), orDash(f.now)))
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return idOf(out[i]) < idOf(out[j]) })
	return out
}

func idOf(s string) string {
	id, _, _ := strings.Cut(s, ":")
	return id
}

// Check compares a golden list with the current entries. It returns nil
// when the golden bytes are exactly what Update would write, else an error
// naming every drifted case and the command that regenerates the list.
func Check(golden []byte, current []Entry) error {
	entries, retired, err := Parse(golden)
	if err != nil {
		return fmt.Errorf("%w\nregenerate it: %s", err, RegenerateCommand)
	}
	drift := Drift(entries, current, retired)
	if len(drift) == 0 && bytes.Equal(golden, Render(current, retired)) {
		return nil
	}
	var b strings.Builder
	if len(drift) == 0 {
		b.WriteString("the golden catalogue's layout differs from what the generator writes (no case changed)\n")
	} else {
		fmt.Fprintf(&b, "the case catalogue drifted from the golden list (%d changes):\n", len(drift))
		for _, d := range drift {
			b.WriteString("  " + d + "\n")
		}
		b.WriteString("\ndiff (golden list -> current cases):\n")
		b.WriteString(lineDiff(entries, current))
	}
	b.WriteString("\nIf the change is intended: regenerate the list with\n    " + RegenerateCommand +
		"\nand add a CHANGELOG.md entry for every changed, added or removed case (CONTRIBUTING.md, \"Case stability\").")
	return fmt.Errorf("%s", b.String())
}

// Update returns the golden list for the current entries, carrying forward
// the retired IDs of old (a previous golden list, or nil) and retiring the
// IDs of cases old had and current has not.
func Update(old []byte, current []Entry) ([]byte, error) {
	var retired []string
	if len(old) > 0 {
		entries, r, err := Parse(old)
		if err != nil {
			return nil, err
		}
		retired = r
		have := map[string]bool{}
		for _, e := range current {
			have[e.ID] = true
		}
		for _, e := range entries {
			if !have[e.ID] && !slices.Contains(retired, e.ID) {
				retired = append(retired, e.ID)
			}
		}
	}
	sort.Strings(retired)
	for _, e := range current {
		if slices.Contains(retired, e.ID) {
			return nil, fmt.Errorf("case %s reuses a retired ID; IDs are never reused: give the case a new ID", e.ID)
		}
	}
	return Render(current, retired), nil
}

// lineDiff shows the golden lines of changed, removed and added cases as
// "-" and their current lines as "+", in ID order.
func lineDiff(golden, current []Entry) string {
	old := map[string]string{}
	for _, e := range golden {
		old[e.ID] = e.line()
	}
	cur := map[string]string{}
	for _, e := range current {
		cur[e.ID] = e.line()
	}
	var ids []string
	for id := range old {
		ids = append(ids, id)
	}
	for id := range cur {
		if _, ok := old[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	var b strings.Builder
	for _, id := range ids {
		o, inOld := old[id]
		c, inCur := cur[id]
		if inOld && inCur && o == c {
			continue
		}
		if inOld {
			b.WriteString("- " + o + "\n")
		}
		if inCur {
			b.WriteString("+ " + c + "\n")
		}
	}
	return b.String()
}
