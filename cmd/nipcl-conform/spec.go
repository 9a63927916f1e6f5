package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/clientmode"
	"github.com/nipcl/nipcl-conform/spec"
	"github.com/nipcl/nipcl-conform/suites"
)

const specUsage = `Usage: nipcl-conform spec COMMAND [flags]

Tools for spec editors: relate a draft's normative sentences to the clause
catalogue and the conformance cases.

  spec check DRAFT.md [--profile P] [--allow-stale] [--format md|json|html] [--out FILE]
      every normative sentence: covered (→ clauses → cases, "not testable:
      why" or "no case yet"), with no clause (new or changed), and clauses
      whose sentence is gone (stale); a coverage figure. Exit 1 when a
      MUST / MUST NOT sentence has no clause or a MUST / MUST NOT clause is
      stale. --allow-stale: DRAFT is an older revision; clauses whose
      sentence came later are "not yet anchored" and fail nothing.
  spec diff OLD.md NEW.md [--profile P] [--results [NAME=]FILE ...] [--format md|json|html] [--out FILE]
      normative changes between two revisions: added, removed, reworded
      (old and new wording side by side), level changes (SHOULD → MUST,
      or a lower-case may → must), typo fixes, each with the clauses and
      cases it affects and, with --results, each implementation's earlier
      outcome on those cases; then a summary: new and changed normative
      sentences, new MUSTs without a clause, clauses made stale. Exit 1
      when any of these needs attention.
  spec annotate DRAFT.md --results [NAME=]FILE [--results ...] [--profile P] [--out FILE]
      the draft as one self-contained HTML page, each normative sentence
      marked with its cases and every implementation's outcome.

The three read a sentence alike: a sentence with a capitalised RFC 2119
keyword, or a rule stated without one, is normative, and so is every
sentence a clause is anchored to (a lead-in, an item label, an
explanatory opener). Cases are those of the relay suites and of client
mode (client/...).

The profile is detected from the document's title, else from how many of
a profile's anchored sentences it contains: identity or labels (the NIP-CL
drafts), nip29 (NIP-29 itself, e.g. 29.md of a nostr-protocol/nips pull
request), or nip01, nip11, nip42, nip45 (the NIPs the baseline rests on).

Exit codes: 0 done, nothing to act on; 1 needs attention (check: a MUST /
MUST NOT sentence without a clause, or a stale MUST / MUST NOT clause;
diff: a normative sentence added, changed or removed, a new MUST without a
clause, or a clause made stale); 2 bad input, one line on stderr (flags, an
unreadable file, or a file that is not a draft: empty or blank, not UTF-8
text, UTF-16, binary, JSON, over 16 MiB, or without a sentence of prose).
`

func cmdSpec(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, specUsage)
		return 2
	}
	switch args[0] {
	case "check":
		return cmdSpecCheck(args[1:], stdout, stderr)
	case "diff":
		return cmdSpecDiff(args[1:], stdout, stderr)
	case "annotate":
		return cmdSpecAnnotate(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, specUsage)
		return 0
	}
	fmt.Fprintf(stderr, "nipcl-conform spec: unknown command %q\n\n%s", args[0], specUsage)
	return 2
}

// splitArgs separates positional arguments from flags so that files may
// come before or after the flags ("spec check DRAFT.md --profile labels").
func splitArgs(args []string, valued map[string]bool) (flags, pos []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valued[name] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return flags, pos
}

var specValued = map[string]bool{"profile": true, "format": true, "out": true, "results": true}

// specProfile validates --profile or detects the draft's profile.
func specProfile(flagValue string, d *spec.Doc, cat *spec.Catalog, stderr io.Writer) (profile, how string, code int) {
	if flagValue != "" {
		if clause.SpecProfileDoc(flagValue) == "" {
			return "", "", usageError(stderr, "--profile %q: a spec profile is one of %s", flagValue, strings.Join(clause.SpecProfiles, ", "))
		}
		return flagValue, "--profile", 0
	}
	p, how := cat.DetectProfile(d)
	if p == "" {
		fmt.Fprintf(stderr, "nipcl-conform spec: %s: %s\n", d.Name, how)
	}
	return p, how, 0
}

