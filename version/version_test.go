package version

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bi       *debug.BuildInfo
		ok       bool
		override string
		want     Build
	}{
		{"no build info", nil, false, "", Build{Version: Devel, Commit: Unknown}},
		{"go install @tag", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module, Version: "v1.2.0"}},
			true, "", Build{Version: "v1.2.0", Commit: Unknown, Go: "go1.26.0"}},
		{"checkout, -buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module, Version: Devel}},
			true, "", Build{Version: Devel, Commit: Unknown, Go: "go1.26.0"}},
		{"go test (empty version)", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module}},
			true, "", Build{Version: Devel, Commit: Unknown, Go: "go1.26.0"}},
		{"checkout with VCS", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module, Version: "v0.0.0-20260722120000-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-07-22T12:00:00Z"}}},
			true, "", Build{Version: "v0.0.0-20260722120000-0123456789ab+dirty", Commit: "0123456789abcdef", Modified: true, Time: "2026-07-22T12:00:00Z", Go: "go1.26.0"}},
		{"devel with VCS", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module, Version: Devel},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "false"}}},
			true, "", Build{Version: Devel, Commit: "0123456789abcdef", Go: "go1.26.0"}},
		{"link-time release", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: Module, Version: Devel}},
			true, "v1.3.0", Build{Version: "v1.3.0", Commit: Unknown, Go: "go1.26.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fromBuildInfo(tc.bi, tc.ok, tc.override)
			if tc.want.Go == "" {
				tc.want.Go = got.Go // the running toolchain
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
			if !strings.Contains(got.String(), got.Version) {
				t.Errorf("String() %q lacks the version", got.String())
			}
		})
	}
}

func TestGetIsFilled(t *testing.T) {
	b := Get()
	if b.Version == "" || b.Commit == "" || b.Go == "" {
		t.Errorf("Get() = %+v: every field must be filled (fallbacks %q, %q)", b, Devel, Unknown)
	}
}

func TestSpecs(t *testing.T) {
	for _, doc := range []string{clause.DocNIP01, clause.DocNIP11, clause.DocNIP29, clause.DocNIP42, clause.DocNIP45, clause.DocIdentity, clause.DocLabels} {
		if _, ok := SpecForDoc(doc); !ok {
			t.Errorf("no current revision backs %s", doc)
		}
	}
	for _, s := range clause.Sections() {
		if _, ok := SpecForDoc(s.Doc); !ok && s.Doc != clause.DocContract {
			t.Errorf("section %s: document %q has no recorded revision", s.ID, s.Doc)
		}
	}
	if s, _ := SpecForDoc(clause.DocNIP29); s.Short() != "nips@db5fe3de8c5d" || s.Date != "2026-07-22" {
		t.Errorf("NIP-29 revision %q %q", s.Short(), s.Date)
	}
	if s, _ := SpecForDoc(clause.DocLabels); s.Short() != "nip-cl-labels.md@"+LabelsDraftSHA {
		t.Errorf("labels revision %q", s.Short())
	}
	if got := SpecsForProfile("labels"); len(got) != 2 || got[0].Profile != "nip29" || got[1].Name != clause.DocLabels {
		t.Errorf("SpecsForProfile(labels) = %+v", got)
	}
	if got := SpecsForProfile("nip29"); len(got) != 1 {
		t.Errorf("SpecsForProfile(nip29) = %+v", got)
	}
}

// specDir finds the drafts: $NIPCL_SPEC_DIR, else shared/spec beside the
// repository (../shared/spec from the module root).
func specDir(t *testing.T) string {
	if d := os.Getenv("NIPCL_SPEC_DIR"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "spec")
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// TestDraftFingerprints recomputes each recorded draft's fingerprint from
// ../shared/spec (or $NIPCL_SPEC_DIR) and fails when a draft changed
// without the constant in specs.go; skipped when the drafts are absent.
func TestDraftFingerprints(t *testing.T) {
	dir := specDir(t)
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		t.Skipf("drafts not found (%q): set NIPCL_SPEC_DIR or put shared/spec beside the repository", dir)
	}
	for _, s := range Specs() {
		want, ok := strings.CutPrefix(s.Revision, "sha256:")
		if !ok {
			continue // a git revision (NIP-29): not in the bundle
		}
		b, err := os.ReadFile(filepath.Join(dir, s.Name))
		if err != nil {
			t.Errorf("%s: recorded in version/specs.go but not readable in %s: %v", s.Name, dir, err)
			continue
		}
		sum := sha256.Sum256(b)
		got := hex.EncodeToString(sum[:])[:12]
		if got != want {
			t.Errorf("%s changed: its fingerprint is now %s, version/specs.go records %s.\n"+
				"A new draft revision: review what changed (nipcl-conform spec diff OLD NEW; go run ./spec/internal/anchorgen -dir %s),\n"+
				"update the clauses and cases it touches, set the constant to %q, regenerate the golden catalogue\n"+
				"(go test ./suites -run TestGoldenCatalogue -update) and add a CHANGELOG.md entry.",
				s.Name, got, want, dir, got)
		}
	}
}
