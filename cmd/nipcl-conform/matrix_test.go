package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
)

func TestMatrixUsageErrors(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	missing := filepath.Join(t.TempDir(), "no-such", "results.json")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"matrix", "--profile", "bogus", "--target", "x=ws://127.0.0.1:1"}, `unknown profile "bogus"`},
		{[]string{"matrix", "--profile", "nip29,bogus", "--target", "x=ws://127.0.0.1:1"}, `unknown profile "bogus"`},
		{[]string{"matrix", "--target", "name="}, "lacks the URL"},
		{[]string{"matrix", "--target", "=ws://127.0.0.1:1"}, "NAME is empty"},
		{[]string{"matrix", "--target", "x=http://127.0.0.1:1"}, "ws:// or wss://"},
		{[]string{"matrix", "--target", "a=ws://127.0.0.1:1", "--target", "a=ws://127.0.0.1:2"}, "already taken"},
		{[]string{"matrix", "--target", "labels relay=ws://127.0.0.1:1"}, "clashes with a reference plan"},
		{[]string{"matrix", "--profile", "labels"}, "give a --target"},
		{[]string{"matrix", "--no-reference"}, "nothing to compare"},
		{[]string{"matrix", "--results", "x"}, "NAME=FILE"},
		{[]string{"matrix", "--no-reference", "--results", "relay29=" + missing}, "--results relay29: read results: open " + missing},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			r := cli(t, 30*time.Second, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.want)
			}
		})
	}
}

func TestMatrixParseTarget(t *testing.T) {
	for in, want := range map[string]matrixTarget{
		"relay29=ws://127.0.0.1:7447":       {"relay29", "ws://127.0.0.1:7447"},
		"ws://127.0.0.1:7447":               {"127.0.0.1:7447", "ws://127.0.0.1:7447"},
		"wss://relay.example/path?a=b":      {"relay.example", "wss://relay.example/path?a=b"},
		"my relay=wss://relay.example/?a=b": {"my relay", "wss://relay.example/?a=b"},
	} {
		got, err := parseMatrixTarget(in)
		if err != nil || got != want {
			t.Errorf("parseMatrixTarget(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	got, err := parseProfiles([]string{"none,labels", "nip29", "identity"})
	if err != nil || strings.Join(got, ",") != "nip29,labels,identity" {
		t.Errorf("parseProfiles = %v, %v", got, err)
	}
}

// TestMatrixFromResultsFiles renders the matrix of two earlier runs
// without running anything.
func TestMatrixFromResultsFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r *reports.Results) string {
		path := filepath.Join(dir, name, "results.json")
		if err := reports.WriteFile(path, r, reports.WriteJSON); err != nil {
			t.Fatal(err)
		}
		return path
	}
	transcript := "+0.002s owner <- [\"OK\",\"ab\",false,\"restricted\"]"
	a := write("alpha", &reports.Results{Tool: "nipcl-conform", RunID: "a", Plans: []reports.PlanResult{{Name: "nip29", Profile: "nip29"}},
		Cases: []reports.CaseResult{{ID: "base/join/1", Plan: "nip29", Section: "nip29/join", Level: "MUST", Outcome: reports.Pass}}})
	b := write("beta", &reports.Results{Tool: "nipcl-conform", RunID: "b", Plans: []reports.PlanResult{{Name: "nip29", Profile: "nip29"}},
		Cases: []reports.CaseResult{
			{ID: "base/join/1", Plan: "nip29", Section: "nip29/join", Level: "MUST", Outcome: reports.Fail, Message: "rejected", Transcript: transcript},
			{ID: "base/leave/1", Plan: "nip29", Section: "nip29/leave", Level: "MUST", Outcome: reports.Blocked, Message: "incompatible: no group"},
		}})
	out := filepath.Join(dir, "matrix")
	r := cli(t, 30*time.Second, "matrix", "--no-reference", "--results", "alpha="+a, "--results", "beta="+b, "--report-dir", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "2 cases × 2 columns") {
		t.Errorf("stdout %q", r.stdout)
	}
	md, err := os.ReadFile(filepath.Join(out, "matrix.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| alpha · nip29 | beta · nip29 |", "| `base/join/1` | MUST |  | nip29/join | pass | fail |", "| `base/leave/1` | MUST |  | nip29/leave | — | blocked |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("matrix.md lacks %q:\n%s", want, md)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "matrix.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `href="#beta.nip29.base-join-1"`) || !strings.Contains(string(page), `id="beta.nip29.base-join-1"`) {
		t.Error("matrix.html lacks the failing cell's link to its detail")
	}
	if !strings.Contains(string(page), "restricted") {
		t.Error("matrix.html lacks the transcript")
	}
}

// TestMatrixNamedTargetOnly runs the --profile suites against one named
// live relay, without the reference columns.
func TestMatrixNamedTargetOnly(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	url := serve(t, "--profile", "nip29")
	dir := t.TempDir()
	r := cli(t, 2*time.Minute, "matrix", "--no-reference", "--target", "ref29="+url, "--profile", "none", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "matrix.md"))
	if err != nil {
		t.Fatal(err)
	}
	header := ""
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "| case |") {
			header = l
		}
	}
	if header != "| case | level | source | section | ref29 · nip29 |" {
		t.Errorf("header %q, want one column: ref29 · nip29", header)
	}
	if !strings.Contains(string(md), "| ref29 | nip29 | "+url+" |") {
		t.Errorf("matrix.md lacks the column summary for ref29:\n%s", md)
	}
}

// TestMatrixParallelMatchesSerial: the live plans run in several
// processes (the default) give the cases, outcomes and column order of
// one process.
func TestMatrixParallelMatchesSerial(t *testing.T) {
	t.Parallel()
	focus := []string{"--focus", "labels/snapshot/*", "--focus", "base/nip11/*"}
	dirs := map[string][]string{"serial": {"--parallel", "1"}, "par": {"--parallel", "4"}}
	md := map[string]string{}
	for name, extra := range dirs {
		dir := filepath.Join(t.TempDir(), name)
		r := cli(t, 3*time.Minute, append(append([]string{"matrix", "--report-dir", dir}, extra...), focus...)...)
		if r.code != 0 {
			t.Fatalf("matrix %v: exit %d\n%s", extra, r.code, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, "matrix.md"))
		if err != nil {
			t.Fatal(err)
		}
		md[name] = string(b)
		dirs[name] = []string{dir}
	}
	sameOutcomes(t, "matrix --parallel 4", outcomes(t, filepath.Join(dirs["serial"][0], "results.json")), outcomes(t, filepath.Join(dirs["par"][0], "results.json")))
	header := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "| case |") {
				return l
			}
		}
		return ""
	}
	if h := header(md["par"]); h == "" || h != header(md["serial"]) {
		t.Errorf("column order differs:\nserial: %s\nparallel: %s", header(md["serial"]), h)
	}
}
