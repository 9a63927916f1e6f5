package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
)

// codeSpans returns the byte ranges [open, close) of the code spans of an
// inline Markdown string, backticks included; an unmatched backtick run is
// literal text.
func codeSpans(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		// Find a closing run of exactly n backticks.
		j := i + n
		closed := -1
		for j < len(s) {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				closed = j + m
				break
			}
			j += m
		}
		if closed < 0 {
			i += n
			continue
		}
		out = append(out, [2]int{i, closed})
		i = closed
	}
	return out
}

var (
	reImage    = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	reLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	reAutolink = regexp.MustCompile(`<((?:https?|mailto|wss?):[^>\s]*)>`)
	// reHTMLTag: inline HTML a Markdown draft may use. Other <words> are
	// text (plain-text drafts write placeholders such as <value>).
	reHTMLTag = regexp.MustCompile(`(?i)</?(a|abbr|b|br|code|del|em|i|img|ins|kbd|mark|s|small|span|strong|sub|sup|u)(\s[^<>]*)?/?>`)
)

// Plain turns inline Markdown into its text: code spans keep their
// content without backticks; links keep their text; emphasis markers,
// HTML tags and backslash escapes go.
func Plain(s string) string { return plain(s, false) }

// prose is Plain with the content of code spans replaced by "·", so that
// words inside code (a `MUST` in a tag value) are not read as prose.
func prose(s string) string { return plain(s, true) }

func plain(s string, hideCode bool) string {
	var b strings.Builder
	last := 0
	for _, sp := range codeSpans(s) {
		b.WriteString(plainText(s[last:sp[0]]))
		inner := s[sp[0]:sp[1]]
		inner = strings.Trim(inner, "`")
		if hideCode {
			b.WriteString("·")
		} else {
			// CommonMark strips one space padding a code span.
			if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.TrimSpace(inner) != "" {
				inner = inner[1 : len(inner)-1]
			}
			b.WriteString(inner)
		}
		last = sp[1]
	}
	b.WriteString(plainText(s[last:]))
	return strings.Join(strings.Fields(b.String()), " ")
}

// emphasisMarks are the paired emphasis and strike-through markers.
var emphasisMarks = strings.NewReplacer("**", "", "__", "", "~~", "")

