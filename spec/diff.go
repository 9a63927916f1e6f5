package spec

import (
	"slices"
	"sort"
)

// Change kinds.
const (
	Added    = "added"
	Removed  = "removed"
	Reworded = "reworded"
	// LevelChanged: a matched sentence whose requirement level differs
	// (SHOULD → MUST, or informative → MUST).
	LevelChanged = "level"
	// Moved: the same normative sentence under another heading.
	Moved = "moved"
)

// minLevelSimilarity: how alike an informative and a normative sentence
// must be to be read as one sentence whose level changed.
const minLevelSimilarity = 0.75

// Change is one normative change between two revisions.
type Change struct {
	Kind        string       `json:"kind"`
	Old         *SentenceRef `json:"old,omitempty"`
	New         *SentenceRef `json:"new,omitempty"`
	Similarity  float64      `json:"similarity,omitempty"`
	LevelChange string       `json:"level_change,omitempty"` // "SHOULD → MUST"
	// Clauses anchored to the old or new sentence, and their cases: what
	// the change makes stale or needs re-checked.
	Clauses []string `json:"clauses,omitempty"`
	Cases   []string `json:"cases,omitempty"`
	// Hint names the clause whose text is closest to an added sentence
	// without a clause (its cases may need extending).
	Hint string `json:"hint,omitempty"`
	// Verdicts: each implementation's earlier outcome on Cases (see
	// AttachResults): a change to a sentence whose cases passed may break
	// an implementation that conformed.
	Verdicts []Verdict `json:"verdicts,omitempty"`
}

// Heading returns the heading the change is filed under (the new
// sentence's, else the old one's).
func (c Change) Heading() string {
	if c.New != nil {
		return c.New.Heading
	}
	return c.Old.Heading
}

// DiffReport lists the normative changes from Old to New.
type DiffReport struct {
	Old             string         `json:"old"`
	New             string         `json:"new"`
	OldTitle        string         `json:"old_title"`
	NewTitle        string         `json:"new_title"`
	Profile         string         `json:"profile,omitempty"`
	SectionsAdded   []string       `json:"sections_added,omitempty"`
	SectionsRemoved []string       `json:"sections_removed,omitempty"`
	Changes         []Change       `json:"changes"`
	Counts          map[string]int `json:"counts"`
}

// Diff compares two revisions sentence by sentence. Sentences with the
// same fingerprint are unchanged (reported only if normative and moved to
// another heading, or if their level differs). The rest are paired by
// similarity — greedily, best pair first, a small bonus for the same
// heading, at least minRewordSimilarity — where at least one side is
// normative: such a pair is reworded (or a level change when the levels
// differ). Normative sentences left unpaired are removed or added.
// Clauses and cases come from the anchors of cat (any profile); profile
// selects the clauses offered as hints.
func Diff(old, new *Doc, cat *Catalog, profile string) *DiffReport {
	r := &DiffReport{Old: old.Name, New: new.Name, OldTitle: old.Title, NewTitle: new.Title, Profile: profile, Counts: map[string]int{}}
	r.SectionsAdded, r.SectionsRemoved = headingDiff(old, new)
	anchored := cat.byHash("")

	usedOld := make([]bool, len(old.Sentences))
	usedNew := make([]bool, len(new.Sentences))
	// 1. Identical sentences, paired in order.
	byHash := map[string][]int{}
	for i, s := range old.Sentences {
		byHash[s.Hash] = append(byHash[s.Hash], i)
	}
	for j, s := range new.Sentences {
		list := byHash[s.Hash]
		if len(list) == 0 {
			continue
		}
		i := list[0]
		byHash[s.Hash] = list[1:]
		usedOld[i], usedNew[j] = true, true
		o := old.Sentences[i]
		switch {
		case o.Level != s.Level:
			r.add(Change{Kind: LevelChanged, Old: refp(o), New: refp(s), Similarity: 1, LevelChange: levelName(o.Level) + " → " + levelName(s.Level)}, cat, anchored, profile)
		case s.Normative() && NormalizeHeading(o.Heading) != NormalizeHeading(s.Heading):
			r.add(Change{Kind: Moved, Old: refp(o), New: refp(s), Similarity: 1}, cat, anchored, profile)
		}
	}
	// 2. Rewordings.
	type pair struct {
		i, j       int
		score, sim float64
	}
	var pairs []pair
	oldTok := make([][]string, len(old.Sentences))
	for i, s := range old.Sentences {
		if !usedOld[i] {
			oldTok[i] = Tokens(s.Text)
		}
	}
	for j, s := range new.Sentences {
		if usedNew[j] {
			continue
		}
		tj := Tokens(s.Text)
		for i, o := range old.Sentences {
			if usedOld[i] || (!o.Normative() && !s.Normative()) {
				continue
			}
			sim := tokenSimilarity(oldTok[i], tj)
			min := minRewordSimilarity
			if !o.Normative() || !s.Normative() {
				// An informative sentence becoming a rule (or the
				// reverse) must be a close rewording to count as one.
				min = minLevelSimilarity
			}
			if sim < min {
				continue
			}
			sc := sim
			if NormalizeHeading(o.Heading) == NormalizeHeading(s.Heading) {
				sc += 0.05
			}
			pairs = append(pairs, pair{i, j, sc, sim})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].score > pairs[b].score })
	for _, p := range pairs {
		if usedOld[p.i] || usedNew[p.j] {
			continue
		}
		usedOld[p.i], usedNew[p.j] = true, true
		o, s := old.Sentences[p.i], new.Sentences[p.j]
		c := Change{Kind: Reworded, Old: refp(o), New: refp(s), Similarity: round2(p.sim)}
		if o.Level != s.Level {
			c.Kind = LevelChanged
			c.LevelChange = levelName(o.Level) + " → " + levelName(s.Level)
		}
		r.add(c, cat, anchored, profile)
	}
	// 3. What is left.
	for i, o := range old.Sentences {
		if !usedOld[i] && o.Normative() {
			r.add(Change{Kind: Removed, Old: refp(o)}, cat, anchored, profile)
		}
	}
	for j, s := range new.Sentences {
		if !usedNew[j] && s.Normative() {
			r.add(Change{Kind: Added, New: refp(s)}, cat, anchored, profile)
		}
	}
	// Report in the new draft's order; removals at their old place.
	sort.SliceStable(r.Changes, func(a, b int) bool { return changeLine(r.Changes[a]) < changeLine(r.Changes[b]) })
	return r
}

