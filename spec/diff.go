package spec

import (
	"cmp"
	"slices"
	"sort"

	"github.com/nipcl/nipcl-conform/clause"
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
	// Typo: a normative sentence whose words were only respelled (no
	// requirement word, negation, number or code changed): not a rule
	// change, though a clause anchored to it must be re-anchored.
	Typo = "typo"
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
	// Stale: those of Clauses this change makes stale (anchored to the
	// old wording, which the new revision no longer has).
	Stale []string `json:"stale,omitempty"`
	// NotTestable: when Clauses have no case because none of them can be
	// tested, why ("not testable: …" rather than "no case yet").
	NotTestable string `json:"not_testable,omitempty"`
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
	// Gate is what an editor's CI decides on (see DiffGate).
	Gate DiffGate `json:"gate"`
}

// Diff compares two revisions sentence by sentence, reading each side
// with the shared sentence model (a sentence a clause is anchored to is a
// rule; see promote). Sentences with the same fingerprint are unchanged
// (reported only if normative and moved to another heading, or if their
// level differs). The rest are paired by similarity — greedily, best pair
// first, a small bonus for the same heading, at least minRewordSimilarity
// — where at least one side is normative: such a pair is reworded, a
// level change when the levels (or the lower-case requirement words of
// two RULE sentences) differ, or a typo when only the spelling of words
// changed. Normative sentences left unpaired are removed or added.
// Clauses and cases come from the anchors of cat (any profile); profile
// selects the clauses offered as hints and those the gate counts.
//
// The cost is linear in the size of the drafts (times a constant bound
// on the candidates each sentence is compared with) plus a sort of the
// candidate pairs: candidates come from an index of the old sentences by
// content word, rare words first, frequent words only near the place the
// unchanged sentences around the new one put it.
func Diff(old, new *Doc, cat *Catalog, profile string) *DiffReport {
	r := &DiffReport{Old: old.Name, New: new.Name, OldTitle: old.Title, NewTitle: new.Title, Profile: profile, Counts: map[string]int{}, Changes: []Change{}}
	r.SectionsAdded, r.SectionsRemoved = headingDiff(old, new)
	anchored := cat.byHash("")
	hints := newHintIndex(cat.ProfileClauses(profile))
	olds := promoteAll(old.Sentences, anchored)
	news := promoteAll(new.Sentences, anchored)

	usedOld := make([]bool, len(olds))
	usedNew := make([]bool, len(news))
	// along[j]: for a new sentence paired by fingerprint, its old index;
	// the others find their place from the nearest such neighbour.
	along := make([]int, len(news))
	// 1. Identical sentences, paired in order.
	byHash := map[string][]int{}
	for i, s := range olds {
		byHash[s.Hash] = append(byHash[s.Hash], i)
	}
	for j, s := range news {
		along[j] = -1
		list := byHash[s.Hash]
		if len(list) == 0 {
			continue
		}
		i := list[0]
		byHash[s.Hash] = list[1:]
		usedOld[i], usedNew[j] = true, true
		along[j] = i
		o := olds[i]
		switch {
		case o.Level != s.Level:
			r.add(Change{Kind: LevelChanged, Old: refp(o), New: refp(s), Similarity: 1, LevelChange: levelName(o.Level) + " → " + levelName(s.Level)}, cat, anchored, hints)
		case s.Normative() && NormalizeHeading(o.Heading) != NormalizeHeading(s.Heading):
			r.add(Change{Kind: Moved, Old: refp(o), New: refp(s), Similarity: 1}, cat, anchored, hints)
		}
	}
	// 2. Rewordings: candidate pairs from the word index, best first.
	pairs := candidatePairs(olds, news, usedOld, usedNew, along)
	slices.SortFunc(pairs, func(a, b candidate) int {
		switch {
		case a.score != b.score:
			return cmp.Compare(b.score, a.score)
		case a.j != b.j:
			return cmp.Compare(a.j, b.j)
		}
		return cmp.Compare(a.i, b.i)
	})
	for _, p := range pairs {
		if usedOld[p.i] || usedNew[p.j] {
			continue
		}
		usedOld[p.i], usedNew[p.j] = true, true
		o, s := olds[p.i], news[p.j]
		if !s.Normative() && promotedByAnchor(o) {
			// The new wording of a sentence a clause is anchored to is
			// read as that rule, reworded.
			s.Level = o.Level
			s.Why = "new wording of a sentence a clause is anchored to (read as " + s.Why + ")"
		}
		c := Change{Kind: Reworded, Old: refp(o), New: refp(s), Similarity: round2(p.sim)}
		switch {
		case o.Level != s.Level:
			c.Kind = LevelChanged
			c.LevelChange = levelName(o.Level) + " → " + levelName(s.Level)
		case o.Level == clause.LevelRule && o.Modal != s.Modal:
			c.Kind = LevelChanged
			c.LevelChange = modalName(o.Level, o.Modal) + " → " + modalName(s.Level, s.Modal)
		case typoOnly(o, s):
			c.Kind = Typo
		}
		r.add(c, cat, anchored, hints)
	}
	// 3. What is left.
	for i, o := range olds {
		if !usedOld[i] && o.Normative() {
			r.add(Change{Kind: Removed, Old: refp(o)}, cat, anchored, hints)
		}
	}
	for j, s := range news {
		if !usedNew[j] && s.Normative() {
			r.add(Change{Kind: Added, New: refp(s)}, cat, anchored, hints)
		}
	}
	// Report in the new draft's order; removals at their old place. (The
	// order is sorted as indices, then applied once: a change is large.)
	order := make([]int, len(r.Changes))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(changeLine(r.Changes[a]), changeLine(r.Changes[b])) })
	sorted := make([]Change, len(order))
	for k, i := range order {
		sorted[k] = r.Changes[i]
	}
	r.Changes = sorted
	r.gate(old, new, cat, profile)
	return r
}

