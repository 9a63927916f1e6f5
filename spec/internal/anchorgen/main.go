// Command anchorgen proposes clause anchors: for each clause, the
// sentences of its document that share the most words with the clause's
// text — the bundled drafts for identity and labels clauses, the NIP texts
// bundled as spec/testdata/nips (at version.NIPsCommit) for the baseline's
// NIP-29/01/11/42/45 clauses. A person reviews the proposals and writes the
// chosen fingerprints into clause/anchors.go (drafts) or
// clause/anchors_nips.go (NIPs).
//
//	go run ./spec/internal/anchorgen -dir ../shared/spec             # proposals, for review
//	go run ./spec/internal/anchorgen -profile nip29                  # proposals for the NIP-29 clauses only
//	go run ./spec/internal/anchorgen -profile nip29 -unanchored      # only clauses without anchors (after a merge)
//	go run ./spec/internal/anchorgen -dir ../shared/spec -dump FILE  # every sentence with its level and hash
//	go run ./spec/internal/anchorgen -dir ../shared/spec -find WORDS # sentences containing WORDS, with hashes
//	go run ./spec/internal/anchorgen -emit PICKS > clause/anchors_nips.go  # picks of NIP clauses
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
	emit := flag.String("emit", "", "write clause/anchors.go (draft clauses) or clause/anchors_nips.go (NIP clauses) source to stdout from a reviewed picks file (lines: CLAUSE-ID HASH...)")
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
		emitAnchors(*emit, docs)
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

// docConsts names the clause package constant of each document.
var docConsts = map[string]string{
	clause.DocIdentity: "DocIdentity", clause.DocLabels: "DocLabels",
	clause.DocNIP01: "DocNIP01", clause.DocNIP11: "DocNIP11", clause.DocNIP29: "DocNIP29",
	clause.DocNIP42: "DocNIP42", clause.DocNIP45: "DocNIP45",
}

func isNIPDoc(doc string) bool { return nipFiles[doc] != "" }

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

// emitAnchors turns reviewed picks into clause/anchors.go (draft clauses)
// or clause/anchors_nips.go (NIP clauses): every hash must name a sentence
// of the clause's document; the heading is taken from there. For NIP
// clauses the picks are merged with the anchors already in the catalogue,
// so clauses added after the last run are anchored without re-picking the
// rest (a pick replaces a clause's anchors).
func emitAnchors(picks string, docs map[string]*spec.Doc) {
	b, err := os.ReadFile(picks)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	picked := map[string][]string{}
	nipMode, first, bad := false, true, 0
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
		sec, _ := clause.Lookup(c.Section)
		if first {
			nipMode, first = isNIPDoc(sec.Doc), false
		}
		if isNIPDoc(sec.Doc) != nipMode || docs[sec.Doc] == nil {
			fmt.Fprintf(os.Stderr, "%s: %s is not among the picks' documents (draft and NIP clauses go in separate picks files, and the document must be loaded)\n", c.ID, sec.Doc)
			bad++
			continue
		}
		picked[c.ID] = f[1:]
	}
	var out strings.Builder
	if nipMode {
		out.WriteString(nipHeader)
	} else {
		out.WriteString(draftHeader)
	}
	for _, c := range clause.Clauses() {
		sec, _ := clause.Lookup(c.Section)
		if isNIPDoc(sec.Doc) != nipMode {
			continue
		}
		hashes, ok := picked[c.ID]
		if !ok && nipMode {
			for _, a := range c.Anchors {
				hashes = append(hashes, a.Hash)
			}
		}
		if len(hashes) == 0 {
			if c.Source != clause.SourceContract && docs[sec.Doc] != nil {
				fmt.Fprintf(os.Stderr, "%s: no anchor picked\n", c.ID)
			}
			continue
		}
		d := docs[sec.Doc]
		fmt.Fprintf(&out, "\t%q: {\n", c.ID)
		for _, h := range hashes {
			found := false
			for _, s := range d.Sentences {
				if s.Hash == h {
					fmt.Fprintf(&out, "\t\t{%s, %q, %q},\n", docConsts[sec.Doc], s.Heading, h)
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
	if bad > 0 {
		os.Exit(1)
	}
	fmt.Print(out.String())
}

const draftHeader = `package clause

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
`

const nipHeader = `package clause

// nipAnchors maps each baseline clause with Source nip to the sentences of
// the NIP texts (at version.NIPsCommit) it derives from. Proposed by
// spec/internal/anchorgen and reviewed by hand; add anchors with
//
//	go run ./spec/internal/anchorgen -profile nip29 -unanchored   # proposals
//	go run ./spec/internal/anchorgen -emit PICKS > /tmp/a.go && mv /tmp/a.go clause/anchors_nips.go
//
// where PICKS lists "CLAUSE-ID HASH..." lines (merged with the anchors
// already here). The spec package's tests
// check that every anchor resolves in the bundled NIP texts.
var nipAnchors = map[string][]Anchor{
`
