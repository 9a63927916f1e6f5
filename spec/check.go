package spec

import (
	"sort"

	"github.com/nipcl/nipcl-conform/clause"
)

// Levels in report order.
var Levels = []clause.Level{clause.LevelMust, clause.LevelMustNot, clause.LevelShould, clause.LevelShouldNot, clause.LevelMay, clause.LevelRule}

// SentenceRef is a sentence as the reports show it.
type SentenceRef struct {
	Line    int          `json:"line"`
	Heading string       `json:"heading"`
	Lead    string       `json:"lead,omitempty"`
	Kind    string       `json:"kind"`
	Level   clause.Level `json:"level"`           // "" informative
	Modal   string       `json:"modal,omitempty"` // RULE: its lower-case requirement word
	Why     string       `json:"why"`
	Unsure  string       `json:"unsure,omitempty"`
	Text    string       `json:"text"`
	Hash    string       `json:"hash"`
}

// Ref returns the report form of s.
func (s Sentence) Ref() SentenceRef {
	return SentenceRef{Line: s.Line, Heading: s.Heading, Lead: s.Lead, Kind: s.Kind.String(), Level: s.Level, Modal: s.Modal, Why: s.Why, Unsure: s.Unsure, Text: s.Text, Hash: s.Hash}
}

// Where is "L<line> § heading › lead".
func (r SentenceRef) Where() string {
	return Sentence{Line: r.Line, Heading: r.Heading, Lead: r.Lead}.Where()
}

// Checked is one normative sentence of a checked draft.
type Checked struct {
	SentenceRef
	Covered bool     `json:"covered"`
	Clauses []string `json:"clauses,omitempty"`
	Cases   []string `json:"cases,omitempty"`
	// NotTestable says why a covered sentence has no case when none of
	// its clauses can be tested ("" when it has cases, or none yet).
	NotTestable string `json:"not_testable,omitempty"`
	// Note: the sentence replaces a stale clause's wording, or the
	// closest clause for a sentence without one.
	Note string `json:"note,omitempty"`
}

// Stale is a clause of the profile whose sentence the draft no longer has
// (some or all of its anchors are missing).
type Stale struct {
	Clause  string       `json:"clause"`
	Level   clause.Level `json:"level"`
	Text    string       `json:"text"` // the clause's own words
	Cases   []string     `json:"cases,omitempty"`
	Missing int          `json:"missing"` // anchors not found
	Anchors int          `json:"anchors"` // anchors in all
	// Closest is the draft sentence nearest the clause's text, when one
	// is near enough to be a rewording.
	Closest    *SentenceRef `json:"closest,omitempty"`
	Similarity float64      `json:"similarity,omitempty"`
}

// LevelCount counts normative sentences and those with a clause.
type LevelCount struct {
	Total       int `json:"total"`
	Covered     int `json:"covered"`
	WithCases   int `json:"with_cases"`
	NotTestable int `json:"not_testable"` // covered, no case, and no clause testable
}

// CheckReport is the result of Check.
type CheckReport struct {
	Draft     string                      `json:"draft"`
	Title     string                      `json:"title"`
	Profile   string                      `json:"profile"`
	ProfileBy string                      `json:"profile_by"`
	Sentences []Checked                   `json:"sentences"` // every normative sentence, in draft order
	Stale     []Stale                     `json:"stale"`
	Coverage  LevelCount                  `json:"coverage"`
	ByLevel   map[clause.Level]LevelCount `json:"by_level"`
	// Unsure lists the normative sentences whose reading is doubtful or
	// whose wording is ambiguous.
	Unsure []SentenceRef `json:"unsure,omitempty"`
	// AllowStale: the draft is an older revision (--allow-stale), so a
	// clause whose sentence it lacks is "not yet anchored" rather than
	// stale, and fails nothing.
	AllowStale bool `json:"allow_stale,omitempty"`
	// LevelReadings are the cases on the report's clauses judged at a
	// level the text gives without a keyword (a definition, a lowercase
	// "must"/"should"): their reading starts with "Level:" and says which
	// level and why (filled by the caller, which knows the cases).
	LevelReadings []LevelReading `json:"level_readings"`
}

// LevelReading is one case judged at a level its sentence gives without
// an RFC 2119 keyword.
type LevelReading struct {
	Case    string   `json:"case"`
	Level   string   `json:"level"`
	Clauses []string `json:"clauses"`
	Reading string   `json:"reading"`
}

// StaleMust counts the stale clauses at MUST or MUST NOT: an editor's CI
// fails on them unless the draft is an older revision (AllowStale).
func (r *CheckReport) StaleMust() int {
	n := 0
	for _, s := range r.Stale {
		if s.Level == clause.LevelMust || s.Level == clause.LevelMustNot {
			n++
		}
	}
	return n
}

// Uncovered returns the normative sentences without a clause.
func (r *CheckReport) Uncovered() []Checked {
	var out []Checked
	for _, s := range r.Sentences {
		if !s.Covered {
			out = append(out, s)
		}
	}
	return out
}

