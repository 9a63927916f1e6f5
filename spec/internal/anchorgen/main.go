// Command anchorgen proposes clause anchors: for each identity or labels
// clause, the normative sentences of its section in the bundled draft that
// share the most words with the clause's text. A person reviews the
// proposals and writes the chosen fingerprints into clause/anchors.go.
//
//	go run ./spec/internal/anchorgen -dir ../shared/spec             # proposals, for review
//	go run ./spec/internal/anchorgen -dir ../shared/spec -dump FILE  # every sentence with its level and hash
//	go run ./spec/internal/anchorgen -dir ../shared/spec -find WORDS # sentences containing WORDS, with hashes
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
	emit := flag.String("emit", "", "write clause/anchors.go source to stdout from a reviewed picks file (lines: CLAUSE-ID HASH...)")
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
		docs[name] = load(filepath.Join(*dir, name))
	}
	if *emit != "" {
		emitAnchors(*emit, docs)
		return
	}
	if *find != "" {
		words := strings.ToLower(*find)
		for _, name := range []string{clause.DocIdentity, clause.DocLabels} {
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
		if d == nil {
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

func load(path string) *spec.Doc {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return spec.Parse(filepath.Base(path), b)
}

// emitAnchors turns reviewed picks into clause/anchors.go: every hash must
// name a sentence of the clause's draft; the heading is taken from there.
func emitAnchors(picks string, docs map[string]*spec.Doc) {
	b, err := os.ReadFile(picks)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var out strings.Builder
	out.WriteString(`package clause

// anchors maps each identity and labels clause to the draft sentences it
// derives from. Proposed by spec/internal/anchorgen (the sentences of the
// clause's section sharing most words with its text) and reviewed by hand;
// regenerate with
//
//	go run ./spec/internal/anchorgen -dir ../shared/spec -emit PICKS > clause/anchors.go
//
// where PICKS lists "CLAUSE-ID HASH..." lines. The spec package's tests
// check that every anchor resolves in the bundled drafts.
var anchors = map[string][]Anchor{
`)
	bad := 0
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		c, ok := clause.LookupClause(f[0])
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown clause %s\n", f[0])
			bad++
			continue
		}
		seen[c.ID] = true
		sec, _ := clause.Lookup(c.Section)
		d := docs[sec.Doc]
		docConst := map[string]string{clause.DocIdentity: "DocIdentity", clause.DocLabels: "DocLabels"}[sec.Doc]
		fmt.Fprintf(&out, "\t%q: {\n", c.ID)
		for _, h := range f[1:] {
			found := false
			for _, s := range d.Sentences {
				if s.Hash == h {
					fmt.Fprintf(&out, "\t\t{%s, %q, %q},\n", docConst, s.Heading, h)
					found = true
					break
				}
			}
			if !found {
				fmt.Fprintf(os.Stderr, "%s: no sentence %s in %s\n", c.ID, h, sec.Doc)
				bad++
			}
		}
		out.WriteString("\t},\n")
	}
	out.WriteString("}\n")
	for _, c := range clause.Clauses() {
		if c.Profile() != "" && !seen[c.ID] {
			fmt.Fprintf(os.Stderr, "%s: no anchor picked\n", c.ID)
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
	fmt.Print(out.String())
}
