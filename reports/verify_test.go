package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

var testSpecs = []SpecRevision{
	{Profile: "nip29", Name: "nostr-protocol/nips NIP-29", Revision: "git:db5fe3de8c5d1443b634c9bbf66ecb004f337057", Date: "2026-07-22"},
	{Profile: "labels", Name: "nip-cl-labels.md", Revision: "sha256:f3f5f551a3c1"},
}

// claimed is sample() as the runner fills it: build, catalogue, specs and
// the relay's NIP-11 identity.
func claimed() *Results {
	r := sample()
	r.Version, r.Commit, r.Catalogue, r.Specs = "v1.2.0", "0123456789abcdef0123456789abcdef01234567", "1a2b3c4d5e6f", testSpecs
	r.Plans[0].Relay = &RelayIdentity{Name: "test relay", Self: strings.Repeat("ab", 32), Software: "git+https://example.com/relay", Version: "0.9.1"}
	return r
}

func knownFor(r *Results) *KnownCatalogue {
	k := &KnownCatalogue{Fingerprint: r.Catalogue, Version: r.Version, Cases: map[string]KnownCase{}, Specs: testSpecs}
	for _, c := range r.Cases {
		k.Cases[c.ID] = KnownCase{Level: c.Level, Profile: c.Profile}
	}
	return k
}

