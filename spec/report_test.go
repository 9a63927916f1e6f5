package spec

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

// fixture edits: the sentences of testdata/widgets.md the tests change.
const (
	editOld   = "within five seconds"
	editNew   = "within ten seconds"
	deleted   = "Only the owner MAY rename\nit. "
	addAfter  = "The relay must match `#o` before it applies `limit`."
	addedText = " The relay MUST return widgets newest first."
)

func widgets(t *testing.T) (string, *Doc) {
	src := string(mustRead(t, "testdata/widgets.md"))
	return src, Parse("widgets.md", []byte(src))
}

// edited returns the fixture with one sentence reworded, one added and one
// deleted.
func edited(t *testing.T, src string) *Doc {
	t.Helper()
	out := src
	for _, r := range [][2]string{{editOld, editNew}, {deleted, ""}, {addAfter, addAfter + addedText}} {
		if !strings.Contains(out, r[0]) {
			t.Fatalf("fixture lacks %q", r[0])
		}
		out = strings.Replace(out, r[0], r[1], 1)
	}
	return Parse("widgets-new.md", []byte(out))
}

// fakeCatalog anchors made-up clauses of the "labels" profile to fixture
// sentences.
func fakeCatalog(t *testing.T, d *Doc) *Catalog {
	anchor := func(sub string) []clause.Anchor {
		s := findSentence(t, d, sub)
		return []clause.Anchor{{Doc: clause.DocLabels, Heading: s.Heading, Hash: s.Hash}}
	}
	cls := []clause.Clause{
		{ID: "labels/w.1", Level: clause.LevelMust, Text: "A registration without a name is refused.", Anchors: anchor("MUST reject a registration")},
		{ID: "labels/w.2", Level: clause.LevelMustNot, Text: "The relay never changes a widget's ID when it is renamed.",
			Anchors: []clause.Anchor{{Doc: clause.DocLabels, Heading: "Registering widgets", Hash: "0123456789abcdef"}}},
		{ID: "labels/w.3", Level: clause.LevelMay, Text: "Only the owner renames a widget.", Anchors: anchor("Only the owner MAY")},
		{ID: "labels/w.4", Level: clause.LevelShould, Text: "Registrations are answered within five seconds.", Anchors: anchor("SHOULD answer")},
		{ID: "labels/w.5", Level: clause.LevelRule, Text: "The owner is the signer.", Anchors: anchor("records the owner")},
		{ID: "identity/other.1", Level: clause.LevelMust, Text: "Unrelated.", Anchors: []clause.Anchor{{Doc: clause.DocIdentity, Heading: "X", Hash: "fedcba9876543210"}}},
	}
	cases := map[string][]string{"labels/w.1": {"w/1"}, "labels/w.3": {"w/2"}, "labels/w.4": {"w/3"}, "labels/w.2": {"w/9"}}
	return &Catalog{Clauses: cls, Cases: func(id string) []string { return cases[id] }}
}

