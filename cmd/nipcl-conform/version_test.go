package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/version"
	"github.com/nipcl/nipcl-conform/version/catalogue"
)

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := runDispatch(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for _, want := range []string{"nipcl-conform " + version.Get().Version, "commit", catalogue.Fingerprint(),
			"nip-cl-labels.md sha256:" + version.LabelsDraftSHA, "nip-cl-identity.md sha256:" + version.IdentityDraftSHA,
			"nostr-protocol/nips NIP-29 git:" + version.NIPsCommit + " (" + version.NIPsCommitDate + ")"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v lacks %q:\n%s", args, want, out)
			}
		}
	}
	code, out, _ := runDispatch(t, "version", "--json")
	var v versionInfo
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Catalogue != catalogue.Fingerprint() || v.Version == "" || v.Commit == "" || len(v.Specs) < 3 {
		t.Errorf("version --json: exit %d\n%s", code, out)
	}
	if code, _, _ := runDispatch(t, "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

// TestRunIsAClaimVerifyChecks runs the nip29 profile, checks every report
// carries the harness version, catalogue, spec revisions and the relay's
// NIP-11 identity, and that report verify accepts the fresh results file
// and rejects an edited count or version.
func TestRunIsAClaimVerifyChecks(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	dir := t.TempDir()
	r := cli(t, 2*time.Minute, "run", "--profile", "nip29", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	results := filepath.Join(dir, "results.json")
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "commit", "catalogue", "specs", "counts", "digest"} {
		if m[k] == nil {
			t.Errorf("results.json lacks %q", k)
		}
	}
	if m["catalogue"] != catalogue.Fingerprint() {
		t.Errorf("catalogue %v, want %s", m["catalogue"], catalogue.Fingerprint())
	}
	plan := m["plans"].([]any)[0].(map[string]any)
	if relay, _ := plan["relay"].(map[string]any); relay == nil || relay["self"] == "" || relay["software"] == nil {
		t.Errorf("plan lacks the relay's NIP-11 identity: %v", plan["relay"])
	}
	junit, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for name, body := range map[string]string{"junit.xml": string(junit), "summary.md": string(summary), "report.html": string(html)} {
		for _, want := range []string{catalogue.Fingerprint(), version.NIPsCommit} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "badge.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg, new(struct{ XMLName xml.Name })); err != nil || !strings.Contains(string(svg), "nip29 ") || !strings.Contains(string(svg), " MUST") {
		t.Errorf("badge.svg (%v):\n%s", err, svg)
	}

	if v := cli(t, time.Minute, "report", "verify", results); v.code != 0 || !strings.Contains(v.stdout, "consistent") ||
		!strings.Contains(v.stdout, "profile nip29") || !strings.Contains(v.stdout, "git:"+version.NIPsCommit) {
		t.Errorf("verify of a fresh file: exit %d\n%s\n%s", v.code, v.stdout, v.stderr)
	}

	// Hand edits, in a copy beside no badge.
	edited := func(name string, fn func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		fn(m)
		b, _ := json.MarshalIndent(m, "", "  ")
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, tc := range map[string]struct {
		fn   func(m map[string]any)
		want string
	}{
		"count": {func(m map[string]any) {
			m["counts"].(map[string]any)["pass"] = m["counts"].(map[string]any)["pass"].(float64) + 1
		}, `counts: "pass"`},
		"version": {func(m map[string]any) { m["version"] = "v9.9.9" }, "edited after it was written"},
	} {
		v := cli(t, time.Minute, "report", "verify", edited(name+".json", tc.fn))
		if v.code != 1 || !strings.Contains(v.stdout, "NOT consistent") || !strings.Contains(v.stdout, tc.want) {
			t.Errorf("verify of an edited %s: exit %d, want 1 naming %q\n%s\n%s", name, v.code, tc.want, v.stdout, v.stderr)
		}
	}
	// A badge that no longer matches its results.
	if err := os.WriteFile(filepath.Join(dir, "badge.svg"), []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := cli(t, time.Minute, "report", "verify", results); v.code != 1 || !strings.Contains(v.stdout, "badge.svg does not match") {
		t.Errorf("verify with a stale badge: exit %d\n%s", v.code, v.stdout)
	}

	garbage := filepath.Join(t.TempDir(), "garbage.json")
	_ = os.WriteFile(garbage, []byte("not json"), 0o644)
	for _, args := range [][]string{{"report", "verify", garbage}, {"report", "verify", filepath.Join(dir, "missing.json")}, {"report", "verify"}} {
		if v := cli(t, time.Minute, args...); v.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, v.code, v.stderr)
		}
	}
}