// plainText strips the Markdown of text outside code spans.
func plainText(s string) string {
	// The expressions only match around '[' or '<': most sentences
	// have neither, and skip them.
	if strings.IndexByte(s, '[') >= 0 {
		s = reImage.ReplaceAllString(s, "$1")
		s = reLink.ReplaceAllString(s, "$1")
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = reAutolink.ReplaceAllString(s, "$1")
		s = reHTMLTag.ReplaceAllString(s, "")
	}
	s = emphasisMarks.Replace(s)
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\\' && i+1 < len(rs) && unicode.IsPunct(rs[i+1]) || r == '\\' && i+1 < len(rs) && unicode.IsSymbol(rs[i+1]) {
			b.WriteRune(rs[i+1])
			i++
			continue
		}
		if r == '*' || r == '_' {
			prevWord := i > 0 && isWordRune(rs[i-1])
			nextWord := i+1 < len(rs) && isWordRune(rs[i+1])
			if prevWord != nextWord {
				// An emphasis marker flanks a word on one side; one inside
				// a word (snake_case) or between symbols (a regular
				// expression in a plain-text draft) is text.
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// quoteFolder folds what a word processor makes of ASCII punctuation back
// to it: typographic quotes, non-breaking and thin spaces, and dashes (an
// em dash, or an en dash between spaces, is the " -- " of a Markdown
// draft; an en dash inside a range such as 9000–9020 stays).
var quoteFolder = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`, "\u00a0", " ", "\u2009", " ", "\u202f", " ",
	"\u2014", " -- ", " \u2013 ", " -- ")

// Normalize is the form a sentence is fingerprinted in: Markdown emphasis,
// links and backticks stripped, typographic quotes and dashes folded to
// ASCII, lowercase, runs of white space folded to one space.
func Normalize(s string) string {
	s = Plain(s)
	s = quoteFolder.Replace(s)
	s = strings.ToLower(s)
	return strings.Join(strings.Fields(s), " ")
}

// Fingerprint is the hash clause anchors record for a sentence: the first
// 16 hex digits of the SHA-256 of its Normalize form.
func Fingerprint(s string) string {
	sum := sha256.Sum256([]byte(Normalize(s)))
	return hex.EncodeToString(sum[:8])
}

// NormalizeHeading is the form headings are compared in.
func NormalizeHeading(s string) string {
	s = Normalize(s)
	s = strings.TrimRight(s, ".: ")
	return s
}

// abbreviations after which a period does not end a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "cf": true, "vs": true, "approx": true, "incl": true, "resp": true, "esp": true, "viz": true, "al": true}

// sentenceSpans splits inline Markdown into sentences: a sentence ends at
// '.', '!' or '?' (outside code spans, after any closing quotes,
// brackets or emphasis) followed by white space, unless the word before is
// an abbreviation ("e.g."), or "etc." before a lowercase word.
func sentenceSpans(s string) [][2]int {
	code := codeSpans(s)
	// inCode is asked about increasing offsets only, so one pointer into
	// the ordered spans keeps the split linear in the length of s.
	ci := 0
	inCode := func(i int) bool {
		for ci < len(code) && code[ci][1] <= i {
			ci++
		}
		return ci < len(code) && i >= code[ci][0]
	}
	var out [][2]int
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' || inCode(i) {
			continue
		}
		j := i + 1
		for j < len(s) {
			if strings.IndexByte(`)]"'*_`, s[j]) >= 0 {
				j++
				continue
			}
			if strings.HasPrefix(s[j:], "\u201d") || strings.HasPrefix(s[j:], "\u2019") {
				j += 3
				continue
			}
			break
		}
		if j >= len(s) || (s[j] != ' ' && s[j] != '\t') {
			continue
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) {
			continue
		}
		if c == '.' {
			w := lastWord(s[start:i])
			if abbreviations[w] {
				continue
			}
			if w == "etc" && !unicode.IsUpper(rune(s[k])) {
				continue
			}
		}
		out = append(out, [2]int{start, j})
		start = k
		i = k - 1
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		end := len(s)
		for end > start && (s[end-1] == ' ' || s[end-1] == '\t') {
			end--
		}
		out = append(out, [2]int{start, end})
	}
	return out
}

func lastWord(s string) string {
	s = strings.TrimRight(s, " ")
	i := strings.LastIndexAny(s, " \t(")
	w := s[i+1:]
	return strings.ToLower(strings.Trim(w, "*_`\"'"))
}

// stopwords carry no meaning for similarity.
var stopwords = map[string]bool{
	"the": true, "a": true, "an": true, "of": true, "to": true, "in": true, "on": true, "and": true,
	"or": true, "is": true, "are": true, "be": true, "it": true, "its": true, "that": true, "this": true,
	"for": true, "with": true, "as": true, "by": true, "at": true, "from": true, "which": true, "when": true,
	"then": true, "than": true, "so": true, "such": true, "there": true, "these": true, "those": true,
}

// Tokens returns the content words of a sentence for similarity: its
// Normalize form split at anything but letters, digits and '#', stopwords
// dropped, a plural or third-person 's' cut.
func Tokens(s string) []string {
	n := Normalize(s)
	f := strings.FieldsFunc(n, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '#')
	})
	out := f[:0]
	for _, w := range f {
		if stopwords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// Similarity scores two texts from 0 (nothing shared) to 1 (the same
// content words): the mean of the Dice coefficient of their token
// multisets and the share of the shorter one found in the longer one.
func Similarity(a, b string) float64 {
	return tokenSimilarity(Tokens(a), Tokens(b))
}

func tokenSimilarity(ta, tb []string) float64 {
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, t := range ta {
		count[t]++
	}
	common := 0
	for _, t := range tb {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	dice := 2 * float64(common) / float64(len(ta)+len(tb))
	short := len(ta)
	if len(tb) < short {
		short = len(tb)
	}
	if short < 3 {
		return dice
	}
	contain := float64(common) / float64(short)
	return (dice + contain) / 2
}
