package clause

import (
	"regexp"
	"strings"
	"testing"
)

var reHash = regexp.MustCompile(`^[0-9a-f]{16}$`)

// TestDraftClausesAreAnchored: every identity and labels clause names the
// sentence(s) of its own draft it derives from, as fingerprints (the
// spec package's tests resolve them in the drafts); clause/anchors.txt
// names no unknown clause.
func TestDraftClausesAreAnchored(t *testing.T) {
	for _, c := range Clauses() {
		if c.Profile() == "" {
			continue
		}
		if len(c.Anchors) == 0 {
			t.Errorf("%s: no anchor", c.ID)
		}
		sec, _ := Lookup(c.Section)
		seen := map[string]bool{}
		for _, a := range c.Anchors {
			if a.Doc != sec.Doc {
				t.Errorf("%s: anchor in %q, but the clause's section is in %q", c.ID, a.Doc, sec.Doc)
			}
			if !reHash.MatchString(a.Hash) {
				t.Errorf("%s: anchor hash %q is not 16 hex digits", c.ID, a.Hash)
			}
			if strings.TrimSpace(a.Heading) == "" {
				t.Errorf("%s: anchor without a heading", c.ID)
			}
			if seen[a.Hash] {
				t.Errorf("%s: anchor %s listed twice", c.ID, a.Hash)
			}
			seen[a.Hash] = true
		}
	}
	for id := range anchorIndex {
		if _, ok := LookupClause(id); !ok {
			t.Errorf("clause/anchors.txt names unknown clause %s", id)
		}
	}
}

func TestProfileDocs(t *testing.T) {
	for _, p := range DraftProfiles {
		doc := ProfileDoc(p)
		if doc == "" || DocTitle(doc) == "" {
			t.Errorf("profile %s: doc %q, title %q", p, doc, DocTitle(doc))
		}
	}
	if ProfileDoc("nip29") != "" {
		t.Error("nip29 has no draft of its own")
	}
}
