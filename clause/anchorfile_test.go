package clause

import (
	"reflect"
	"strings"
	"testing"
)

// TestAnchorsFileRoundTrip: what WriteAnchors writes, parseAnchors reads
// back unchanged.
func TestAnchorsFileRoundTrip(t *testing.T) {
	var b strings.Builder
	if err := WriteAnchors(&b, AnchorsHeader, Clauses()); err != nil {
		t.Fatal(err)
	}
	got, err := parseAnchors(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, anchorIndex) {
		t.Error("anchors.txt written and read back differs from anchors.txt")
	}
	if b.String() != anchorsText {
		t.Error("clause/anchors.txt is not in the form WriteAnchors writes (go run ./spec/internal/anchorgen -emit /dev/null rewrites it)")
	}
}

// TestAnchorsFileIsStrict: a malformed line is an error that names its
// line number.
func TestAnchorsFileIsStrict(t *testing.T) {
	good := "# comment\n\nnip29/join.1 0123456789abcdef § Heading\n"
	if _, err := parseAnchors(good); err != nil {
		t.Fatalf("a well-formed file: %v", err)
	}
	for _, tc := range []struct{ src, want string }{
		{"nip29/join.1 § Heading", "line 1: clause nip29/join.1 has no fingerprint"},
		{"\nnip29/join.1 0123456789abcdef", "line 2: no heading"},
		{"nip29/join.1 0123456789abcdef §  ", "line 1: empty heading"},
		{"nip29/join 0123456789abcdef § H", `line 1: "nip29/join" is not a clause ID`},
		{"nip29/join.1 0123456789ABCDEF § H", `line 1: "0123456789ABCDEF" is not a sentence fingerprint`},
		{"nip29/join.1 0123456789abcde § H", "is not a sentence fingerprint"},
		{"§ H", "line 1: no clause ID"},
		{"nip29/nosuch.1 0123456789abcdef § H", "line 1: clause nip29/nosuch.1: no section nip29/nosuch"},
		{"nip29/join.1 0123456789abcdef 0123456789abcdef § H", "line 1: clause nip29/join.1 lists 0123456789abcdef twice"},
		{"nip29/join.1 0123456789abcdef § H\nnip29/join.2 1123456789abcdef § H\nnip29/join.1 2123456789abcdef § H", "line 3: clause nip29/join.1 again"},
	} {
		_, err := parseAnchors(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.src, err, tc.want)
		}
	}
	// A picks file may leave the heading out.
	if l, err := ParseAnchorLines("nip29/join.1 0123456789abcdef", false); err != nil || len(l) != 1 || l[0].Heading != "" {
		t.Errorf("a picks line without heading: %v %v", l, err)
	}
}
