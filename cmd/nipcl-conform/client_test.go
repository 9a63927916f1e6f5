package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/clientmode"
	"github.com/nipcl/nipcl-conform/reports"
)

// clientRun runs `nipcl-conform client ARGS --report-dir tmp` in process
// and returns the exit code, stdout and the results it wrote.
func clientRun(t *testing.T, args ...string) (int, string, *reports.Results) {
	t.Helper()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := dispatch(append([]string{"client", "--report-dir", dir, "--reference-wait", "500ms"}, args...), &out, &errb)
	if errb.Len() > 0 {
		t.Logf("stderr: %s", errb.String())
	}
	for _, f := range []string{"junit.xml", "summary.md", "report.html", "badge.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("report %s: %v", f, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("results.json: %v\n%s", err, out.String())
	}
	if v, err := reports.VerifyJSON(data, knownCatalogue()); err != nil || !v.OK() {
		t.Errorf("report verify: %v %+v", err, v)
	}
	r, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("results.json: %v\n%s", err, out.String())
	}
	return code, out.String(), r
}

// failingCites reports whether a failed case of r cites clause.
func failingCites(r *reports.Results, clause string) bool {
	for _, c := range r.Cases {
		if c.Outcome == reports.Fail && len(c.Clauses) > 0 && c.Clauses[0] == clause {
			return true
		}
	}
	return false
}

func TestClientModeReferenceAndFaults(t *testing.T) {
	code, out, r := clientRun(t)
	if code != reports.ExitOK || len(r.Cases) != len(clientmode.Cases) {
		t.Fatalf("clean reference client: exit %d, %d cases\n%s", code, len(r.Cases), out)
	}
	for _, f := range clientmode.Faults {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel() // the runs mostly wait on sockets
			// A fault of a SHOULD clause fails a SHOULD case: exit 0, and
			// exit 1 with --strict.
			args := []string{"--client-fault", f.Name}
			if cl, _ := clause.LookupClause(f.Clause); cl.Level == clause.LevelShould || cl.Level == clause.LevelShouldNot {
				if code, out, _ := clientRun(t, append(args, "--case", shouldCase(f.Clause))...); code != reports.ExitOK {
					t.Errorf("--client-fault %s (a SHOULD clause) without --strict: exit %d, want 0\n%s", f.Name, code, out)
				}
				args = append(args, "--strict")
			}
			code, out, r := clientRun(t, args...)
			if code != reports.ExitFailed {
				t.Errorf("--client-fault %s: exit %d, want 1\n%s", f.Name, code, out)
			}
			if !failingCites(r, f.Clause) {
				t.Errorf("--client-fault %s: no failing case cites %s\n%s", f.Name, f.Clause, out)
			}
		})
	}
}

// shouldCase is the first client case citing a clause.
func shouldCase(clauseID string) string {
	for _, c := range clientmode.Cases {
		if c.Clause == clauseID {
			return c.ID
		}
	}
	return ""
}

// exampleAdapter is examples/client-adapter, built once for the package
// (TestClientModeAdapter and TestDocsCommandsRun both run it) into the
// directory TestMain removes.
var exampleAdapter = sync.OnceValues(func() (string, error) {
	adapter := filepath.Join(binDir, "client-adapter")
	build := exec.Command("go", "build", "-o", adapter, "../../examples/client-adapter")
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build example adapter: %w\n%s", err, b)
	}
	return adapter, nil
})

// TestClientModeAdapter runs the example adapter clean and with three of
// its faults, the four runs at once: each has its own adapter processes
// and scripted relays, and mostly waits on them.
func TestClientModeAdapter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example adapter")
	}
	t.Parallel()
	adapter, err := exampleAdapter()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		code, out, _ := clientRun(t, "--client-cmd", adapter+" --wait 500ms")
		if code != reports.ExitOK {
			t.Fatalf("example adapter: exit %d\n%s", code, out)
		}
	})
	for _, f := range []string{"resign-on-retry", "snapshot-rollback", "identity-trust-any"} {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			code, out, r := clientRun(t, "--client-cmd", adapter+" --wait 500ms --fault "+f)
			want := ""
			for _, x := range clientmode.Faults {
				if x.Name == f {
					want = x.Clause
				}
			}
			if code != reports.ExitFailed || !failingCites(r, want) {
				t.Errorf("adapter --fault %s: exit %d, want 1 with a failing case citing %s\n%s", f, code, want, out)
			}
		})
	}
}

func TestClientModeBrokenAdapters(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	one := []string{"--case", "client/labels/retry-same-event"}
	// Garbage on the pipe: harness error, and the run still writes its reports.
	code, _, r := clientRun(t, append(one, "--client-cmd", "echo garbage")...)
	if code != reports.ExitHarness || r.Cases[0].Outcome != reports.HarnessError {
		t.Errorf("garbage adapter: exit %d, outcome %s", code, r.Cases[0].Outcome)
	}
	// A crash before answering.
	code, _, r = clientRun(t, append(one, "--client-cmd", "exit 3")...)
	if code != reports.ExitHarness || !strings.Contains(r.Cases[0].Message, "exited") {
		t.Errorf("crashing adapter: exit %d, %s", code, r.Cases[0].Message)
	}
	// A hang: timeout (a MUST case timing out exits 1).
	code, _, r = clientRun(t, append(one, "--client-cmd", "sleep 30", "--timeout", "300ms")...)
	if code != reports.ExitFailed || r.Cases[0].Outcome != reports.Timeout {
		t.Errorf("hanging adapter: exit %d, outcome %s", code, r.Cases[0].Outcome)
	}
}

func TestClientModeFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := dispatch([]string{"client", "--faults"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "resign-on-retry") {
		t.Errorf("client --faults: %d\n%s", code, out.String())
	}
	if code := dispatch([]string{"client", "--client-fault", "nope"}, &out, &errb); code != reports.ExitHarness {
		t.Errorf("unknown fault: exit %d", code)
	}
	if code := dispatch([]string{"client", "--profile", "nope"}, &out, &errb); code != reports.ExitHarness {
		t.Errorf("unknown profile: exit %d", code)
	}
	out.Reset()
	if code := dispatch([]string{"client", "--list", "--profile", "identity"}, &out, &errb); code != 0 || strings.Contains(out.String(), "client/labels/") {
		t.Errorf("client --list --profile identity: %d\n%s", code, out.String())
	}
}
