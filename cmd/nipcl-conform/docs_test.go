package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// docCommand is one `nipcl-conform …` command line shown in the docs.
type docCommand struct {
	file string
	line int
	text string // as written, comment stripped
}

func (c docCommand) where() string { return fmt.Sprintf("%s:%d: %s", c.file, c.line, c.text) }

// docSkips are documented commands the test does not run, by a substring
// of the command, with the reason. Listed, never silently dropped.
var docSkips = []struct{ match, why string }{
	{"--image ", "needs Docker and a local image"},
	{"--dockerfile ", "needs Docker to build an image"},
	{`--client-cmd "./my-adapter"`, "placeholder for the reader's own adapter"},
	{"<", "placeholder in prose (<version>, <section>, …)"},
	{"…", "elided in prose"},
	{"nipcl-conform run --report-dir\x00", "a flag named in prose, without its value"},
}

// docExitCodes are the documented non-zero exits, by a substring of the
// command.
// focus, when set, replaces the default --focus narrowing of a run so the
// narrowed run still includes cases that catch the fault.
var docExitCodes = []struct {
	match string
	code  int
	focus string
	why   string
}{
	{"--fault labels-unsorted", 1, "labels/add-remove/", "a broken reference relay: the harness catches it"},
	{"--policy every-key-moderates", 3, "base/permissions/", "every key moderates: the cases that need an unprivileged key are blocked"},
	{"--client-fault resign-on-retry", 1, "", "a broken reference client: exits 1"},
	{"--fault snapshot-rollback", 1, "", "a broken adapter: exits 1"},
	// `spec check 29.md` exits 0: every MUST / MUST NOT sentence of NIP-29
	// at db5fe3de has a clause (spec.TestCheckNIP29 holds it there).
	// `spec diff` exits 1 when normative sentences changed: every
	// documented pair of revisions differs.
	{"spec diff nip-cl-identity-r1.md nip-cl-identity.md", 1, "", "two revisions of the identity draft: the change needs attention"},
	{"spec diff old.md new.md", 1, "", "two revisions of the identity draft: the change needs attention"},
	{"spec diff 29-before.md 29.md", 1, "", "a sentence added to NIP-29: the change needs attention"},
	// `spec check 29-older.md --allow-stale` exits 0: the older revision
	// lacks a MUST sentence whose clause is then not yet anchored.
}

var inlineCode = regexp.MustCompile("`([^`]+)`")

// docCommands extracts the command lines from fenced code blocks (including
// YAML `- run: …` steps) and from inline code spans that hold a command.
func docCommands(t *testing.T, root string) []docCommand {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, more...)
	var cmds []docCommand
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		fenced := false
		for i, line := range strings.Split(string(body), "\n") {
			trim := strings.TrimSpace(line)
			if strings.HasPrefix(trim, "```") {
				fenced = !fenced
				continue
			}
			var cands []string
			if fenced {
				trim = strings.TrimPrefix(trim, "- run: ")
				cands = []string{trim}
			} else {
				for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
					cands = append(cands, m[1])
				}
			}
			for _, c := range cands {
				if !strings.HasPrefix(c, "nipcl-conform ") && !strings.HasPrefix(c, "go run ./cmd/nipcl-conform ") {
					continue
				}
				if i := strings.Index(c, " # "); i >= 0 {
					c = c[:i]
				}
				cmds = append(cmds, docCommand{file: rel, line: i + 1, text: strings.TrimSpace(c)})
			}
		}
	}
	return cmds
}

// shellWords splits a command line on white space, honouring double quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			in, have = !in, true
		case (r == ' ' || r == '\t') && !in:
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		words = append(words, cur.String())
	}
	return words
}

