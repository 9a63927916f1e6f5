package spec

import (
	"path/filepath"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// bundled parses one of the bundled drafts (../shared/spec beside the
// repository, or $NIPCL_SPEC_DIR); the test skips when they are absent.
func bundled(t *testing.T, name string) *Doc {
	t.Helper()
	dir := SpecDir()
	if dir == "" {
		t.Skip("drafts not found: set NIPCL_SPEC_DIR or put shared/spec beside the repository")
	}
	d, err := ParseFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAnchorsResolveInBundledDrafts: every clause anchor names a sentence
// of its draft under the heading it records.
func TestAnchorsResolveInBundledDrafts(t *testing.T) {
	docs := map[string]*Doc{clause.DocIdentity: bundled(t, clause.DocIdentity), clause.DocLabels: bundled(t, clause.DocLabels)}
	n := 0
	for _, c := range clause.Clauses() {
		for _, a := range c.Anchors {
			if nipFiles[a.Doc] != "" {
				continue // TestNIPAnchorsResolve
			}
			n++
			d := docs[a.Doc]
			if d == nil {
				t.Errorf("%s: anchor in unknown draft %q", c.ID, a.Doc)
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
	if n < 200 {
		t.Errorf("only %d anchors", n)
	}
}
