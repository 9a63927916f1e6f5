package spec

import (
	"sort"
	"strings"
	"unicode"

	"github.com/nipcl/nipcl-conform/clause"
)

// The sentence model every spec tool shares (check, diff, annotate): a
// sentence's level is the one classify gave it, except that a sentence a
// clause is anchored to is a rule whatever its wording (a lead-in, an item
// label, an explanatory opener the clause's author read as binding). In a
// diff the promotion holds on both sides, and the new wording of an
// anchored sentence inherits it.

// whyAnchored is the prefix of Sentence.Why for a sentence promoted by
// an anchor.
const whyAnchored = "anchored by a clause"

// promote returns s as the spec tools read it given the clauses anchored
// to it: an informative sentence with a clause becomes a RULE.
func promote(s Sentence, ids []string) Sentence {
	if s.Level == "" && len(ids) > 0 {
		s.Level = clause.LevelRule
		s.Why = whyAnchored + " (read as " + s.Why + ")"
	}
	return s
}

// promotedByAnchor reports whether s is a rule only because a clause is
// anchored to it.
func promotedByAnchor(s Sentence) bool { return strings.HasPrefix(s.Why, whyAnchored) }

// sortedTokens is Tokens sorted, the form tokenSimilarity compares.
func sortedTokens(s string) []string {
	t := Tokens(s)
	sort.Strings(t)
	return t
}

// sortedSimilarity is tokenSimilarity on sorted token lists, without
// allocating: the mean of the Dice coefficient of the two multisets and
// the share of the shorter one found in the longer one.
func sortedSimilarity(ta, tb []string) float64 {
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(ta) && j < len(tb); {
		switch {
		case ta[i] == tb[j]:
			common++
			i++
			j++
		case ta[i] < tb[j]:
			i++
		default:
			j++
		}
	}
	dice := 2 * float64(common) / float64(len(ta)+len(tb))
	short := min(len(ta), len(tb))
	if short < 3 {
		return dice
	}
	return (dice + float64(common)/float64(short)) / 2
}

// meaningWords are words whose change is never a typo: requirement
// words, negations and quantifiers, even when one letter apart ("not" →
// "now", "may" → "way", "all" → "any").
var meaningWords = map[string]bool{
	"must": true, "may": true, "should": true, "shall": true, "required": true, "recommended": true, "optional": true,
	"not": true, "no": true, "never": true, "nor": true, "only": true, "all": true, "any": true, "none": true, "every": true,
	"each": true, "some": true, "can": true, "cannot": true, "will": true, "won't": true, "mustn't": true, "shouldn't": true,
	"don't": true, "doesn't": true, "isn't": true, "aren't": true, "before": true, "after": true, "unless": true, "except": true,
	"and": true, "or": true, "if": true, "one": true, "two": true, "three": true, "first": true, "last": true, "latest": true,
	"earliest": true, "oldest": true, "newest": true, "more": true, "less": true, "most": true, "least": true,
	"accept": true, "reject": true, "accepted": true, "rejected": true, "relay": true, "relays": true, "client": true, "clients": true,
}

// typoOnly reports whether b differs from a only by typing errors: the same
// words in the same order, each changed word within two edits of the old
// one (and not more than a third of it), none of them a requirement word,
// negation or quantifier, none holding a digit, and the same code spans.
func typoOnly(a, b Sentence) bool {
	if a.code != b.code || a.Level != b.Level || a.Modal != b.Modal {
		return false
	}
	wa, wb := typoWords(a.Text), typoWords(b.Text)
	if len(wa) != len(wb) {
		return false
	}
	changed := 0
	for i := range wa {
		x, y := wa[i], wb[i]
		if x == y {
			continue
		}
		changed++
		if meaningWords[x] || meaningWords[y] || hasDigit(x) || hasDigit(y) {
			return false
		}
		d := editDistance(x, y)
		if d > 2 || d*3 > max(len([]rune(x)), len([]rune(y))) {
			return false
		}
	}
	return changed > 0
}

// typoWords splits a sentence's normal form into words (letters, digits,
// apostrophes), dropping punctuation.
func typoWords(s string) []string {
	return strings.FieldsFunc(Normalize(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'')
	})
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// editDistance is the optimal string alignment distance of two words
// (insertions, deletions, substitutions and adjacent transpositions).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// modalName is how a RULE sentence's level is shown when it carries a
// lower-case requirement word: "RULE (may)".
func modalName(level clause.Level, modal string) string {
	if level == clause.LevelRule && modal != "" {
		return string(level) + " (" + modal + ")"
	}
	return levelName(level)
}
