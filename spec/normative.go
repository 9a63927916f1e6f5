package spec

import (
	"regexp"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// Sentence is one sentence of a draft (a table row counts as one).
type Sentence struct {
	Index int    // position in Doc.Sentences
	Block int    // index of its block in Doc.Blocks
	Start int    // byte range in the block's Text
	End   int    //
	Line  int    // first source line of its block
	Kind  Kind   // kind of its block
	Lead  string // run-in heading of its paragraph, if any
	// Heading is the heading the sentence falls under (plain text); Path
	// the headings above it, outermost first.
	Heading string
	Path    []string
	// Context is what a list item or table row is read with: the lead-in
	// sentence before the list, or the table's column names.
	Context string
	Text    string // plain text
	Hash    string // Fingerprint
	// Level is the sentence's requirement level: MUST, MUST NOT, SHOULD,
	// SHOULD NOT, MAY (an RFC 2119 keyword in capitals), RULE (a rule
	// stated without a keyword) or "" (informative).
	Level    clause.Level
	Keywords []string // the capitalised RFC 2119 keywords, in order
	// Modal is the strongest requirement word of a RULE sentence written
	// in lower case ("must", "must not", "should", "should not", "may"),
	// "" if none: RFC 8174 gives it no weight, but an edit from "may" to
	// "must" still changes the rule (diff reports it as a level change).
	Modal string
	Why   string // how the level was decided
	// Unsure says why the reading may be wrong, or why the sentence is
	// ambiguous ("lowercase 'must'", "mixes MUST and MAY", …); "" if clear.
	Unsure string
	raw    string // markdown of the sentence, only while it is classified
	// code is the content of the sentence's code spans, joined by NUL: a
	// tag or kind written as code is never a typo.
	code string
}

// Normative reports whether the sentence states a requirement or rule.
func (s Sentence) Normative() bool { return s.Level != "" }

// Where is "L<line> § <heading>" for messages.
func (s Sentence) Where() string {
	h := s.Heading
	if s.Lead != "" {
		if h != "" {
			h += " › "
		}
		h += s.Lead
	}
	if h == "" {
		h = "(preamble)"
	}
	return "L" + itoa(s.Line) + " § " + h
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// extract splits every paragraph, list item and table row into sentences
// and classifies them.
func extract(d *Doc) []Sentence {
	var out []Sentence
	lastLeadIn := ""
	header := map[int]string{}
	for bi, b := range d.Blocks {
		switch b.Kind {
		case KindHeading, KindCode:
			lastLeadIn = ""
			continue
		case KindTableRow:
			if b.Header {
				header[b.Table] = Plain(b.Text)
				continue
			}
			s := Sentence{Block: bi, Start: 0, End: len(b.Text), Text: Plain(b.Text), Context: header[b.Table]}
			out = append(out, d.finish(s, bi, true))
			continue
		}
		spans := sentenceSpans(b.Text)
		ctx := ""
		if b.Kind == KindListItem {
			ctx = lastLeadIn
		}
		lead := b.Lead
		first := true
		for _, sp := range spans {
			raw := b.Text[sp[0]:sp[1]]
			if m := reBareRunIn.FindStringSubmatch(raw); m != nil {
				// "**Creator.**" inside a paragraph (a draft written
				// without blank lines): a run-in heading for what follows.
				lead = strings.TrimSpace(m[1])
				continue
			}
			s := Sentence{Block: bi, Start: sp[0], End: sp[1], Text: Plain(raw), Context: ctx, Lead: lead}
			out = append(out, d.finish(s, bi, first))
			first = false
		}
		if b.Kind == KindParagraph {
			lastLeadIn = ""
			if len(spans) > 0 {
				last := Plain(b.Text[spans[len(spans)-1][0]:spans[len(spans)-1][1]])
				if strings.HasSuffix(last, ":") {
					lastLeadIn = last
				}
			}
		}
	}
	for i := range out {
		out[i].Index = i
	}
	return out
}

// reItemLabel matches a list item that only names what the paragraphs
// below it define: an emphasised name and parenthesised code spans, such
// as "*join request* (`kind:9021`)" or "*group admins* (`kind:39001`)
// (optional)". It labels a definition; it states no rule itself.
var reItemLabel = regexp.MustCompile("^(?:\\*[^*]+\\*|_[^_]+_)(?:\\s*\\((?:`[^`]+`|optional)\\))+$")

// reBareRunIn matches a sentence that is only a bold run-in heading.
var reBareRunIn = regexp.MustCompile(`^(?:\*\*|__)([^*_]{1,80}?)[.:]?(?:\*\*|__)[.:]?$`)

// finish fills in a sentence's place and level; first is false for the
// second and later sentences of a list item, which read as paragraph
// sentences (an item's first sentence is the rule it lists).
func (d *Doc) finish(s Sentence, bi int, first bool) Sentence {
	b := d.Blocks[bi]
	s.Kind = b.Kind
	s.Line = b.Line
	s.Heading = d.Heading(bi)
	s.Path = d.HeadingPath(bi)
	raw := b.Text[s.Start:s.End]
	s.Hash = Fingerprint(raw)
	kind := s.Kind
	if !first && kind == KindListItem {
		s.Kind = KindParagraph
	}
	s.raw = raw
	s.code = codeContent(raw)
	classify(&s, prose(raw), d.informative(bi))
	s.raw = ""
	s.Kind = kind
	return s
}

// informative reports whether block i lies where a draft explains rather
// than specifies: before its first section (the title and preamble), or
// under a heading such as Motivation, Rationale, Abstract, Examples or
// "Relation to other NIPs".
func (d *Doc) informative(i int) bool {
	s := d.Blocks[i].Section
	if s < 0 || d.titleBlocks[s] {
		return true
	}
	for _, h := range d.HeadingPath(i) {
		if informativeHeading(h) {
			return true
		}
	}
	return false
}

var informativeHeads = []string{
	"abstract", "motivation", "rationale", "introduction", "background", "overview", "summary",
	"example", "examples", "relation to", "related", "references", "acknowledgements", "acknowledgments",
	"changelog", "change log", "history", "changes", "non-normative", "informative", "appendix", "faq",
	"design notes", "notes",
}

func informativeHeading(h string) bool {
	n := NormalizeHeading(h)
	for _, p := range informativeHeads {
		if n == p || strings.HasPrefix(n, p+" ") && (p == "relation to" || p == "example" || p == "examples" || p == "non-normative" || p == "informative" || p == "appendix") {
			return true
		}
	}
	return strings.Contains(n, "(informative)") || strings.Contains(n, "(non-normative)")
}

var (
	reKeyword = regexp.MustCompile(`\b(MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b`)
	// reLowerModal finds RFC 2119 words written in lowercase, which RFC 8174
	// says carry no normative weight.
	//
	// This expression and the ones below are matched against the
	// lower-cased sentence (case folding in the expression costs more).
	reLowerModal = regexp.MustCompile(`\b(must not|must|shall not|shall|should not|should|required|may not|may)\b`)
	reVague      = regexp.MustCompile(`\b(appropriate(ly)?|reasonabl[ey]|if possible|where possible|as needed|etc\.?|and so on|usually|normally|typically|generally|ideally|or similar|sufficient(ly)?|in a timely manner|as soon as possible)\b`)
	// reExplains: sentences that explain, illustrate or justify rather than
	// state a rule.
	reExplains = regexp.MustCompile(`^(for example|for instance|e\.g\.|example|so\b|thus|hence|therefore|this means|that is|in other words|because|since\b|note\b|note that|this is\b|these are\b|this rule\b|this list\b|this way|as a result|in practice|otherwise stated|here\b|see\b|the idea|the reason|the motivation|why\b|(the )?examples?\b)`)
	// reRationale: sentences that say why a rule is there or what it
	// buys ("This ensures …", "This allows …", "The goal is …", "Forks are
	// not bugs."), not what an implementation does.
	reRationale = regexp.MustCompile(`^((this|that)( setup| rule| design| approach| tag| field| event)? (ensures?|allows?|lets|makes it|enables?|prevents?|avoids?|helps?|keeps|gives|protects|exists so|is (done|needed|meant|intended|there|why|so|what|how|useful|important))\b|the (goal|purpose|point|intent|intention|rationale|benefit|advantage) (of|is|here)\b|[a-z]+ (is|are) not (a )?bugs?\b|(it'?s|it is|this is) a feature\b)`)
	// reAnnounce: a lead-in that only announces what follows ("…
	// defined in the following table:", "… these tags, in this order:",
	// "… like this:", a label of at most four words), as opposed to
	// one that states a rule and then shows its form.
	reAnnounce     = regexp.MustCompile(`(\b(the following|as follows|below|like this|like so|such as|for instance|e\.g\.|examples?|looks? like|as shown|shown here|these|this order|this form|this shape|here)\b|^[^ ]+( [^ ]+){0,3}:$)`)
	reHypothetical = regexp.MustCompile(`\b(would|could|might)\b`)
	reSelfRef      = regexp.MustCompile(`^(this|the) (nip|specification|spec|draft|document|section|proposal)\b`)
	reBoilerplate  = regexp.MustCompile(`(rfc ?2119|rfc ?8174|bcp ?14|key ?words|are to be interpreted)`)
	reCan          = regexp.MustCompile(`\b(can|cannot|can't|need not|needn't)\b`)
)

var strength = map[clause.Level]int{
	clause.LevelMust: 3, clause.LevelMustNot: 3,
	clause.LevelShould: 2, clause.LevelShouldNot: 2,
	clause.LevelMay: 1,
}

// keywordLevel maps an RFC 2119 keyword to a clause level.
func keywordLevel(k string) clause.Level {
	switch k {
	case "MUST", "SHALL", "REQUIRED":
		return clause.LevelMust
	case "MUST NOT", "SHALL NOT":
		return clause.LevelMustNot
	case "SHOULD", "RECOMMENDED":
		return clause.LevelShould
	case "SHOULD NOT", "NOT RECOMMENDED":
		return clause.LevelShouldNot
	case "MAY", "OPTIONAL":
		return clause.LevelMay
	}
	return ""
}

// classify decides whether a sentence is normative and at what level.
//
//  1. An RFC 2119/8174 keyword in capitals (outside code) makes it
//     normative at the strongest keyword's level, wherever it stands —
//     except the "key words … are to be interpreted" boilerplate.
//  2. Otherwise a sentence in an informative place (before the first
//     section, or under Abstract, Motivation, Rationale, Examples, Relation
//     to other NIPs and the like) is informative.
//  3. In a specifying section, a table row or list item states a rule
//     (RULE): drafts put their rule lists and decision tables there.
//  4. A paragraph sentence states a rule (RULE) unless it explains:
//     it opens like an illustration or justification ("For example", "So",
//     "Thus", "Because", "This means", "Note"), talks about the document
//     itself ("This NIP …"), is hypothetical (would / could / might), is a
//     lead-in ending in ':', or is a fragment of fewer than three words.
//
// Sentences whose reading is doubtful, or which an editor may want to
// sharpen, carry Unsure: a lowercase RFC 2119 word, "can", vague words,
// mixed levels.
func classify(s *Sentence, p string, informative bool) {
	var unsure []string
	lp := strings.ToLower(p)
	if hasCapitalWord(p) {
		s.Keywords = append(s.Keywords, reKeyword.FindAllString(p, -1)...)
	}
	if vague := reVague.FindString(lp); vague != "" {
		unsure = append(unsure, "vague wording '"+strings.ToLower(vague)+"'")
	}
	if len(s.Keywords) > 0 {
		if reBoilerplate.MatchString(lp) && len(distinct(s.Keywords)) >= 3 {
			s.Why = "RFC 2119 boilerplate"
			s.Keywords = nil
			return
		}
		var best clause.Level
		levels := map[int]bool{}
		for _, k := range s.Keywords {
			l := keywordLevel(k)
			levels[strength[l]] = true
			if best == "" || strength[l] > strength[best] {
				best = l
			}
		}
		s.Level = best
		s.Why = "keyword " + strings.Join(distinct(s.Keywords), ", ")
		if len(levels) > 1 {
			unsure = append(unsure, "mixes levels ("+strings.Join(distinct(s.Keywords), ", ")+")")
		}
		if informative {
			unsure = append(unsure, "keyword in an informative part")
		}
		s.Unsure = strings.Join(unsure, "; ")
		return
	}
	if informative {
		s.Why = "informative part"
		return
	}
	words := len(strings.Fields(s.Text))
	switch s.Kind {
	case KindTableRow:
		s.Level, s.Why = clause.LevelRule, "table row"
	case KindListItem:
		if words < 2 {
			s.Why = "fragment"
			return
		}
		if reItemLabel.MatchString(strings.TrimSpace(s.raw)) {
			s.Why = "item label"
			return
		}
		s.Level, s.Why = clause.LevelRule, "list item"
	default:
		t := strings.TrimSpace(p)
		lt := strings.TrimSpace(lp)
		switch {
		case words < 3:
			s.Why = "fragment"
			return
		case strings.HasSuffix(t, ":") && reAnnounce.MatchString(lt):
			s.Why = "lead-in"
			return
		case strings.HasSuffix(t, "?"):
			s.Why = "question"
			return
		case reExplains.MatchString(lt):
			s.Why = "explanation or example"
			return
		case reRationale.MatchString(lt):
			s.Why = "rationale"
			return
		case reSelfRef.MatchString(lt):
			s.Why = "about the document"
			return
		case reHypothetical.MatchString(lt):
			s.Why = "hypothetical (would/could/might)"
			return
		}
		s.Level, s.Why = clause.LevelRule, "declarative sentence"
		if strings.HasSuffix(t, ":") {
			// A lead-in that states the rule the list, table or code
			// below it shows ("An invite code may be appended to the
			// group identifier:").
			s.Why = "lead-in stating a rule"
		}
	}
	if strings.Contains(lp, "must") || strings.Contains(lp, "shall") || strings.Contains(lp, "should") || strings.Contains(lp, "may") || strings.Contains(lp, "required") {
		s.Modal = lowerModal(p)
	}
	if m := reLowerModal.FindString(lp); m != "" {
		unsure = append(unsure, "lowercase '"+strings.ToLower(m)+"' (RFC 8174: only capitals are normative)")
	} else if m := reCan.FindString(lp); m != "" && s.Kind == KindParagraph {
		unsure = append(unsure, "'"+strings.ToLower(m)+"' may state a possibility, not a rule")
	}
	s.Unsure = strings.Join(unsure, "; ")
}

func distinct(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// reModalWord finds requirement words written in lower case, with their
// contracted negations.
var reModalWord = regexp.MustCompile(`(?i)\b(must not|mustn't|must|shall not|shan't|shall|should not|shouldn't|should|required|may not|may)\b`)

// lowerModal returns the strongest lower-case requirement word of p as a
// lower-case level ("must", "must not", "should", "should not", "may"),
// or "".
func lowerModal(p string) string {
	best, bestRank := "", 0
	for _, m := range reModalWord.FindAllString(p, -1) {
		if m != strings.ToLower(m) {
			continue // capitals: a keyword, read as such
		}
		var l string
		switch m {
		case "must not", "mustn't", "shall not", "shan't":
			l = "must not"
		case "must", "shall", "required":
			l = "must"
		case "should not", "shouldn't":
			l = "should not"
		case "should":
			l = "should"
		case "may", "may not":
			l = "may"
		}
		if r := strength[clause.Level(strings.ToUpper(l))]; r > bestRank {
			best, bestRank = l, r
		}
	}
	return best
}

// codeContent returns the contents of the code spans of inline Markdown s,
// joined by NUL.
func codeContent(s string) string {
	var parts []string
	for _, sp := range codeSpans(s) {
		parts = append(parts, strings.Trim(s[sp[0]:sp[1]], "`"))
	}
	return strings.Join(parts, "\x00")
}

// hasCapitalWord reports whether p has two capital ASCII letters in a
// row, as every RFC 2119 keyword in capitals does (a cheap test before the
// keyword expression).
func hasCapitalWord(p string) bool {
	for i := 1; i < len(p); i++ {
		if p[i] >= 'A' && p[i] <= 'Z' && p[i-1] >= 'A' && p[i-1] <= 'Z' {
			return true
		}
	}
	return false
}