func writeJSON(t *testing.T, r *Results) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWriteJSONStoresCountsAndDigest(t *testing.T) {
	r := claimed()
	data := writeJSON(t, r)
	if r.StoredCounts != nil || r.Digest != "" {
		t.Error("WriteJSON changed its argument")
	}
	back, err := parseJSON("x", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.StoredCounts[Pass] != 1 || back.StoredCounts[Blocked] != 0 || len(back.StoredCounts) != len(Outcomes) {
		t.Errorf("stored counts %v", back.StoredCounts)
	}
	if d, _ := Digest(data); d != back.Digest || !strings.HasPrefix(d, "sha256:") {
		t.Errorf("digest %q, content %q", back.Digest, d)
	}
	// Rewriting what was read gives the same digest (the digest covers
	// the content, not the layout).
	if d, _ := Digest(writeJSON(t, back)); d != back.Digest {
		t.Errorf("digest changes on rewrite: %s vs %s", d, back.Digest)
	}
	// Fields this version does not know stay covered.
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	m["future_field"] = "x"
	future, _ := json.Marshal(m)
	if d, _ := Digest(future); d == back.Digest {
		t.Error("an added field does not change the digest")
	}
}

func TestVerifyAcceptsAFreshFile(t *testing.T) {
	r := claimed()
	v, err := VerifyJSON(writeJSON(t, r), knownFor(r))
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() || !v.CatalogueChecked {
		t.Fatalf("fresh file rejected: %v (catalogue checked %v)", v.Problems, v.CatalogueChecked)
	}
	var out bytes.Buffer
	v.Write(&out, "results.json")
	for _, want := range []string{"results.json: consistent", "v1.2.0", "catalogue  1a2b3c4d5e6f (this binary's", "plan labels: profile labels",
		"nip-cl-labels.md sha256:f3f5f551a3c1", "git:db5fe3de8c5d1443b634c9bbf66ecb004f337057 (2026-07-22)", "git+https://example.com/relay 0.9.1",
		"MUST     1/3 passed", "verdict  could not complete", "6 of the catalogue's 6 cases"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Another binary's catalogue: consistent, but IDs and levels unchecked.
	other := knownFor(r)
	other.Fingerprint = "ffffffffffff"
	v, _ = VerifyJSON(writeJSON(t, r), other)
	if !v.OK() || v.CatalogueChecked || len(v.Notes) == 0 || !strings.Contains(v.Notes[0], "not this binary's") {
		t.Errorf("other catalogue: ok=%v checked=%v notes=%v problems=%v", v.OK(), v.CatalogueChecked, v.Notes, v.Problems)
	}
}

// edit changes one JSON member of a written results file without fixing
// its digest, as a hand edit would.
func edit(t *testing.T, data []byte, fn func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestVerifyRejectsEdits(t *testing.T) {
	r := claimed()
	data := writeJSON(t, r)
	known := knownFor(r)
	for _, tc := range []struct {
		name string
		fn   func(m map[string]any)
		want string
	}{
		{"edited count", func(m map[string]any) { m["counts"].(map[string]any)["pass"] = 6.0 }, `counts: "pass" is 6, but 1 cases`},
		{"edited version", func(m map[string]any) { m["version"] = "v9.9.9" }, "edited after it was written"},
		{"removed version", func(m map[string]any) { delete(m, "version") }, "no harness version"},
		{"removed catalogue", func(m map[string]any) { delete(m, "catalogue") }, "no catalogue fingerprint"},
		{"edited outcome", func(m map[string]any) { m["cases"].([]any)[1].(map[string]any)["outcome"] = "pass" }, `counts: "fail" is 1, but 0 cases`},
		{"edited level", func(m map[string]any) { m["cases"].([]any)[1].(map[string]any)["level"] = "MAY" }, "has level MAY, catalogue 1a2b3c4d5e6f says MUST"},
		{"unknown case", func(m map[string]any) { m["cases"].([]any)[0].(map[string]any)["id"] = "labels/grammar/99" }, "labels/grammar/99 is not in catalogue"},
		{"no digest", func(m map[string]any) { delete(m, "digest") }, "no digest"},
		{"no counts", func(m map[string]any) { delete(m, "counts") }, "no stored counts"},
		{"no specs", func(m map[string]any) { delete(m, "specs") }, "no spec revisions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := VerifyJSON(edit(t, data, tc.fn), known)
			if err != nil {
				t.Fatal(err)
			}
			if v.OK() {
				t.Fatal("accepted")
			}
			if !strings.Contains(strings.Join(v.Problems, "\n"), tc.want) {
				t.Errorf("problems lack %q: %v", tc.want, v.Problems)
			}
			var out bytes.Buffer
			v.Write(&out, "results.json")
			if !strings.Contains(out.String(), "NOT consistent") {
				t.Errorf("output:\n%s", out.String())
			}
		})
	}
	if _, err := VerifyJSON([]byte("not json"), known); err == nil {
		t.Error("garbage: no error")
	}
}

func TestBadge(t *testing.T) {
	r := claimed()
	b := BadgeOf(r)
	if b.Label != "nipcl-conform v1.2.0" || b.Message != "labels 1/3 MUST (error)" || b.Color != badgeGrey {
		t.Errorf("badge %+v", b) // sample() has a harness error
	}
	r.Cases = r.Cases[:2] // pass + fail
	if b := BadgeOf(r); b.Message != "labels 1/2 MUST" || b.Color != badgeRed {
		t.Errorf("failing badge %+v", b)
	}
	r.Cases[1].Outcome = Blocked
	if b := BadgeOf(r); b.Color != badgeAmber {
		t.Errorf("blocked badge %+v", b)
	}
	r.Cases[1].Outcome = Pass
	if b := BadgeOf(r); b.Message != "labels 2/2 MUST" || b.Color != badgeGreen {
		t.Errorf("passing badge %+v", b)
	}
	var svg bytes.Buffer
	if err := WriteBadge(&svg, r); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg.Bytes(), new(struct{ XMLName xml.Name })); err != nil {
		t.Errorf("badge is not XML: %v\n%s", err, svg.String())
	}
	if !strings.Contains(svg.String(), "nipcl-conform v1.2.0: labels 2/2 MUST") {
		t.Errorf("badge SVG:\n%s", svg.String())
	}
}

func TestShortVersion(t *testing.T) {
	for _, tc := range []struct {
		v, commit string
		modified  bool
		want      string
	}{
		{"v1.2.0", "abc", false, "v1.2.0"},
		{"(devel)", "unknown", false, "devel"},
		{"(devel)", "0123456789abcdef", true, "devel-0123456+dirty"},
		{"", "", false, "devel"},
		{"v0.0.0-20260722120000-0123456789ab", "0123456789ab", false, "devel-0123456"},
		{"v1.2.1-0.20260722120000-0123456789ab+dirty", "0123456789ab", true, "devel-0123456+dirty"},
	} {
		if got := ShortVersion(tc.v, tc.commit, tc.modified); got != tc.want {
			t.Errorf("ShortVersion(%q, %q, %v) = %q, want %q", tc.v, tc.commit, tc.modified, got, tc.want)
		}
	}
}

func TestReportsCarryTheClaim(t *testing.T) {
	r := claimed()
	var j, m, h bytes.Buffer
	if err := WriteJUnit(&j, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name="tool.version" value="v1.2.0"`, `name="catalogue" value="1a2b3c4d5e6f"`, `name="profile" value="labels"`,
		`name="spec.labels" value="nip-cl-labels.md sha256:f3f5f551a3c1"`, `name="relay.software" value="git+https://example.com/relay"`, `name="relay.version" value="0.9.1"`, `name="relay.self"`} {
		if !strings.Contains(j.String(), want) {
			t.Errorf("JUnit lacks %s", want)
		}
	}
	if err := WriteMarkdown(&m, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nipcl-conform `v1.2.0`", "catalogue `1a2b3c4d5e6f`", "nip-cl-labels.md `sha256:f3f5f551a3c1`", "git+https://example.com/relay 0.9.1", "| 1/3 |"} {
		if !strings.Contains(m.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, m.String())
		}
	}
	if err := WriteHTML(&h, r, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nipcl-conform v1.2.0", "1a2b3c4d5e6f", "sha256:f3f5f551a3c1", "example.com/relay 0.9.1", "report verify"} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

func TestMergeKeepsTheClaim(t *testing.T) {
	a, b := claimed(), claimed()
	a.Cases, b.Cases = a.Cases[:3], b.Cases[3:]
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "v1.2.0" || m.Catalogue != "1a2b3c4d5e6f" || len(m.Specs) != 2 || m.Plans[0].Relay == nil {
		t.Errorf("merged lost the claim: %+v", m)
	}
	v, _ := VerifyJSON(writeJSON(t, m), knownFor(claimed()))
	if !v.OK() {
		t.Errorf("merged file does not verify: %v", v.Problems)
	}
	b.Version = "v1.3.0"
	if _, err := Merge(a, b); err == nil || !strings.Contains(err.Error(), "v1.3.0") {
		t.Errorf("merging two builds: %v", err)
	}
}