// specCases is the clause → case index the spec tools use: the cases of
// the relay suites and the client-mode cases, by the clause they cite.
func specCases() func(string) []string {
	client := map[string][]string{}
	for _, c := range clientmode.Cases {
		client[c.Clause] = append(client[c.Clause], c.ID)
	}
	return func(id string) []string {
		return append(suites.ClauseCases(id), client[id]...)
	}
}

func readDraft(path string, stderr io.Writer) (*spec.Doc, int) {
	d, err := spec.ReadDraft(path)
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform spec: %v\n", err)
		return nil, 2
	}
	return d, 0
}

// writeOut writes the rendered report to --out or stdout.
func writeOut(out string, stdout, stderr io.Writer, render func(io.Writer) error) int {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform spec: %v\n", err)
		return 2
	}
	if out == "" {
		_, _ = stdout.Write(buf.Bytes())
		return 0
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform spec: %v\n", err)
		return 2
	}
	return 0
}

func loadImpls(specs []string, stderr io.Writer) ([]*spec.Impl, int) {
	var impls []*spec.Impl
	names := map[string]bool{}
	for _, s := range specs {
		name, path := "", s
		if i := strings.Index(s, "="); i > 0 && !strings.ContainsAny(s[:i], `/\`) {
			name, path = s[:i], s[i+1:]
		}
		im, err := spec.LoadImpl(name, path)
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform spec: --results %s: %v\n", s, err)
			return nil, 2
		}
		if names[im.Name] {
			return nil, usageError(stderr, "--results: two runs named %q; name them NAME=FILE", im.Name)
		}
		names[im.Name] = true
		impls = append(impls, im)
	}
	return impls, 0
}

func cmdSpecCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("spec check", "spec check DRAFT.md [--profile P] [--format md|json|html] [--out FILE]", stderr)
	profile := fs.String("profile", "", "the document's spec profile (identity, labels, nip29, nip01, nip11, nip42, nip45); default: detected")
	format := fs.String("format", "md", "report format: md, json or html")
	out := fs.String("out", "", "write the report to FILE instead of stdout")
	allowStale := fs.Bool("allow-stale", false, "the draft is an older revision: clauses whose sentence it lacks are not yet anchored, not stale, and fail nothing")
	flags, pos := splitArgs(args, specValued)
	if code, done := parse(fs, flags); done {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "spec check takes one draft, got %d arguments", len(pos))
	}
	if !spec.ValidFormat(*format) {
		return usageError(stderr, "--format %q: one of md, json, html", *format)
	}
	d, code := readDraft(pos[0], stderr)
	if d == nil {
		return code
	}
	cat := spec.NewCatalog(specCases())
	p, how, code := specProfile(*profile, d, cat, stderr)
	if code != 0 {
		return code
	}
	r := spec.Check(d, cat, p, how)
	r.AllowStale = *allowStale
	r.LevelReadings = levelReadings(r)
	if code := writeOut(*out, stdout, stderr, func(w io.Writer) error { return spec.WriteCheck(w, r, *format) }); code != 0 {
		return code
	}
	code = 0
	if n := r.UncoveredMust(); n > 0 {
		fmt.Fprintf(stderr, "nipcl-conform spec check: %d MUST / MUST NOT sentence(s) of %s have no clause\n", n, d.Name)
		code = 1
	}
	if n := r.StaleMust(); n > 0 && !r.AllowStale {
		fmt.Fprintf(stderr, "nipcl-conform spec check: %d MUST / MUST NOT clause(s) are stale: their sentence is not in %s (re-anchor them, or pass --allow-stale for an older revision)\n", n, d.Name)
		code = 1
	}
	return code
}

func cmdSpecDiff(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("spec diff", "spec diff OLD.md NEW.md [--profile P] [--results [NAME=]FILE ...] [--format md|json|html] [--out FILE]", stderr)
	profile := fs.String("profile", "", "the documents' spec profile (identity, labels, nip29, nip01, nip11, nip42, nip45), for clause hints; default: detected from NEW")
	format := fs.String("format", "md", "report format: md, json or html")
	out := fs.String("out", "", "write the report to FILE instead of stdout")
	var results listFlag
	fs.Var(&results, "results", "repeatable: an earlier run's results.json ([NAME=]FILE); shows each implementation's outcome on the affected cases")
	flags, pos := splitArgs(args, specValued)
	if code, done := parse(fs, flags); done {
		return code
	}
	if len(pos) != 2 {
		return usageError(stderr, "spec diff takes two drafts (OLD NEW), got %d arguments", len(pos))
	}
	if !spec.ValidFormat(*format) {
		return usageError(stderr, "--format %q: one of md, json, html", *format)
	}
	old, code := readDraft(pos[0], stderr)
	if old == nil {
		return code
	}
	nw, code := readDraft(pos[1], stderr)
	if nw == nil {
		return code
	}
	impls, code := loadImpls(results, stderr)
	if code != 0 {
		return code
	}
	cat := spec.NewCatalog(specCases())
	p, _, code := specProfile(*profile, nw, cat, stderr)
	if code != 0 {
		return code
	}
	r := spec.Diff(old, nw, cat, p)
	r.AttachResults(impls)
	if code := writeOut(*out, stdout, stderr, func(w io.Writer) error { return spec.WriteDiff(w, r, *format) }); code != 0 {
		return code
	}
	if r.Gate.NeedsAttention {
		fmt.Fprintf(stderr, "nipcl-conform spec diff: needs attention: %d new and %d changed normative sentence(s), %d new MUST without a clause, %d clause(s) made stale\n",
			r.Gate.NewNormative, r.Gate.ChangedNormative, len(r.Gate.NewMustWithoutClause), len(r.Gate.StaleClauses))
		return 1
	}
	return 0
}

func cmdSpecAnnotate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("spec annotate", "spec annotate DRAFT.md --results [NAME=]FILE [--results ...] [--profile P] [--out FILE]", stderr)
	profile := fs.String("profile", "", "the document's spec profile (identity, labels, nip29, nip01, nip11, nip42, nip45); default: detected")
	out := fs.String("out", "", "write the HTML to FILE instead of stdout")
	var results listFlag
	fs.Var(&results, "results", "repeatable: one implementation's results.json ([NAME=]FILE; the name defaults to the file's directory)")
	flags, pos := splitArgs(args, specValued)
	if code, done := parse(fs, flags); done {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "spec annotate takes one draft, got %d arguments", len(pos))
	}
	if len(results) == 0 {
		return usageError(stderr, "spec annotate needs --results [NAME=]FILE (a results.json of a run), at least once")
	}
	d, code := readDraft(pos[0], stderr)
	if d == nil {
		return code
	}
	impls, code := loadImpls(results, stderr)
	if code != 0 {
		return code
	}
	for i, im := range impls {
		if im.Cases() == 0 {
			return usageError(stderr, "--results %s: no case results in it (a results.json of a run lists its cases)", results[i])
		}
	}
	cat := spec.NewCatalog(specCases())
	p, how, code := specProfile(*profile, d, cat, stderr)
	if code != 0 {
		return code
	}
	return writeOut(*out, stdout, stderr, func(w io.Writer) error {
		return spec.Annotate(w, d, cat, p, how, impls)
	})
}

// levelReadings lists the cases on the report's clauses whose reading
// starts with "Level:" (a level the text gives without a keyword), by case
// ID.
func levelReadings(r *spec.CheckReport) []spec.LevelReading {
	onReport := map[string]bool{}
	for _, s := range r.Sentences {
		for _, c := range s.Clauses {
			onReport[c] = true
		}
	}
	for _, s := range r.Stale {
		onReport[s.Clause] = true
	}
	out := []spec.LevelReading{}
	for _, c := range suites.Catalogue() {
		if !strings.HasPrefix(c.Reading, "Level:") {
			continue
		}
		var cls []string
		for _, id := range c.Clauses {
			if onReport[id] {
				cls = append(cls, id)
			}
		}
		if len(cls) == 0 {
			continue
		}
		out = append(out, spec.LevelReading{Case: c.ID, Level: string(c.Level), Clauses: cls, Reading: c.Reading})
	}
	return out
}