func TestDiffReportsExactlyTheEdits(t *testing.T) {
	src, old := widgets(t)
	nw := edited(t, src)
	cat := fakeCatalog(t, old)
	r := Diff(old, nw, cat, "labels")
	if len(r.Changes) != 3 || r.Counts[Added] != 1 || r.Counts[Removed] != 1 || r.Counts[Reworded] != 1 {
		var b bytes.Buffer
		_ = WriteDiff(&b, r, "md")
		t.Fatalf("want exactly one added, one removed, one reworded; got %v\n%s", r.Counts, b.String())
	}
	for _, c := range r.Changes {
		switch c.Kind {
		case Added:
			if c.New.Text != strings.TrimSpace(addedText) || c.New.Level != clause.LevelMust {
				t.Errorf("added: %+v", c.New)
			}
		case Removed:
			if c.Old.Text != "Only the owner MAY rename it." || strings.Join(c.Clauses, ",") != "labels/w.3" || strings.Join(c.Cases, ",") != "w/2" {
				t.Errorf("removed: %+v, clauses %v, cases %v", c.Old, c.Clauses, c.Cases)
			}
		case Reworded:
			if !strings.Contains(c.Old.Text, "five") || !strings.Contains(c.New.Text, "ten") || c.Similarity < 0.5 || c.Similarity > 1 {
				t.Errorf("reworded: %+v → %+v (%.2f)", c.Old, c.New, c.Similarity)
			}
			if strings.Join(c.Clauses, ",") != "labels/w.4" || strings.Join(c.Cases, ",") != "w/3" {
				t.Errorf("reworded affects %v / %v, want labels/w.4 / w/3", c.Clauses, c.Cases)
			}
		}
	}
	if len(r.SectionsAdded)+len(r.SectionsRemoved) != 0 {
		t.Errorf("no heading changed, got +%v -%v", r.SectionsAdded, r.SectionsRemoved)
	}
	// Unchanged drafts: nothing to report.
	if r := Diff(old, Parse("same.md", []byte(src)), cat, "labels"); len(r.Changes) != 0 {
		t.Errorf("identical drafts: %d changes", len(r.Changes))
	}
	// Rewrapping and emphasis do not count as changes.
	rewrapped := strings.ReplaceAll(src, "The relay MUST reject a\nregistration", "The relay **MUST** reject a registration")
	if r := Diff(old, Parse("rewrapped.md", []byte(rewrapped)), cat, "labels"); len(r.Changes) != 0 {
		t.Errorf("rewrapped draft: %v", r.Counts)
	}
}

func TestDiffLevelChanges(t *testing.T) {
	src, old := widgets(t)
	nw := strings.Replace(src, "The relay SHOULD answer", "The relay MUST answer", 1)
	nw = strings.Replace(nw, "The relay must match", "The relay MUST match", 1)
	r := Diff(old, Parse("new.md", []byte(nw)), fakeCatalog(t, old), "labels")
	got := map[string]bool{}
	for _, c := range r.Changes {
		if c.Kind != LevelChanged {
			t.Errorf("unexpected %s change: %+v", c.Kind, c)
		}
		got[c.LevelChange] = true
	}
	if !got["SHOULD → MUST"] || !got["RULE → MUST"] || len(r.Changes) != 2 {
		t.Errorf("level changes %v", got)
	}
	// A new section is reported as such.
	more := src + "\n## Deleting widgets\n\nThe relay MUST delete a widget on a kind:7003 event.\n"
	r = Diff(old, Parse("new.md", []byte(more)), fakeCatalog(t, old), "labels")
	if strings.Join(r.SectionsAdded, ",") != "Deleting widgets" || r.Counts[Added] != 1 {
		t.Errorf("new section: %v, %v", r.SectionsAdded, r.Counts)
	}
	var md, js, htm bytes.Buffer
	if WriteDiff(&md, r, "md") != nil || WriteDiff(&js, r, "json") != nil || WriteDiff(&htm, r, "html") != nil {
		t.Fatal("writers failed")
	}
	if !strings.Contains(md.String(), "Sections added: Deleting widgets") || !strings.Contains(htm.String(), "<table>") {
		t.Errorf("diff md/html:\n%s", md.String())
	}
	var back DiffReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Counts[Added] != 1 {
		t.Errorf("json: %v %v", err, back.Counts)
	}
}

