package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// Catalog is what a draft is related to: the clauses (with their anchors)
// and, through Cases, the conformance cases covering each clause. The CLI
// passes suites.ClauseCases; tests pass what they need.
type Catalog struct {
	Clauses []clause.Clause
	Cases   func(clauseID string) []string // nil: no cases known
}

// NewCatalog returns the catalogue of package clause with the given case
// lookup.
func NewCatalog(cases func(clauseID string) []string) *Catalog {
	return &Catalog{Clauses: clause.Clauses(), Cases: cases}
}

// CasesOf returns the cases covering a clause, sorted.
func (c *Catalog) CasesOf(clauseID string) []string {
	if c.Cases == nil {
		return nil
	}
	out := append([]string(nil), c.Cases(clauseID)...)
	sort.Strings(out)
	return out
}

// casesOfAll returns the distinct cases of several clauses, sorted.
func (c *Catalog) casesOfAll(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		for _, k := range c.CasesOf(id) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// notTestable says why sentences with these clauses have no case when
// that is because none of the clauses can be tested ("" when a case
// exists, or when some clause is testable and merely lacks one — "no case
// yet"): the clauses' reasons, each once.
func (c *Catalog) notTestable(ids, cases []string) string {
	if len(ids) == 0 || len(cases) > 0 {
		return ""
	}
	var reasons []string
	for _, id := range ids {
		cl, ok := c.clause(id)
		if !ok || cl.Testable {
			return ""
		}
		r := cl.Reason
		if r == "" {
			r = "not testable against a relay"
		}
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	return strings.Join(reasons, "; ")
}

// clause returns the clause with this ID.
func (c *Catalog) clause(id string) (clause.Clause, bool) {
	for _, cl := range c.Clauses {
		if cl.ID == id {
			return cl, true
		}
	}
	return clause.Clause{}, false
}

// ProfileClauses returns the anchored clauses of a spec profile ("" →
// none): those of the sections of its document (clause.SpecProfiles).
func (c *Catalog) ProfileClauses(profile string) []clause.Clause {
	if profile == "" {
		return nil
	}
	var out []clause.Clause
	for _, cl := range c.Clauses {
		if cl.SpecProfile() == profile && len(cl.Anchors) > 0 {
			out = append(out, cl)
		}
	}
	return out
}

// byHash maps fingerprints to the IDs of the clauses anchored there; with
// profile "" every clause counts.
func (c *Catalog) byHash(profile string) map[string][]string {
	m := map[string][]string{}
	for _, cl := range c.Clauses {
		if profile != "" && cl.SpecProfile() != profile {
			continue
		}
		for _, a := range cl.Anchors {
			if !slices.Contains(m[a.Hash], cl.ID) {
				m[a.Hash] = append(m[a.Hash], cl.ID)
			}
		}
	}
	return m
}

// DetectProfile tells which profile a draft belongs to: the profile whose
// draft title the document's title contains, else the profile with the
// largest share of its anchored sentences present in the document (at
// least a fifth). how says which rule decided, or why none did.
func (c *Catalog) DetectProfile(d *Doc) (profile, how string) {
	title := NormalizeHeading(d.Title)
	var byTitle []string
	for _, p := range clause.SpecProfiles {
		doc := clause.SpecProfileDoc(p)
		t := NormalizeHeading(clause.DocTitle(doc))
		// A NIP names itself in its title ("NIP-29 — Relay-based Groups").
		n := ""
		if strings.HasPrefix(doc, "NIP-") {
			n = NormalizeHeading(doc)
		}
		if (t != "" && containsWords(title, t)) || (n != "" && containsWords(title, n)) {
			byTitle = append(byTitle, p)
		}
	}
	if len(byTitle) == 1 {
		return byTitle[0], fmt.Sprintf("from the title %q", d.Title)
	}
	have := map[string]bool{}
	for _, s := range d.Sentences {
		have[s.Hash] = true
	}
	best, bestShare, bestN, bestOf := "", 0.0, 0, 0
	for _, p := range clause.SpecProfiles {
		hashes := map[string]bool{}
		for _, cl := range c.ProfileClauses(p) {
			for _, a := range cl.Anchors {
				hashes[a.Hash] = true
			}
		}
		n := 0
		for h := range hashes {
			if have[h] {
				n++
			}
		}
		if len(hashes) == 0 {
			continue
		}
		share := float64(n) / float64(len(hashes))
		if share > bestShare {
			best, bestShare, bestN, bestOf = p, share, n, len(hashes)
		}
	}
	if best != "" && bestShare >= 0.2 {
		return best, fmt.Sprintf("by anchor match (%d of the profile's %d anchored sentences are in the draft)", bestN, bestOf)
	}
	return "", "no profile: the title names no known draft and too few anchored sentences match; pass --profile"
}

// containsWords reports whether phrase occurs in s as whole words.
func containsWords(s, phrase string) bool {
	s, phrase = " "+s+" ", " "+phrase+" "
	for i := 0; i+len(phrase) <= len(s); i++ {
		if s[i:i+len(phrase)] == phrase {
			return true
		}
	}
	return false
}

// SpecDir finds the bundled drafts: $NIPCL_SPEC_DIR, else shared/spec
// beside the repository (../shared/spec from the module root, found by
// walking up from the working directory to go.mod). "" when absent.
func SpecDir() string {
	if d := os.Getenv("NIPCL_SPEC_DIR"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cand := filepath.Join(dir, "..", "shared", "spec")
			if _, err := os.Stat(filepath.Join(cand, clause.DocIdentity)); err == nil {
				return cand
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// ParseFile reads and parses a draft: ReadDraft.
func ParseFile(path string) (*Doc, error) { return ReadDraft(path) }