// promoteAll returns the sentences as the spec tools read them (promote).
func promoteAll(ss []Sentence, anchored map[string][]string) []Sentence {
	out := make([]Sentence, len(ss))
	for i, s := range ss {
		out[i] = promote(s, anchored[s.Hash])
	}
	return out
}

// Bounds of the candidate search of Diff.
const (
	// rareWord: a word in at most this many unpaired old sentences is
	// looked up everywhere; a more frequent one only near the new
	// sentence's place.
	rareWord = 64
	// nearWindow: how many old sentences on each side of that place a
	// frequent word is looked up in.
	nearWindow = 48
	// maxCandidates: the old sentences sharing the most words with a new
	// one that are scored against it.
	maxCandidates = 24
)

type candidate struct {
	i, j       int
	score, sim float64
}

// candidatePairs scores each unpaired new sentence against the unpaired
// old sentences sharing the most content words with it, and returns the
// pairs similar enough to be one sentence reworded.
func candidatePairs(olds, news []Sentence, usedOld, usedNew []bool, along []int) []candidate {
	oldTok := make([][]string, len(olds))
	postings := map[string][]int{} // word → unpaired old sentences, ascending
	for i, s := range olds {
		if usedOld[i] {
			continue
		}
		oldTok[i] = sortedTokens(s.Text)
		for k, w := range oldTok[i] {
			if k > 0 && oldTok[i][k-1] == w {
				continue
			}
			postings[w] = append(postings[w], i)
		}
	}
	// place[j]: the old index the new sentence j would sit at, from the
	// nearest fingerprint-paired new sentence before it.
	place := make([]int, len(news))
	last, lastJ := -1, -1
	for j := range news {
		if along[j] >= 0 {
			last, lastJ = along[j], j
		}
		if last < 0 {
			place[j] = j
		} else {
			place[j] = last + (j - lastJ)
		}
	}
	headings := map[string]string{}
	heading := func(h string) string {
		n, ok := headings[h]
		if !ok {
			n = NormalizeHeading(h)
			headings[h] = n
		}
		return n
	}
	var pairs []candidate
	// count[i]: words old sentence i shares with the new sentence at
	// hand; touched lists the i to reset, so each new sentence costs what
	// it looks up, not the size of the old draft.
	count := make([]int, len(olds))
	var touched []int
	type hit struct{ i, n int }
	var hits []hit
	for j, s := range news {
		if usedNew[j] {
			continue
		}
		tj := sortedTokens(s.Text)
		for _, i := range touched {
			count[i] = 0
		}
		touched = touched[:0]
		for k, w := range tj {
			if k > 0 && tj[k-1] == w {
				continue
			}
			list := postings[w]
			if len(list) > rareWord {
				lo := sort.SearchInts(list, place[j]-nearWindow)
				hi := sort.SearchInts(list, place[j]+nearWindow+1)
				list = list[lo:hi]
			}
			for _, i := range list {
				if count[i] == 0 {
					touched = append(touched, i)
				}
				count[i]++
			}
		}
		hits = hits[:0]
		for _, i := range touched {
			hits = append(hits, hit{i, count[i]})
		}
		sort.Slice(hits, func(a, b int) bool {
			if hits[a].n != hits[b].n {
				return hits[a].n > hits[b].n
			}
			return hits[a].i < hits[b].i
		})
		if len(hits) > maxCandidates {
			hits = hits[:maxCandidates]
		}
		for _, h := range hits {
			o := olds[h.i]
			if usedOld[h.i] || (!o.Normative() && !s.Normative()) {
				continue
			}
			sim := sortedSimilarity(oldTok[h.i], tj)
			floor := minRewordSimilarity
			if (!o.Normative() || !s.Normative()) && !(o.Normative() && promotedByAnchor(o)) {
				// An informative sentence becoming a rule (or the
				// reverse) must be a close rewording to count as one;
				// the new wording of an anchored sentence need not.
				floor = minLevelSimilarity
			}
			if sim < floor {
				continue
			}
			sc := sim
			if heading(o.Heading) == heading(s.Heading) {
				sc += 0.05
			}
			pairs = append(pairs, candidate{h.i, j, sc, sim})
		}
	}
	return pairs
}

