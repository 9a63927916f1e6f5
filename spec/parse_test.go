package spec

import (
	"os"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func findSentence(t *testing.T, d *Doc, sub string) Sentence {
	t.Helper()
	for _, s := range d.Sentences {
		if strings.Contains(s.Text, sub) {
			return s
		}
	}
	t.Fatalf("%s: no sentence containing %q", d.Name, sub)
	return Sentence{}
}

func TestFingerprintIgnoresMarkupCaseAndSpacing(t *testing.T) {
	a := Fingerprint("The relay **MUST** match `#t`\n  before it applies _limit_.")
	b := Fingerprint("the relay must match #t before it applies limit.")
	if a != b {
		t.Errorf("fingerprints differ: %s vs %s", a, b)
	}
	if len(a) != 16 {
		t.Errorf("fingerprint %q is not 16 hex digits", a)
	}
	if Fingerprint("The relay MUST match #t before limit.") == Fingerprint("The relay MUST match #P before limit.") {
		t.Error("different sentences share a fingerprint")
	}
	// Placeholders in prose and snake_case are text, not markup.
	if got := Normalize("one [\"l\", <value>, \"nip-cl\"] tag on channel_type"); !strings.Contains(got, "<value>") || !strings.Contains(got, "channel_type") {
		t.Errorf("Normalize lost text: %q", got)
	}
	if got := Normalize("A [link](https://example.org) and ![img](x.png)"); got != "a link and img" {
		t.Errorf("links: %q", got)
	}
}

func TestSentenceSplitting(t *testing.T) {
	cases := map[string][]string{
		"One. Two.": {"One.", "Two."},
		"Values, e.g. `a. B`, stay. Next one here.": {"Values, e.g. `a. B`, stay.", "Next one here."},
		`It says "stop." Then more.`:                {`It says "stop."`, "Then more."},
		"No end":                                    {"No end"},
		"Ends (see **Older events**). So it can.":   {"Ends (see **Older events**).", "So it can."},
		"Lists a, b, etc. and more. Then.":          {"Lists a, b, etc. and more.", "Then."},
	}
	for in, want := range cases {
		var got []string
		for _, sp := range sentenceSpans(in) {
			got = append(got, in[sp[0]:sp[1]])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("sentenceSpans(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseMarkdownStructure(t *testing.T) {
	d := Parse("widgets.md", mustRead(t, "testdata/widgets.md"))
	if d.PlainHeadings {
		t.Error("a Markdown draft must not infer plain headings")
	}
	if d.Title != "WGT-7 — Widget Registry" {
		t.Errorf("title %q", d.Title)
	}
	kinds := map[Kind]int{}
	for _, b := range d.Blocks {
		kinds[b.Kind]++
	}
	if kinds[KindHeading] != 7 || kinds[KindCode] != 1 || kinds[KindTableRow] != 3 || kinds[KindListItem] != 4 {
		t.Errorf("blocks by kind: %v", kinds)
	}
	s := findSentence(t, d, "Only the owner")
	if s.Lead != "Renaming" || s.Heading != "Registering widgets" {
		t.Errorf("run-in heading: lead %q heading %q", s.Lead, s.Heading)
	}
	row := findSentence(t, d, "Owner key")
	if row.Kind != KindTableRow || row.Context != "Tag | Meaning" || row.Text != "o | Owner key, hex." {
		t.Errorf("table row: %+v", row)
	}
	item := findSentence(t, d, "its current name")
	if item.Kind != KindListItem || item.Context != "Every widget snapshot carries these tags, in this order:" {
		t.Errorf("list item: %+v", item)
	}
	for _, s := range d.Sentences {
		if strings.Contains(s.Text, "kinds") {
			t.Errorf("code became a sentence: %q", s.Text)
		}
	}
}

func TestParseLooseAndPlainLayouts(t *testing.T) {
	// Paragraphs, list items and tables without blank lines between them.
	loose := "# T\n## Rules\nThe relay MUST do a.\n- item one;\n- item two.\n**Lead.** Clients MUST do b.\n| A | B |\n| --- | --- |\n| x | y |\nAfter the table.\n"
	d := Parse("loose.md", []byte(loose))
	var texts []string
	for _, s := range d.Sentences {
		texts = append(texts, s.Text)
	}
	want := []string{"The relay MUST do a.", "item one;", "item two.", "Clients MUST do b.", "x | y", "After the table."}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("loose sentences %q, want %q", texts, want)
	}
	if s := findSentence(t, d, "Clients MUST do b"); s.Lead != "Lead" || s.Level != clause.LevelMust || s.Kind != KindListItem {
		// The lazy continuation joins the list item; the bold run-in
		// heading still names it, and it reads as a paragraph sentence.
		t.Errorf("run-in inside a list item: %+v", s)
	}

	p := Parse("plain.txt", mustRead(t, "testdata/plain.txt"))
	if !p.PlainHeadings {
		t.Fatal("plain-text draft: headings not inferred")
	}
	heads := strings.Join(p.Headings(), "|")
	if heads != "Gadget Counters|Abstract|Counting|Limits" {
		t.Errorf("plain headings %q", heads)
	}
	if s := findSentence(t, p, "Counters on one gadget"); s.Kind != KindTableRow || s.Context != "Limit | Maximum" {
		t.Errorf("tab-separated row: %+v", s)
	}
	for _, s := range p.Sentences {
		if strings.Contains(s.Text, "7100") {
			t.Errorf("unfenced JSON became a sentence: %q", s.Text)
		}
	}
}

func TestClassify(t *testing.T) {
	d := Parse("widgets.md", mustRead(t, "testdata/widgets.md"))
	want := map[string]clause.Level{
		"The relay MUST reject a registration":     clause.LevelMust,
		"The relay MUST NOT change the widget":     clause.LevelMustNot,
		"SHOULD answer a registration":             clause.LevelShould,
		"MAY refuse registrations":                 clause.LevelMay,
		"records the owner from the event":         clause.LevelRule, // declarative
		"Use ordinary filters":                     clause.LevelRule, // imperative
		"the widget's ID;":                         clause.LevelRule, // list item
		"w | Widget ID.":                           clause.LevelRule, // table row
		"A registry MUST be easy to find":          clause.LevelMust, // keyword, even in Motivation (flagged)
		"Clients often lose track":                 "",               // Motivation
		"This document describes a registry":       "",               // preamble
		"For example, a widget named":              "",               // example
		"would return short pages":                 "",               // hypothetical
		"Every widget snapshot carries these tags": "",               // lead-in
		"WGT-1: the events":                        "",               // Relation to other documents
	}
	for sub, level := range want {
		if s := findSentence(t, d, sub); s.Level != level {
			t.Errorf("%q: level %q (%s), want %q", sub, s.Level, s.Why, level)
		}
	}
	if s := findSentence(t, d, "must match #o"); s.Level != clause.LevelRule || !strings.Contains(s.Unsure, "lowercase 'must'") {
		t.Errorf("lowercase must: level %q unsure %q", s.Level, s.Unsure)
	}
	if s := findSentence(t, d, "A registry MUST be easy"); !strings.Contains(s.Unsure, "informative") {
		t.Errorf("keyword in Motivation not flagged: %q", s.Unsure)
	}
	p := Parse("plain.txt", mustRead(t, "testdata/plain.txt"))
	if s := findSentence(t, p, "The key words"); s.Level != "" || s.Why != "RFC 2119 boilerplate" {
		t.Errorf("boilerplate: %+v", s)
	}
	if s := findSentence(t, p, "SHOULD NOT keep"); s.Level != clause.LevelShouldNot {
		t.Errorf("SHOULD NOT: %q", s.Level)
	}
	mixed := Parse("m.md", []byte("# T\n## R\nClients SHOULD poll, and MUST poll when offline.\n"))
	if s := mixed.Sentences[0]; s.Level != clause.LevelMust || !strings.Contains(s.Unsure, "mixes levels") {
		t.Errorf("mixed levels: %+v", s)
	}
	code := Parse("c.md", []byte("# T\n## R\nThe tag `MUST` is a value here.\n"))
	if s := code.Sentences[0]; len(s.Keywords) != 0 {
		t.Errorf("keyword inside code counted: %v", s.Keywords)
	}
}

// TestItemLabelIsNotARule: a list item that only names the definition
// below it (an emphasised name and parenthesised code spans, as NIP-29
// writes "- *join request* (`kind:9021`)") states no rule; a list item
// with words beyond its label still does.
func TestItemLabelIsNotARule(t *testing.T) {
	src := "# T\n\nThis draft defines the events that users send to a group.\n\n## Events\n\n- *join request* (`kind:9021`)\n\nAny user can send it.\n\n- *group admins* (`kind:39001`) (optional)\n\n- *leave* (`kind:9022`) removes the user from the group\n"
	d := Parse("labels.md", []byte(src))
	for _, sub := range []string{"join request", "group admins"} {
		if s := findSentence(t, d, sub); s.Normative() || s.Why != "item label" {
			t.Errorf("%q: level %q (%s), want informative (item label)", s.Text, s.Level, s.Why)
		}
	}
	if s := findSentence(t, d, "removes the user"); s.Level != clause.LevelRule {
		t.Errorf("%q: level %q (%s), want RULE", s.Text, s.Level, s.Why)
	}
}
