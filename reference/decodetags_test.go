package reference

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestDecodeTagsMatchesEncodingJSON: the fast tags decoder gives exactly
// what encoding/json gives for every stored shape, including escapes,
// non-ASCII, empty tags and a null tag (the fallback).
func TestDecodeTagsMatchesEncodingJSON(t *testing.T) {
	inputs := []string{
		`[]`,
		`[[]]`,
		`[["d","9b353519-f4fe-4757-aef4-bec6cc0ae54c"],["name","x"],["t","stream"],["l","a:b/c","nip-cl"]]`,
		`[["content","quote \" backslash \\ newline \n tab \t"]]`,
		`[["html","\u003cscript\u003e \u0026"]]`,
		`[["emoji","😀 \ud83d\ude00 é"]]`,
		`[["p","abc",""],["e"]]`,
		`[null,["x","y"]]`,
		tagsJSON(nostr.Tags{{"weird", "\x00\x1f\u2028"}, {"k", "<>&"}}),
	}
	for _, in := range inputs {
		var want nostr.Tags
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: encoding/json: %v", in, err)
		}
		got, err := decodeTags(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", in, got, want)
		}
	}
	for _, bad := range []string{``, `[`, `[["a"]`, `[["a",1]]`, `{"a":1}`, `[["a"]] x`} {
		if _, err := decodeTags(bad); err == nil {
			t.Errorf("%q: decoded without error", bad)
		}
	}
}