func changeLine(c Change) int {
	if c.New != nil {
		return c.New.Line*2 + 1
	}
	return c.Old.Line * 2
}

func (r *DiffReport) add(c Change, cat *Catalog, anchored map[string][]string, hints *hintIndex) {
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
	c.NotTestable = cat.notTestable(ids, c.Cases)
	if len(ids) == 0 && c.New != nil && c.Kind != Moved && c.Kind != Typo {
		if id, score := hints.closest(c.New.Text); score >= minClauseHint {
			c.Hint = id + " (" + fmt2(score) + ")"
		}
	}
	r.Changes = append(r.Changes, c)
	r.Counts[c.Kind]++
}

func refp(s Sentence) *SentenceRef {
	r := s.Ref()
	return &r
}

func levelName(l clause.Level) string {
	if l == "" {
		return "informative"
	}
	return string(l)
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

// DiffGate is the summary of a diff an editor's CI gates a pull request
// on.
type DiffGate struct {
	// NewNormative counts added normative sentences; ChangedNormative the
	// reworded, re-levelled and removed ones; Typos the respelled ones.
	NewNormative     int `json:"new_normative"`
	ChangedNormative int `json:"changed_normative"`
	Typos            int `json:"typos"`
	// NewMustWithoutClause lists the new wordings at MUST or MUST NOT
	// that no clause is anchored to, on either side.
	NewMustWithoutClause []SentenceRef `json:"new_must_without_clause"`
	// StaleClauses lists the clauses (of the profile; of every profile
	// when none) anchored to a sentence OLD has and NEW lacks: the
	// change makes them stale until they are re-anchored or rewritten.
	StaleClauses []string `json:"stale_clauses"`
	// NeedsAttention: a normative sentence was added, changed or
	// removed, or a clause was made stale (exit status 1 of spec diff).
	NeedsAttention bool `json:"needs_attention"`
}

// gate fills in r.Gate from the changes and the anchors of cat.
func (r *DiffReport) gate(old, new *Doc, cat *Catalog, profile string) {
	g := DiffGate{NewMustWithoutClause: []SentenceRef{}, StaleClauses: []string{}}
	for _, c := range r.Changes {
		switch c.Kind {
		case Added:
			g.NewNormative++
		case Reworded, LevelChanged, Removed:
			g.ChangedNormative++
		case Typo:
			g.Typos++
		}
		if c.New != nil && c.Kind != Moved && (c.New.Level == clause.LevelMust || c.New.Level == clause.LevelMustNot) && len(c.Clauses) == 0 {
			g.NewMustWithoutClause = append(g.NewMustWithoutClause, *c.New)
		}
	}
	inOld, inNew := map[string]bool{}, map[string]bool{}
	for _, s := range old.Sentences {
		inOld[s.Hash] = true
	}
	for _, s := range new.Sentences {
		inNew[s.Hash] = true
	}
	for _, cl := range cat.Clauses {
		if profile != "" && cl.SpecProfile() != profile {
			continue
		}
		for _, a := range cl.Anchors {
			if inOld[a.Hash] && !inNew[a.Hash] {
				g.StaleClauses = append(g.StaleClauses, cl.ID)
				break
			}
		}
	}
	sort.SliceStable(g.StaleClauses, func(a, b int) bool { return clauseIDLess(g.StaleClauses[a], g.StaleClauses[b]) })
	stale := map[string]bool{}
	for _, id := range g.StaleClauses {
		stale[id] = true
	}
	for i := range r.Changes {
		for _, id := range r.Changes[i].Clauses {
			if stale[id] {
				r.Changes[i].Stale = append(r.Changes[i].Stale, id)
			}
		}
	}
	g.NeedsAttention = g.NewNormative > 0 || g.ChangedNormative > 0 || len(g.NewMustWithoutClause) > 0 || len(g.StaleClauses) > 0
	r.Gate = g
}

// hintIndex finds the clause whose text is closest to a sentence, with
// the clauses' tokens computed once and indexed by word, so that a
// sentence is scored only against the clauses sharing the most words with
// it (maxCandidates), as Diff pairs sentences.
type hintIndex struct {
	ids      []string
	tokens   [][]string
	postings map[string][]int
	count    []int
}

func newHintIndex(cls []clause.Clause) *hintIndex {
	h := &hintIndex{postings: map[string][]int{}, count: make([]int, len(cls))}
	for k, cl := range cls {
		h.ids = append(h.ids, cl.ID)
		t := sortedTokens(cl.Text)
		h.tokens = append(h.tokens, t)
		for x, w := range t {
			if x == 0 || t[x-1] != w {
				h.postings[w] = append(h.postings[w], k)
			}
		}
	}
	return h
}

// closest returns the clause closest to text and its similarity ("", 0
// when there is none).
func (h *hintIndex) closest(text string) (string, float64) {
	t := sortedTokens(text)
	var touched []int
	for x, w := range t {
		if x > 0 && t[x-1] == w {
			continue
		}
		for _, k := range h.postings[w] {
			if h.count[k] == 0 {
				touched = append(touched, k)
			}
			h.count[k]++
		}
	}
	slices.SortFunc(touched, func(a, b int) int {
		if c := cmp.Compare(h.count[b], h.count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	best, bestScore := "", 0.0
	for n, k := range touched {
		if n < maxCandidates {
			if sc := sortedSimilarity(h.tokens[k], t); sc > bestScore {
				best, bestScore = h.ids[k], sc
			}
		}
	}
	for _, k := range touched {
		h.count[k] = 0
	}
	return best, bestScore
}
