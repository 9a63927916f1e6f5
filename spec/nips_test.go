package spec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// nipFiles names the NIP texts bundled in testdata/nips: the
// nostr-protocol/nips files at version.NIPsCommit (db5fe3de) that the
// baseline clauses are anchored to. They are copies of the specification
// (test data), so the anchor tests run wherever the repository does,
// pinned to the audited commit rather than to whatever NIP text a machine
// has nearby.
var nipFiles = map[string]string{
	clause.DocNIP01: "01.md",
	clause.DocNIP11: "11.md",
	clause.DocNIP29: "29.md",
	clause.DocNIP42: "42.md",
	clause.DocNIP45: "45.md",
}

func nipText(t *testing.T, doc string) *Doc {
	t.Helper()
	d, err := ParseFile(filepath.Join("testdata", "nips", nipFiles[doc]))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNIPAnchorsResolve: every anchor of a baseline clause names a sentence
// of its NIP's bundled text under the heading it records, and every
// baseline clause with Source nip whose Ref cites its own section's NIP
// is anchored.
func TestNIPAnchorsResolve(t *testing.T) {
	docs := map[string]*Doc{}
	for doc := range nipFiles {
		docs[doc] = nipText(t, doc)
	}
	for _, c := range clause.Clauses() {
		sec, _ := clause.Lookup(c.Section)
		if docs[sec.Doc] == nil {
			continue
		}
		if len(c.Anchors) == 0 && c.Source == clause.SourceNIP && strings.HasPrefix(c.Ref, sec.Doc+" ") {
			t.Errorf("%s: a %s clause without anchors (go run ./spec/internal/anchorgen -profile %s -unanchored)", c.ID, sec.Doc, c.SpecProfile())
		}
		for _, a := range c.Anchors {
			d := docs[a.Doc]
			if d == nil || a.Doc != sec.Doc {
				t.Errorf("%s: anchor in %q, not in its section's document %s", c.ID, a.Doc, sec.Doc)
				continue
			}
			found := false
			for _, s := range d.Sentences {
				if s.Hash == a.Hash && NormalizeHeading(s.Heading) == NormalizeHeading(a.Heading) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: anchor %s (§ %s) resolves to no sentence of %s", c.ID, a.Hash, a.Heading, a.Doc)
			}
		}
	}
}

// TestCheckNIP29: spec check on NIP-29 at db5fe3de detects the nip29
// profile by title and counts covered sentences; every MUST sentence of
// the relay rules this package's clauses own has a clause.
func TestCheckNIP29(t *testing.T) {
	d := nipText(t, clause.DocNIP29)
	cat := NewCatalog(nil)
	p, how := cat.DetectProfile(d)
	if p != "nip29" {
		t.Fatalf("profile %q (%s), want nip29", p, how)
	}
	r := Check(d, cat, p, how)
	// Floors: every normative sentence of 29.md has a clause (129 of 129
	// since issue 26: the sentences no case can observe carry untestable
	// clauses with their reason, and the item labels such as "*join
	// request* (`kind:9021`)" are no longer counted as rules; 131 of 131
	// since issue 39 reads the invite-code and subgroup lead-ins as the
	// rules they state).
	if r.Coverage.Total < 129 || r.Coverage.Covered < 129 {
		t.Errorf("coverage %d of %d normative sentences; want at least 129 of 129 or more", r.Coverage.Covered, r.Coverage.Total)
	}
	if n := r.UncoveredMust(); n > 0 {
		t.Errorf("%d MUST/MUST NOT sentences without a clause; want none", n)
	}
	if len(r.Stale) > 0 {
		t.Errorf("stale clauses on the text they were anchored to: %+v", r.Stale)
	}
	for _, s := range r.Sentences {
		if s.Covered {
			continue
		}
		t.Logf("no clause: %s %s %q", s.Level, s.Where(), s.Text)
	}
	for _, doc := range []string{clause.DocNIP01, clause.DocNIP11, clause.DocNIP42, clause.DocNIP45} {
		nd := nipText(t, doc)
		if p, how := cat.DetectProfile(nd); clause.SpecProfileDoc(p) != doc {
			t.Errorf("%s detected as %q (%s)", doc, p, how)
		}
	}
}

// TestNotTestableReasons: a covered sentence without a case says why no
// case can exist, with its own clause's reason ("not testable"), apart
// from one whose clause merely has no case yet; the 39003 sentence no
// longer borrows the 39004 clause's LiveKit reason.
func TestNotTestableReasons(t *testing.T) {
	d := nipText(t, clause.DocNIP29)
	cases := map[string][]string{"nip29/state-events.7": {"base/state/8"}}
	cat := &Catalog{Clauses: clause.Clauses(), Cases: func(id string) []string { return cases[id] }}
	r := Check(d, cat, "nip29", "test")
	byText := map[string]Checked{}
	for _, s := range r.Sentences {
		byText[s.Text] = s
	}
	roles := findSentence(t, d, "what are the roles supported by this relay")
	c := byText[roles.Text]
	if !strings.Contains(c.NotTestable, "permission") || strings.Contains(c.NotTestable, "LiveKit") || strings.Join(c.Clauses, ",") != "nip29/state-events.11" {
		t.Errorf("39003 sentence: clauses %v, not testable %q", c.Clauses, c.NotTestable)
	}
	live := byText[findSentence(t, d, "who is live in an AV room").Text]
	if !strings.Contains(live.NotTestable, "LiveKit") {
		t.Errorf("39004 sentence: not testable %q", live.NotTestable)
	}
	if s := byText[findSentence(t, d, "participant tags with the participant's public key").Text]; s.NotTestable != "" || len(s.Cases) == 0 {
		t.Errorf("a sentence with a case says not testable: %+v", s)
	}
	// A testable clause without a case is "no case yet", not "not testable".
	if s := byText[findSentence(t, d, "If a user is already a member").Text]; s.NotTestable != "" || len(s.Cases) != 0 {
		t.Errorf("testable clause without a case: %+v", s)
	}
	ann := Annotations(d, cat, "nip29", nil)
	if st := ann[roles.Index].Status; st != StatusNotTestable {
		t.Errorf("annotate: 39003 sentence %q, want %q", st, StatusNotTestable)
	}
	if st := ann[findSentence(t, d, "If a user is already a member").Index].Status; st != StatusNoTest {
		t.Errorf("annotate: a testable sentence without a case %q, want %q", st, StatusNoTest)
	}
}