// UncoveredMust counts uncovered MUST and MUST NOT sentences: an editor's
// CI fails on them.
func (r *CheckReport) UncoveredMust() int {
	n := 0
	for _, s := range r.Uncovered() {
		if s.Level == clause.LevelMust || s.Level == clause.LevelMustNot {
			n++
		}
	}
	return n
}

// minRewordSimilarity: below this two sentences are not taken for one
// another (diff's rewording, check's stale-clause hints).
const minRewordSimilarity = 0.5

// minClauseHint: below this a clause's text is not offered as the nearest
// clause of a sentence (clause texts paraphrase, so scores run lower).
const minClauseHint = 0.45

// Check relates a draft to the clauses of a profile: which normative
// sentences have a clause (and cases), which have none, and which clauses
// lost their sentence. A sentence a clause is anchored to counts as
// normative even where the extractor read it as informative.
func Check(d *Doc, cat *Catalog, profile, profileBy string) *CheckReport {
	r := &CheckReport{Draft: d.Name, Title: d.Title, Profile: profile, ProfileBy: profileBy, ByLevel: map[clause.Level]LevelCount{},
		Sentences: []Checked{}, Stale: []Stale{}}
	anchored := cat.byHash(profile)
	clauses := cat.ProfileClauses(profile)
	have := map[string]bool{}
	for _, s := range d.Sentences {
		have[s.Hash] = true
	}
	idx := map[string]int{} // hash → index in r.Sentences
	for _, s := range d.Sentences {
		ids := anchored[s.Hash]
		s = promote(s, ids)
		if !s.Normative() {
			continue
		}
		ref := s.Ref()
		c := Checked{SentenceRef: ref, Covered: len(ids) > 0, Clauses: ids, Cases: cat.casesOfAll(ids)}
		c.NotTestable = cat.notTestable(ids, c.Cases)
		if _, dup := idx[s.Hash]; !dup {
			idx[s.Hash] = len(r.Sentences)
		}
		r.Sentences = append(r.Sentences, c)
		if s.Unsure != "" {
			r.Unsure = append(r.Unsure, ref)
		}
	}
	// Stale clauses, and the uncovered sentence each may have become.
	sentTok := make([][]string, len(r.Sentences))
	for i, s := range r.Sentences {
		sentTok[i] = sortedTokens(s.Text)
	}
	hints := newHintIndex(clauses)
	for _, cl := range clauses {
		missing := 0
		for _, a := range cl.Anchors {
			if !have[a.Hash] {
				missing++
			}
		}
		if missing == 0 {
			continue
		}
		st := Stale{Clause: cl.ID, Level: cl.Level, Text: cl.Text, Cases: cat.CasesOf(cl.ID), Missing: missing, Anchors: len(cl.Anchors)}
		best, bestScore := -1, 0.0
		clTok := sortedTokens(cl.Text)
		for i, s := range r.Sentences {
			if s.Covered && missing == len(cl.Anchors) {
				continue
			}
			if sc := sortedSimilarity(clTok, sentTok[i]); sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best >= 0 && bestScore >= minClauseHint {
			ref := r.Sentences[best].SentenceRef
			st.Closest, st.Similarity = &ref, round2(bestScore)
			if !r.Sentences[best].Covered && r.Sentences[best].Note == "" {
				r.Sentences[best].Note = "changed? may be the new wording of stale clause " + cl.ID
			}
		}
		r.Stale = append(r.Stale, st)
	}
	// Nearest clause for the rest of the uncovered sentences.
	for i, s := range r.Sentences {
		if s.Covered || s.Note != "" {
			continue
		}
		r.Sentences[i].Note = "no clause"
		if bestID, bestScore := hints.closest(s.Text); bestScore >= minClauseHint {
			r.Sentences[i].Note = "closest clause " + bestID + " (" + fmt2(bestScore) + ")"
		}
	}
	for _, s := range r.Sentences {
		lc := r.ByLevel[s.Level]
		lc.Total++
		r.Coverage.Total++
		if s.Covered {
			lc.Covered++
			r.Coverage.Covered++
		}
		if len(s.Cases) > 0 {
			lc.WithCases++
			r.Coverage.WithCases++
		}
		if s.NotTestable != "" {
			lc.NotTestable++
			r.Coverage.NotTestable++
		}
		r.ByLevel[s.Level] = lc
	}
	sort.SliceStable(r.Stale, func(i, j int) bool { return clauseIDLess(r.Stale[i].Clause, r.Stale[j].Clause) })
	return r
}

func clauseIDLess(a, b string) bool {
	sa, na, oka := clause.SplitClauseID(a)
	sb, nb, okb := clause.SplitClauseID(b)
	if oka && okb && sa == sb {
		return na < nb
	}
	return a < b
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

func fmt2(f float64) string {
	n := int(f*100 + 0.5)
	return itoa(n/100) + "." + string(rune('0'+n%100/10)) + string(rune('0'+n%10))
}
