package interop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clientLib is one real client library run through its client-mode
// adapter (interop/clients/), judged against an expected-outcome file.
type clientLib struct {
	name     string // test name
	desc     string // the "relay" field of the expected file: the library and version
	expected string // expected-outcome file
	npm      string // npm package whose installed version must be version ("" for Go)
	version  string
	// races are cases where the library races though the rule under test
	// is no race (welshman's resend when its socket reconnects): they run
	// again with --repeat 5 after the whole run, and that result replaces
	// the single run's, so a flaky case fails every run of this test, not
	// most of them. (Cases whose rule is a race, such as go-nostr's second
	// OK in client/labels/no-downgrade, run five times anyway: Case.Runs.)
	races []string
}

var clientLibs = []clientLib{
	{name: "go-nostr", desc: "github.com/nbd-wtf/go-nostr v0.52.3 nip29 (interop/clients/gonostr)", expected: "clients/expected/go-nostr-v0.52.3.json", version: "v0.52.3"},
	{name: "nostr-tools", desc: "nostr-tools 2.25.2 nip29 (interop/clients/js/nostr-tools.mjs)", expected: "clients/expected/nostr-tools-2.25.2.json", npm: "nostr-tools", version: "2.25.2"},
	{name: "ndk", desc: "@nostr-dev-kit/ndk 3.0.3 NDKSimpleGroup (interop/clients/js/ndk.mjs)", expected: "clients/expected/ndk-3.0.3.json", npm: "@nostr-dev-kit/ndk", version: "3.0.3"},
	{name: "welshman", desc: "@welshman/util, net, signer, lib 0.8.15 (interop/clients/js/welshman.mjs)", expected: "clients/expected/welshman-0.8.15.json", npm: "@welshman/net", version: "0.8.15",
		races: []string{"client/labels/retry-same-event", "client/labels/committed-on-retry", "client/labels/create-retry-same-event", "client/nip29/auth-challenge-per-connection"}},
}

// TestClientLibraries runs `nipcl-conform client` against real NIP-29
// client libraries through their adapters and compares every case's
// outcome with interop/clients/expected/*.json. The npm adapters need
// `npm ci` in interop/clients/js (.ci/run does it): without node_modules
// the test skips, except in CI (CI=true), where it fails.
func TestClientLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the harness and runs four client libraries")
	}
	goBin := goTool(t)
	tmp := t.TempDir()
	harnessBin := filepath.Join(tmp, "nipcl-conform")
	goBuild(t, goBin, harnessDir(), harnessBin, "./cmd/nipcl-conform")
	for _, lib := range clientLibs {
		t.Run(lib.name, func(t *testing.T) {
			var command string
			if lib.npm == "" {
				adapter := filepath.Join(tmp, "gonostr-adapter")
				goBuild(t, goBin, "clients/gonostr", adapter, ".")
				if v := moduleVersionIn(t, goBin, "clients/gonostr", "github.com/nbd-wtf/go-nostr"); v != lib.version {
					t.Fatalf("clients/gonostr pins go-nostr %s, the expected file is for %s", v, lib.version)
				}
				command = adapter
			} else {
				command = "node " + npmAdapter(t, lib)
			}
			reportDir := filepath.Join(tmp, lib.name)
			if d := os.Getenv("NIPCL_INTEROP_REPORT_DIR"); d != "" {
				reportDir, _ = filepath.Abs(filepath.Join(d, "client-"+lib.name))
			}
			res := runClientMode(t, harnessBin, reportDir, "--client-cmd", command, "--timeout", "20s")
			if len(lib.races) > 0 {
				args := []string{"--client-cmd", command, "--timeout", "20s", "--repeat", "5"}
				for _, id := range lib.races {
					args = append(args, "--case", id)
				}
				again := runClientMode(t, harnessBin, reportDir+"-races", args...)
				for i, c := range res.Cases {
					for _, r := range again.Cases {
						if r.ID == c.ID {
							res.Cases[i] = r
						}
					}
				}
			}
			for _, c := range res.Cases {
				if c.Outcome == "harness-error" {
					t.Errorf("%s: harness error (the adapter broke, or the protocol did): %s", c.ID, oneLine(c.Message, 300))
				}
			}
			check(t, lib.expected, lib.desc, res)
		})
	}
}

// npmAdapter returns the path of lib's adapter script after checking that
// node and the pinned package are installed.
func npmAdapter(t *testing.T, lib clientLib) string {
	t.Helper()
	dir, err := filepath.Abs("clients/js")
	if err != nil {
		t.Fatal(err)
	}
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s; CI must install the adapters' packages (.ci/run: cd interop/clients/js && npm ci)", why)
		}
		t.Skipf("%s: run `cd interop/clients/js && npm ci` to test %s", why, lib.name)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("no node command")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", lib.npm, "package.json"))
	if err != nil {
		missing("interop/clients/js/node_modules has no " + lib.npm)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != lib.version {
		t.Fatalf("installed %s is %q, the expected file is for %s (npm ci installs package-lock.json)", lib.npm, pkg.Version, lib.version)
	}
	name := map[string]string{"nostr-tools": "nostr-tools.mjs", "@nostr-dev-kit/ndk": "ndk.mjs", "@welshman/net": "welshman.mjs"}[lib.npm]
	return filepath.Join(dir, name)
}

// runClientMode runs `nipcl-conform client` with args and decodes its
// results.json (runCLI). Exit codes 1 and 2 are for the expected file to judge.
func runClientMode(t *testing.T, bin, reportDir string, args ...string) *results {
	t.Helper()
	res, _ := runCLI(t, bin, 8*time.Minute, "client", reportDir, args...)
	return res
}

func moduleVersionIn(t *testing.T, goBin, dir, module string) string {
	t.Helper()
	cmd := exec.Command(goBin, "list", "-m", "-f", "{{.Version}}", module)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m %s (in %s): %v", module, dir, err)
	}
	return strings.TrimSpace(string(b))
}