func TestCheckCoverageAndStale(t *testing.T) {
	_, d := widgets(t)
	cat := fakeCatalog(t, d)
	p, how := cat.DetectProfile(d)
	if p != "labels" || !strings.Contains(how, "anchor") {
		t.Errorf("DetectProfile = %q (%s), want labels by anchors", p, how)
	}
	r := Check(d, cat, p, how)
	if len(r.Stale) != 1 || r.Stale[0].Clause != "labels/w.2" || r.Stale[0].Closest == nil || !strings.Contains(r.Stale[0].Closest.Text, "MUST NOT change the widget's ID") {
		t.Fatalf("stale: %+v", r.Stale)
	}
	covered := map[string]bool{}
	for _, s := range r.Sentences {
		if s.Covered {
			covered[s.Text] = true
		}
		if strings.Contains(s.Text, "MUST NOT change") && (s.Covered || !strings.Contains(s.Note, "labels/w.2")) {
			t.Errorf("the stale clause's new wording: %+v", s)
		}
		if strings.Contains(s.Text, "Clients often") {
			t.Errorf("informative sentence listed: %q", s.Text)
		}
	}
	if len(covered) != 4 || r.Coverage.Covered != 4 {
		t.Errorf("covered %d/%d: %v", r.Coverage.Covered, len(covered), covered)
	}
	// Two uncovered MUST-level sentences: the reworded MUST NOT and the
	// keyword in Motivation.
	if n := r.UncoveredMust(); n != 2 {
		t.Errorf("UncoveredMust = %d, want 2", n)
	}
	if lc := r.ByLevel[clause.LevelMust]; lc.Total != 2 || lc.Covered != 1 || lc.WithCases != 1 {
		t.Errorf("MUST counts %+v", lc)
	}
	if len(r.Unsure) == 0 {
		t.Error("the lowercase 'must' is not listed as unsure")
	}
	var md bytes.Buffer
	if err := WriteCheck(&md, r, "md"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Stale clauses (1)", "labels/w.2", "Sentences with no clause", "→ labels/w.1 → cases w/1"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("check md lacks %q:\n%s", want, md.String())
		}
	}
	// Profile by title.
	titled := Parse("t.md", []byte("Channel Labels\n==============\n\nSome prose long enough to be a paragraph of text here.\n"))
	if p, how := NewCatalog(nil).DetectProfile(titled); p != "labels" || !strings.Contains(how, "title") {
		t.Errorf("by title: %q %q", p, how)
	}
	if p, _ := cat.DetectProfile(Parse("x.md", []byte("# Nothing\n\nNothing here matches anything at all, not a single one.\n"))); p != "" {
		t.Errorf("unrelated draft detected as %q", p)
	}
}

func TestAnnotateMarksOutcomes(t *testing.T) {
	_, d := widgets(t)
	cat := fakeCatalog(t, d)
	run := func(name string, out map[string]reports.Outcome, reading map[string]string) *Impl {
		r := &reports.Results{}
		for id, o := range out {
			r.Cases = append(r.Cases, reports.CaseResult{ID: id, Outcome: o, Reading: reading[id]})
		}
		return NewImpl(name, r)
	}
	a := run("alpha", map[string]reports.Outcome{"w/1": reports.Pass, "w/2": reports.Pass, "w/3": reports.Fail}, nil)
	b := run("beta", map[string]reports.Outcome{"w/1": reports.Pass, "w/2": reports.Fail, "w/3": reports.Unsupported}, map[string]string{"w/1": "relay clock"})
	ann := Annotations(d, cat, "labels", []*Impl{a, b})
	status := map[string]string{}
	for _, x := range ann {
		status[x.Sentence.Text] = x.Status
	}
	want := map[string]string{
		"The relay MUST reject a registration without a name tag.":    StatusContested, // both pass, different readings
		"Only the owner MAY rename it.":                               StatusContested, // pass vs fail
		"The relay SHOULD answer a registration within five seconds.": StatusUnimplemented,
		"The relay MUST NOT change the widget's ID on a rename.":      StatusNoTest,
	}
	for s, st := range want {
		if status[s] != st {
			t.Errorf("%q: status %q, want %q", s, status[s], st)
		}
	}
	a2 := run("alpha", map[string]reports.Outcome{"w/1": reports.Pass}, nil)
	if st := Annotations(d, cat, "labels", []*Impl{a2})[findSentence(t, d, "MUST reject a registration").Index].Status; st != StatusAgreed {
		t.Errorf("single passing run: %q", st)
	}
	var h bytes.Buffer
	if err := Annotate(&h, d, cat, "labels", "test", []*Impl{a, b}); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	for _, want := range []string{"<!doctype html>", "st-contested", "st-unimplemented", "st-no-test", "beta: fail", "reading: w/1: relay clock", "<strong>Renaming.</strong>", "<code>name</code>", "<table>", "nobody implements"} {
		if !strings.Contains(page, want) {
			t.Errorf("annotated page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "http-equiv") || strings.Contains(page, "src=") {
		t.Error("page is not self-contained")
	}
}