// docFixture is the working directory every documented command runs in:
// results files under the names the docs use, the spec drafts, an adapter.
func docFixture(t *testing.T, root string) (dir string, haveDrafts bool) {
	t.Helper()
	dir = t.TempDir()
	src := filepath.Join(dir, "src")
	r := docRun(t, dir, 60*time.Second, "run", "--focus", "base/nip11/1", "--report-dir", src)
	if r.code != 0 {
		t.Fatalf("fixture run exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	results, err := os.ReadFile(filepath.Join(src, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"results.json", "OLD.json", "NEW.json", "old/results.json", "new/results.json",
		"nipcl-report/results.json", "conformance/results.json", "relay29/results.json", "mine/results.json",
		"a/results.json", "b/results.json"} {
		writeFixture(t, dir, p, results)
	}
	// Two real shards for `report merge merged shard-*/results.json`.
	for i := 1; i <= 2; i++ {
		r := docRun(t, dir, 60*time.Second, "run", "--focus", "base/nip11/", "--shard", fmt.Sprintf("%d/2", i),
			"--run-id", "docs", "--report-dir", fmt.Sprintf("shard-%d", i))
		if r.code != 0 {
			t.Fatalf("fixture shard %d exited %d:\n%s\n%s", i, r.code, r.stdout, r.stderr)
		}
	}
	// The drafts as a fresh clone has them (bundled), unless told otherwise.
	specDir := os.Getenv("NIPCL_SPEC_DIR")
	if specDir == "" {
		specDir = filepath.Join(root, "spec", "testdata", "drafts")
	}
	drafts := map[string]string{
		"nip-cl-identity.md": "nip-cl-identity.md", "nip-cl-identity-r1.md": "nip-cl-identity-r1.md",
		"nip-cl-labels.md": "nip-cl-labels.md", "draft.md": "nip-cl-labels.md",
		"old.md": "nip-cl-identity-r1.md", "new.md": "nip-cl-identity.md",
	}
	haveDrafts = true
	for name, from := range drafts {
		b, err := os.ReadFile(filepath.Join(specDir, from))
		if err != nil {
			haveDrafts = false
			break
		}
		writeFixture(t, dir, name, b)
	}
	// NIP-29 at the audited commit (bundled), and an earlier form of it
	// without the timeline-reference sentence, for the spec commands on 29.md.
	nip29, err := os.ReadFile(filepath.Join(root, "spec", "testdata", "nips", "29.md"))
	if err != nil {
		t.Fatal(err)
	}
	writeFixture(t, dir, "29.md", nip29)
	writeFixture(t, dir, "29-before.md", bytes.Replace(nip29, []byte(" Relays are expected to reject any events that contain timeline references to events not found in their own database."), nil, 1))
	writeFixture(t, dir, "29-older.md", bytes.Replace(nip29, []byte("- Relays MUST reject a `kind:9002` whose `parent` value would create a cycle, including self-reference.\n"), nil, 1))
	return dir, haveDrafts
}

func writeFixture(t *testing.T, dir, rel string, b []byte) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// docRun is cli in a given working directory.
func docRun(t *testing.T, dir string, limit time.Duration, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := cliResult{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		r.code = -1
		r.stderr += fmt.Sprintf("\n(did not finish within %s)", limit)
		return r
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run CLI: %v", err)
	}
	return r
}

var (
	ghExpr    = regexp.MustCompile(`\$\{\{\s*([a-z_.]+)\s*\}\}`)
	docTarget = regexp.MustCompile(`^(ws://127\.0\.0\.1:7447|wss://relay\.example\S*|\$RELAY)$`)
)

// TestDocsCommandsRun runs every nipcl-conform command line shown in
// README.md and docs/*.md against reference relays, so a wrong example
// fails CI. Commands needing Docker or a placeholder are listed as skipped.
func TestDocsCommandsRun(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	cmds := docCommands(t, root)
	if len(cmds) < 20 {
		t.Fatalf("found only %d documented commands; is the extraction broken?", len(cmds))
	}
	start := time.Now()
	dir, haveDrafts := docFixture(t, root)
	adapter, err := exampleAdapter()
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	relays := map[string]string{} // profile → ws:// URL of a reference relay
	relayFor := func(profile string) string {
		mu.Lock()
		defer mu.Unlock()
		if u, ok := relays[profile]; ok {
			return u
		}
		u := serve(t, "--profile", profile)
		relays[profile] = u
		return u
	}

	var ran, skipped []string
	for _, c := range cmds {
		text := c.text
		why := ""
		for _, s := range docSkips {
			if strings.Contains(text+"\x00", s.match) {
				why = s.why
				break
			}
		}
		if why == "" && strings.HasPrefix(text, "nipcl-conform spec ") && !haveDrafts {
			why = "spec drafts not found (../shared/spec or $NIPCL_SPEC_DIR)"
		}
		if why != "" {
			skipped = append(skipped, fmt.Sprintf("%s  [skipped: %s]", c.where(), why))
			continue
		}
		text = ghExpr.ReplaceAllStringFunc(text, func(m string) string {
			switch ghExpr.FindStringSubmatch(m)[1] {
			case "matrix.shard":
				return "1"
			case "github.run_id":
				return "4242"
			}
			return m
		})
		words := shellWords(text)
		if words[0] == "go" {
			words = words[2:] // go run ./cmd/nipcl-conform → the built binary
		}
		args := words[1:]
		profile := "labels"
		for i, a := range args {
			if a == "--profile" && i+1 < len(args) {
				profile = strings.Split(args[i+1], ",")[0]
			}
		}
		for i, a := range args {
			name, url, named := strings.Cut(a, "=")
			switch {
			case docTarget.MatchString(a) && i > 0 && args[i-1] == "--target":
				args[i] = relayFor(profile)
			case named && docTarget.MatchString(url) && !strings.HasPrefix(name, "-"):
				args[i] = name + "=" + relayFor(profile)
			case a == "/tmp/client-adapter":
				args[i] = adapter
			case strings.HasPrefix(a, "/tmp/client-adapter "):
				args[i] = adapter + strings.TrimPrefix(a, "/tmp/client-adapter")
			case strings.Contains(a, "*"):
				m, _ := filepath.Glob(filepath.Join(dir, a))
				if len(m) == 0 {
					t.Errorf("%s: %q matches no file in the fixture", c.where(), a)
				}
				var rels []string
				for _, p := range m {
					r, _ := filepath.Rel(dir, p)
					rels = append(rels, r)
				}
				args = append(args[:i], append(rels, args[i+1:]...)...)
			}
		}
		want, focus := 0, "base/nip11/1"
		for _, e := range docExitCodes {
			if strings.Contains(c.text, e.match) {
				want = e.code
				if e.focus != "" {
					focus = e.focus
				}
			}
		}
		// Runs and live matrices are narrowed to one case (or the
		// documented fault's): what a documented line proves is that its
		// flags work together. The whole suite runs in TestDefaultRunPassesAndWritesJUnit,
		// the default matrix in TestMatrixWritesCaseByTarget.
		if len(args) > 0 && (args[0] == "run" || args[0] == "matrix") && !hasFlag(args, "--focus") {
			args = append(args, "--focus", focus)
		}
		ran = append(ran, c.where())
		t.Run(fmt.Sprintf("%s:%d", c.file, c.line), func(t *testing.T) {
			t.Parallel()
			if args[0] == "serve" {
				// serve runs until stopped: start it on a free port and stop
				// it once it prints its listening line.
				var rest []string
				for i := 1; i < len(args); i++ {
					if args[i] == "--addr" {
						i++
						continue
					}
					rest = append(rest, args[i])
				}
				serve(t, rest...)
				return
			}
			// Each command gets its own copy of the fixture, so commands
			// writing reports cannot clobber files another one reads.
			own := t.TempDir()
			if err := os.CopyFS(own, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			r := docRun(t, own, 3*time.Minute, args...)
			if r.code != want {
				t.Errorf("%s\nran: nipcl-conform %s\nexit %d, want %d (%s)\nstdout:\n%s\nstderr:\n%s",
					c.where(), strings.Join(args, " "), r.code, want, r.took.Round(time.Millisecond), tail(r.stdout), tail(r.stderr))
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("documented commands: %d found, %d run, %d skipped (%s)", len(cmds), len(ran), len(skipped), time.Since(start).Round(time.Second))
		for _, s := range skipped {
			t.Log(s)
		}
	})
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// tail keeps the last lines of a command's output for a failure message.
func tail(s string) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > 15 {
		lines = append([]string{"…"}, lines[len(lines)-15:]...)
	}
	return strings.Join(lines, "\n")
}
