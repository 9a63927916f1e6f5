package clause

import (
	"fmt"
	"io"
	"strings"
)

// AnchorLine is one line of an anchors file (clause/anchors.txt, or the
// picks file spec/internal/anchorgen -emit reads):
//
//	CLAUSE-ID HASH [HASH...] § HEADING
//
// the clause, the fingerprints of the sentences it derives from, and the
// heading they stand under. A clause whose sentences stand under several
// headings has one line per heading, in anchor order. In a picks file the
// heading may be left out (anchorgen finds it in the document); in
// clause/anchors.txt it is required. Blank lines and lines starting with
// # are comments.
type AnchorLine struct {
	Line    int // 1-based line number in its file
	Clause  string
	Hashes  []string
	Heading string // "" when the line has none (picks only)
}

// ParseAnchorLines reads an anchors or picks file. It is strict: a line
// that is not a clause ID followed by 16-hex-digit fingerprints and
// optionally "§ heading" is an error naming its line number; so is a
// heading that is required (needHeading) and missing.
func ParseAnchorLines(src string, needHeading bool) ([]AnchorLine, error) {
	var out []AnchorLine
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		body, heading, hasHeading := strings.Cut(line, "§")
		f := strings.Fields(body)
		if len(f) == 0 {
			return nil, fmt.Errorf("line %d: no clause ID before §", n)
		}
		if _, _, ok := SplitClauseID(f[0]); !ok {
			return nil, fmt.Errorf("line %d: %q is not a clause ID (section.n)", n, f[0])
		}
		if len(f) == 1 {
			return nil, fmt.Errorf("line %d: clause %s has no fingerprint", n, f[0])
		}
		for _, h := range f[1:] {
			if !isFingerprint(h) {
				return nil, fmt.Errorf("line %d: %q is not a sentence fingerprint (16 lowercase hex digits)", n, h)
			}
		}
		heading = strings.TrimSpace(heading)
		if hasHeading && heading == "" {
			return nil, fmt.Errorf("line %d: empty heading after §", n)
		}
		if !hasHeading && needHeading {
			return nil, fmt.Errorf("line %d: no heading (CLAUSE-ID HASH... § HEADING)", n)
		}
		out = append(out, AnchorLine{Line: n, Clause: f[0], Hashes: f[1:], Heading: heading})
	}
	return out, nil
}

func isFingerprint(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parseAnchors reads clause/anchors.txt into anchors by clause ID. Each
// anchor's document is its clause's section's; a line whose section is
// unknown, a fingerprint listed twice for one clause or a clause whose
// lines are not together is an error naming its line.
func parseAnchors(src string) (map[string][]Anchor, error) {
	lines, err := ParseAnchorLines(src, true)
	if err != nil {
		return nil, err
	}
	out := map[string][]Anchor{}
	last := ""
	for _, l := range lines {
		secID, _, _ := SplitClauseID(l.Clause)
		sec, ok := Lookup(secID)
		if !ok {
			return nil, fmt.Errorf("line %d: clause %s: no section %s", l.Line, l.Clause, secID)
		}
		if _, seen := out[l.Clause]; seen && l.Clause != last {
			return nil, fmt.Errorf("line %d: clause %s again, apart from its other lines", l.Line, l.Clause)
		}
		last = l.Clause
		for _, h := range l.Hashes {
			for _, a := range out[l.Clause] {
				if a.Hash == h {
					return nil, fmt.Errorf("line %d: clause %s lists %s twice", l.Line, l.Clause, h)
				}
			}
			out[l.Clause] = append(out[l.Clause], Anchor{Doc: sec.Doc, Heading: l.Heading, Hash: h})
		}
	}
	return out, nil
}

// WriteAnchors writes clauses' anchors in the format of clause/anchors.txt
// (what parseAnchors reads back): header, then one line per clause and run
// of anchors under one heading, in the order given, with a comment line
// naming each document as it starts.
func WriteAnchors(w io.Writer, header string, cls []Clause) error {
	var b strings.Builder
	b.WriteString(header)
	doc := ""
	for _, c := range cls {
		for i := 0; i < len(c.Anchors); {
			a := c.Anchors[i]
			if a.Doc != doc {
				doc = a.Doc
				fmt.Fprintf(&b, "\n# %s\n", doc)
			}
			j := i
			var hashes []string
			for j < len(c.Anchors) && c.Anchors[j].Heading == a.Heading {
				hashes = append(hashes, c.Anchors[j].Hash)
				j++
			}
			fmt.Fprintf(&b, "%s %s § %s\n", c.ID, strings.Join(hashes, " "), a.Heading)
			i = j
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AnchorsHeader opens clause/anchors.txt.
const AnchorsHeader = `# Clause anchors: the sentences of the drafts (nip-cl-identity.md,
# nip-cl-labels.md) and of the NIP texts at version.NIPsCommit
# (spec/testdata/nips) each clause derives from, by fingerprint
# (spec.Fingerprint), never the sentence itself. One line per clause and
# heading:
#
#   CLAUSE-ID HASH [HASH...] § HEADING
#
# The document is the clause's section's. Proposed by
# spec/internal/anchorgen, reviewed by hand; write reviewed picks
# ("CLAUSE-ID HASH..." lines) into this file with
#
#   go run ./spec/internal/anchorgen -emit PICKS
#
# (a pick replaces its clause's anchors; the others stay). go test ./clause/
# ./spec/ checks every line, that every draft clause is anchored and that
# every anchor resolves in its document.
`
