// Command anchorgen proposes clause anchors: for each clause, the
// sentences of its document that share the most words with the clause's
// text — the bundled drafts for identity and labels clauses, the NIP texts
// bundled as spec/testdata/nips (at version.NIPsCommit) for the baseline's
// NIP-29/01/11/42/45 clauses. A person reviews the proposals, writes the
// chosen fingerprints to a picks file ("CLAUSE-ID HASH..." lines) and
// merges them into clause/anchors.txt with -emit.
//
//	go run ./spec/internal/anchorgen -dir ../shared/spec             # proposals, for review
//	go run ./spec/internal/anchorgen -profile nip29                  # proposals for the NIP-29 clauses only
//	go run ./spec/internal/anchorgen -profile nip29 -unanchored      # only clauses without anchors (after a merge)
//	go run ./spec/internal/anchorgen -dir ../shared/spec -dump FILE  # every sentence with its level and hash
//	go run ./spec/internal/anchorgen -dir ../shared/spec -find WORDS # sentences containing WORDS, with hashes
//	go run ./spec/internal/anchorgen -emit PICKS                     # write reviewed picks into clause/anchors.txt
//
// It prints draft text to the terminal only; nothing it prints belongs in
// the repository except the hashes and headings.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/spec"
)

func main() {
	dir := flag.String("dir", "../shared/spec", "directory with the drafts")
	dump := flag.String("dump", "", "print every sentence of this draft")
	find := flag.String("find", "", "print sentences of the bundled drafts containing these words")
	top := flag.Int("top", 3, "proposals per clause")
	emit := flag.String("emit", "", "merge a reviewed picks file (lines: CLAUSE-ID HASH...) into the anchors file: a pick replaces its clause's anchors, the others stay")
	out := flag.String("out", "clause/anchors.txt", "the anchors file -emit writes")
	nips := flag.String("nips", "spec/testdata/nips", "directory with the NIP texts (NN.md) the baseline clauses are anchored to")
	profile := flag.String("profile", "", "propose only for this spec profile's clauses (identity, labels, nip29, nip01, nip11, nip42, nip45)")
	unanchored := flag.Bool("unanchored", false, "propose only for clauses without anchors")
	flag.Parse()
	if *dump != "" {
		d := load(*dump)
		fmt.Printf("title: %s\nplain headings: %v\n", d.Title, d.PlainHeadings)
		for _, s := range d.Sentences {
			lvl := s.Level
			if lvl == "" {
				lvl = "-"
			}
			fmt.Printf("%s %-8s %-10s %s | %s | %s", s.Hash, lvl, s.Kind, s.Where(), s.Why, s.Text)
			if s.Unsure != "" {
				fmt.Printf("   [?? %s]", s.Unsure)
			}
			fmt.Println()
		}
		return
	}
	docs := map[string]*spec.Doc{}
	for _, name := range []string{clause.DocIdentity, clause.DocLabels} {
		if d := loadIf(filepath.Join(*dir, name)); d != nil {
			docs[name] = d
		}
	}
	for doc, file := range nipFiles {
		if d := loadIf(filepath.Join(*nips, file)); d != nil {
			docs[doc] = d
		}
	}
	if len(docs) == 0 {
		fmt.Fprintf(os.Stderr, "no drafts in %s and no NIP texts in %s\n", *dir, *nips)
		os.Exit(2)
	}
	if *emit != "" {
		emitAnchors(*emit, *out, docs)
		return
	}
	if *find != "" {
		words := strings.ToLower(*find)
		for _, name := range docNames(docs) {
			for _, s := range docs[name].Sentences {
				if strings.Contains(strings.ToLower(s.Text), words) {
					fmt.Printf("%s\t%s\t%s\t%s\n", name, s.Hash, s.Heading, s.Text)
				}
			}
		}
		return
	}
	for _, c := range clause.Clauses() {
		sec, _ := clause.Lookup(c.Section)
		d := docs[sec.Doc]
		if d == nil || c.Source == clause.SourceContract || (*profile != "" && c.SpecProfile() != *profile) || (*unanchored && len(c.Anchors) > 0) {
			continue
		}
		head, sub, _ := strings.Cut(sec.Title, ":")
		type cand struct {
			s     spec.Sentence
			score float64
		}
		var cands []cand
		for _, s := range d.Sentences {
			score := spec.Similarity(c.Text, s.Text)
			// Prefer the clause's own section and run-in heading.
			if spec.NormalizeHeading(s.Heading) == spec.NormalizeHeading(head) || spec.NormalizeHeading(s.Heading) == spec.NormalizeHeading(sub) {
				score += 0.15
			}
			if sub != "" && strings.Contains(strings.ToLower(sub), strings.ToLower(s.Lead)) && s.Lead != "" {
				score += 0.1
			}
			cands = append(cands, cand{s, score})
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
		fmt.Printf("\n%s [%s] %s\n", c.ID, c.Level, c.Text)
		for i := 0; i < *top && i < len(cands); i++ {
			s := cands[i].s
			fmt.Printf("  %.2f %s %-8s § %s: %s\n", cands[i].score, s.Hash, s.Level, s.Heading, s.Text)
		}
	}
}

// nipFiles names the bundled NIP text of each NIP document.
var nipFiles = map[string]string{
	clause.DocNIP01: "01.md",
	clause.DocNIP11: "11.md",
	clause.DocNIP29: "29.md",
	clause.DocNIP42: "42.md",
	clause.DocNIP45: "45.md",
}

func docNames(docs map[string]*spec.Doc) []string {
	var out []string
	for n := range docs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// loadIf parses a document, or returns nil when it does not exist.
func loadIf(path string) *spec.Doc {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return load(path)
}

func load(path string) *spec.Doc {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return spec.Parse(filepath.Base(path), b)
}

// emitAnchors merges reviewed picks into the anchors file (out): every
// picked hash must name a sentence of the clause's document, whose heading
// it takes (a pick that gives a heading must give that one); clauses
// without a pick keep their anchors. The file is rewritten whole, in
// clause order, in the form clause.WriteAnchors writes.
func emitAnchors(picks, out string, docs map[string]*spec.Doc) {
	b, err := os.ReadFile(picks)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	lines, err := clause.ParseAnchorLines(string(b), false)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", picks, err)
		os.Exit(2)
	}
	type pick struct {
		hash, heading string
		line          int
	}
	picked := map[string][]pick{}
	bad := 0
	for _, l := range lines {
		c, ok := clause.LookupClause(l.Clause)
		if !ok {
			fmt.Fprintf(os.Stderr, "%s:%d: unknown clause %s\n", picks, l.Line, l.Clause)
			bad++
			continue
		}
		sec, _ := clause.Lookup(c.Section)
		if docs[sec.Doc] == nil {
			fmt.Fprintf(os.Stderr, "%s:%d: %s: its document %s is not loaded (-dir for the drafts, -nips for the NIP texts)\n", picks, l.Line, c.ID, sec.Doc)
			bad++
			continue
		}
		for _, h := range l.Hashes {
			picked[c.ID] = append(picked[c.ID], pick{h, l.Heading, l.Line})
		}
	}
	var cls []clause.Clause
	for _, c := range clause.Clauses() {
		sec, _ := clause.Lookup(c.Section)
		if ps, ok := picked[c.ID]; ok {
			c.Anchors = nil
			for _, p := range ps {
				s, found := sentence(docs[sec.Doc], p.hash)
				switch {
				case !found:
					fmt.Fprintf(os.Stderr, "%s:%d: %s: no sentence %s in %s\n", picks, p.line, c.ID, p.hash, sec.Doc)
					bad++
				case p.heading != "" && spec.NormalizeHeading(p.heading) != spec.NormalizeHeading(s.Heading):
					fmt.Fprintf(os.Stderr, "%s:%d: %s: sentence %s stands under %q, not %q\n", picks, p.line, c.ID, p.hash, s.Heading, p.heading)
					bad++
				default:
					c.Anchors = append(c.Anchors, clause.Anchor{Doc: sec.Doc, Heading: s.Heading, Hash: p.hash})
				}
			}
		}
		if len(c.Anchors) == 0 && c.Source != clause.SourceContract && docs[sec.Doc] != nil {
			fmt.Fprintf(os.Stderr, "%s: no anchor picked\n", c.ID)
		}
		cls = append(cls, c)
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "%d problems; %s left as it was\n", bad, out)
		os.Exit(1)
	}
	var text strings.Builder
	if err := clause.WriteAnchors(&text, clause.AnchorsHeader, cls); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, []byte(text.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := os.Rename(tmp, out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "wrote %s (%d clauses picked)\n", out, len(picked))
}

// sentence finds the sentence of d with fingerprint hash.
func sentence(d *spec.Doc, hash string) (spec.Sentence, bool) {
	for _, s := range d.Sentences {
		if s.Hash == hash {
			return s, true
		}
	}
	return spec.Sentence{}, false
}