func changeLine(c Change) int {
	if c.New != nil {
		return c.New.Line*2 + 1
	}
	return c.Old.Line * 2
}

func (r *DiffReport) add(c Change, cat *Catalog, anchored map[string][]string, profile string) {
	var ids []string
	for _, s := range []*SentenceRef{c.Old, c.New} {
		if s == nil {
			continue
		}
		for _, id := range anchored[s.Hash] {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	sort.SliceStable(ids, func(a, b int) bool { return clauseIDLess(ids[a], ids[b]) })
	c.Clauses = ids
	c.Cases = cat.casesOfAll(ids)
	if len(ids) == 0 && c.New != nil && c.Kind != Moved {
		best, bestScore := "", 0.0
		for _, cl := range cat.ProfileClauses(profile) {
			if sc := Similarity(cl.Text, c.New.Text); sc > bestScore {
				best, bestScore = cl.ID, sc
			}
		}
		if bestScore >= minClauseHint {
			c.Hint = best + " (" + fmt2(bestScore) + ")"
		}
	}
	r.Changes = append(r.Changes, c)
	r.Counts[c.Kind]++
}

func refp(s Sentence) *SentenceRef {
	r := s.Ref()
	return &r
}

func levelName(l string) string {
	if l == "" {
		return "informative"
	}
	return l
}

// headingDiff lists the headings only the new (added) or only the old
// (removed) revision has, compared in normalised form.
func headingDiff(old, new *Doc) (added, removed []string) {
	count := func(d *Doc) map[string]int {
		m := map[string]int{}
		for _, h := range d.Headings() {
			m[NormalizeHeading(h)]++
		}
		return m
	}
	o, n := count(old), count(new)
	for _, h := range new.Headings() {
		k := NormalizeHeading(h)
		if o[k] == 0 {
			added = append(added, h)
		} else {
			o[k]--
		}
	}
	o = count(old)
	for _, h := range old.Headings() {
		k := NormalizeHeading(h)
		if n[k] == 0 {
			removed = append(removed, h)
		} else {
			n[k]--
		}
	}
	return added, removed
}

// AttachResults records every implementation's outcome on each change's
// cases.
func (r *DiffReport) AttachResults(impls []*Impl) {
	for i := range r.Changes {
		c := &r.Changes[i]
		if len(c.Cases) == 0 {
			continue
		}
		for _, im := range impls {
			c.Verdicts = append(c.Verdicts, im.Verdict(c.Cases))
		}
	}
}
