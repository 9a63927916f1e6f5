// Package interop runs the nipcl-conform harness (the parent module, through
// its CLI) against independent relay implementations and compares each
// case's outcome with a checked-in expected-results file.
//
// This is its own module so that the harness module never depends on
// third-party relays.
//
//	cd interop && go test ./...                      # compare
//	cd interop && go test ./... -args -update        # rewrite expected/*.json outcomes
//	NIPCL_UPDATE_EXPECTED=1 go test ./...            # same
//
// An update keeps every existing "why" and gives new entries the why
// "TODO: justify"; the test fails while any why is empty or starts with TODO.
// Set NIPCL_INTEROP_REPORT_DIR to keep the harness reports, and
// NIPCL_HARNESS_DIR to test another checkout of the harness.
package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// harnessProfile is the --profile the harness runs with against NIP-29
// relays without NIP-CL.
const harnessProfile = "nip29"

const (
	relay29Module  = "github.com/fiatjaf/relay29"
	relay29Version = "v0.5.1"
	expectedFile   = "expected/relay29-v0.5.1.json"
	// expectedBasicKhatru is relay29 configured as its basic-khatru example.
	expectedBasicKhatru = "expected/relay29-v0.5.1-basic-khatru.json"
	todoWhy             = "TODO: justify"
)

var update = flag.Bool("update", false, "rewrite the expected-results files' outcomes (keeps existing why texts)")

func updating() bool { return *update || os.Getenv("NIPCL_UPDATE_EXPECTED") == "1" }

// expectation is one case that does not pass against a relay.
type expectation struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	Why     string `json:"why"`
}

// expectedResults is an expected-results file.
type expectedResults struct {
	Relay   string        `json:"relay"`
	Profile string        `json:"profile"` // as results.json names it
	Note    string        `json:"note,omitempty"`
	Cases   []expectation `json:"cases"` // every case not listed must pass
}

// results is the part of the harness's results.json this test reads.
type results struct {
	Plans []struct {
		Name       string `json:"name"`
		Profile    string `json:"profile"`
		SetupError string `json:"setup_error"`
	} `json:"plans"`
	Cases []caseResult `json:"cases"`
}

type caseResult struct {
	ID         string `json:"id"`
	Plan       string `json:"plan"`
	Outcome    string `json:"outcome"`
	Message    string `json:"message"`
	Transcript string `json:"transcript"`
}

// relay29Deployment is one way interop/relay29 runs relay29 (its -deploy
// value) with the expected file of that deployment.
type relay29Deployment struct {
	deploy   string // -deploy
	expected string // expected-results file
	label    string // the relay as reports and expected files name it
}

var (
	// relay29Wrapper is relay29 alone: no policies, no HTTP routes.
	relay29Wrapper = relay29Deployment{"wrapper", expectedFile, relay29Module + " " + relay29Version + " (khatru29, slicestore; interop/relay29)"}
	// relay29BasicKhatru is relay29 as its examples/basic-khatru deploys
	// it: five RejectEvent policies, a catch-all HTTP page, and any member
	// with a role may put users.
	relay29BasicKhatru = relay29Deployment{"basic-khatru", expectedBasicKhatru, relay29Module + " " + relay29Version + " (khatru29, slicestore; configured as its examples/basic-khatru; interop/relay29 -deploy basic-khatru)"}
)

// reportSubdir is the deployment's directory under
// $NIPCL_INTEROP_REPORT_DIR: "relay29" for the wrapper, as before
// deployments existed, "relay29-DEPLOY" for the others.
func (d relay29Deployment) reportSubdir() string {
	if d.deploy == relay29Wrapper.deploy {
		return "relay29"
	}
	return "relay29-" + d.deploy
}

// TestRelay29 runs the harness against relay29 alone (interop/relay29's
// default deployment).
func TestRelay29(t *testing.T) { testRelay29(t, relay29Wrapper) }

// TestRelay29BasicKhatru runs the harness against relay29 configured as its
// examples/basic-khatru: a deployment people run, with a 200 text page at
// every HTTP path, a created_at window of 60 s past and 30 s future, a list
// of accepted kinds and tag limits.
func TestRelay29BasicKhatru(t *testing.T) { testRelay29(t, relay29BasicKhatru) }

func testRelay29(t *testing.T, d relay29Deployment) {
	if testing.Short() {
		t.Skip("builds and runs relay29 and the harness")
	}
	goBin := goTool(t)
	if v := moduleVersion(t, goBin, relay29Module); v != relay29Version {
		t.Fatalf("go.mod has %s %s but the expected file is for %s: add expected/relay29-%s*.json", relay29Module, v, relay29Version, v)
	}
	tmp := t.TempDir()
	relayBin := filepath.Join(tmp, "relay29")
	harnessBin := filepath.Join(tmp, "nipcl-conform")
	goBuild(t, goBin, ".", relayBin, "./relay29")
	goBuild(t, goBin, harnessDir(), harnessBin, "./cmd/nipcl-conform")

	secKey := nostr.GeneratePrivateKey()
	pubKey, err := nostr.GetPublicKey(secKey)
	if err != nil {
		t.Fatal(err)
	}
	url, relayExited := startRelay(t, relayBin, secKey, pubKey, "-deploy", d.deploy)

	reportDir := os.Getenv("NIPCL_INTEROP_REPORT_DIR")
	if reportDir == "" {
		reportDir = filepath.Join(tmp, "report")
	} else if reportDir, err = filepath.Abs(filepath.Join(reportDir, d.reportSubdir())); err != nil {
		t.Fatal(err)
	}
	res := runHarness(t, harnessBin, reportDir,
		"--target", url, "--profile", harnessProfile, "--relay-pubkey", pubKey, "--timeout", "5s", "--deadline", "3m")
	select {
	case <-relayExited:
		t.Errorf("relay29 exited during the harness run (its log follows); the outcomes below are not its verdicts")
	default:
	}

	check(t, d.expected, d.label, res)
}

// TestRelay29SimulatedRTT runs relay29 behind the harness's delay proxy
// (--simulate-rtt 50ms): every case must get the outcome it gets without
// the proxy (the same expected file). relay29 (khatru) learns its own URL
// from the first request it serves (startRelay's direct NIP-11 read, as a
// relay configured with its public URL knows it) and refuses AUTH events
// whose relay tag names another URL: the harness must sign the relay's URL,
// not the proxy's. One worker (--parallel 1): the run compares the proxy's
// effect alone. With the workers a 50 ms link gets by default (up to 40),
// base/filters/1 fails now and then: relay29's slicestore iterates its
// event slice in a goroutine without a lock while SaveEvent inserts into it
// (eventstore slicestore QueryEvents / SaveEvent), so a concurrent write
// can shift the one match out from under a limit-1 read.
func TestRelay29SimulatedRTT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs relay29 and the harness")
	}
	if updating() {
		t.Skip("the expected file is written by TestRelay29; this test only compares with it")
	}
	goBin := goTool(t)
	if v := moduleVersion(t, goBin, relay29Module); v != relay29Version {
		t.Fatalf("go.mod has %s %s but the expected file is for %s", relay29Module, v, relay29Version)
	}
	tmp := t.TempDir()
	relayBin := filepath.Join(tmp, "relay29")
	harnessBin := filepath.Join(tmp, "nipcl-conform")
	goBuild(t, goBin, ".", relayBin, "./relay29")
	goBuild(t, goBin, harnessDir(), harnessBin, "./cmd/nipcl-conform")

	secKey := nostr.GeneratePrivateKey()
	pubKey, err := nostr.GetPublicKey(secKey)
	if err != nil {
		t.Fatal(err)
	}
	url, relayExited := startRelay(t, relayBin, secKey, pubKey)
	res := runHarness(t, harnessBin, filepath.Join(tmp, "report"),
		"--target", url, "--profile", harnessProfile, "--relay-pubkey", pubKey, "--timeout", "5s", "--deadline", "3m",
		"--simulate-rtt", "50ms", "--parallel", "1")
	select {
	case <-relayExited:
		t.Errorf("relay29 exited during the harness run (its log follows); the outcomes below are not its verdicts")
	default:
	}
	check(t, expectedFile, relay29Module+" "+relay29Version+" (khatru29, slicestore; interop/relay29) behind --simulate-rtt 50ms", res)
}

// check compares res with the expected file, or rewrites it when updating.
func check(t *testing.T, path, relay string, res *results) {
	t.Helper()
	exp, err := readExpected(path)
	if err != nil && !(updating() && errors.Is(err, os.ErrNotExist)) {
		t.Fatalf("%v (create it with: go test ./... -args -update)", err)
	}
	if updating() {
		exp = rewrite(t, path, relay, exp, res)
	}

	counts := map[string]int{}
	for _, c := range res.Cases {
		counts[c.Outcome]++
	}
	t.Logf("%s, --profile %s: %d cases %s; %d expected non-passes", relay, harnessProfile, len(res.Cases), fmtCounts(counts), len(exp.Cases))

	if got := res.Plans[0].Profile; exp.Profile != got {
		t.Errorf("%s was recorded with profile %q, the harness now ran %q (--profile %s): update it (go test ./... -args -update) and re-justify", path, exp.Profile, got, harnessProfile)
	}

	want := map[string]expectation{}
	for _, e := range exp.Cases {
		if _, dup := want[e.ID]; dup {
			t.Errorf("%s lists %s twice", path, e.ID)
		}
		want[e.ID] = e
	}
	type drift struct{ id, want, got, msg, transcript string }
	var drifts []drift
	seen := map[string]bool{}
	for _, c := range res.Cases {
		seen[c.ID] = true
		w := "pass"
		if e, ok := want[c.ID]; ok {
			w = e.Outcome
		}
		if w != c.Outcome {
			msg := c.Message
			if c.Outcome == "pass" {
				msg = "now passes: remove the entry"
			}
			drifts = append(drifts, drift{c.ID, w, c.Outcome, msg, c.Transcript})
		}
	}
	for _, e := range exp.Cases {
		if !seen[e.ID] {
			drifts = append(drifts, drift{e.ID, e.Outcome, "(no such case)", "the harness no longer has this case: remove the entry", ""})
		}
	}
	if len(drifts) > 0 {
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "CASE\tEXPECTED\tGOT\tMESSAGE")
		for _, d := range drifts {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", d.id, d.want, d.got, oneLine(d.msg, 200))
		}
		tw.Flush()
		for _, d := range drifts {
			if d.transcript != "" {
				fmt.Fprintf(&b, "\n--- %s transcript ---\n%s", d.id, clip(d.transcript, 3000))
			}
		}
		t.Errorf("outcomes against %s differ from %s (%d cases); if the change is intended, run go test ./... -args -update and justify new entries:\n%s", relay, path, len(drifts), b.String())
	}

	var unjustified []string
	for _, e := range exp.Cases {
		if w := strings.TrimSpace(e.Why); w == "" || strings.HasPrefix(w, "TODO") {
			unjustified = append(unjustified, e.ID)
		}
	}
	if len(unjustified) > 0 {
		t.Errorf("%s: every non-pass needs a why (the NIP sentence the relay breaks, the optional feature it lacks, or the harness precondition it does not meet); still TODO or empty: %s",
			path, strings.Join(unjustified, ", "))
	}
}

// rewrite writes path with res's non-passing cases, keeping the why of every
// case already listed, and returns what it wrote.
func rewrite(t *testing.T, path, relay string, old expectedResults, res *results) expectedResults {
	t.Helper()
	oldWhy := map[string]expectation{}
	for _, e := range old.Cases {
		oldWhy[e.ID] = e
	}
	out := expectedResults{Relay: relay, Profile: res.Plans[0].Profile, Note: old.Note, Cases: []expectation{}}
	if out.Note == "" {
		out.Note = "Every case not listed here passes. Each entry's why names the NIP sentence the relay breaks, the optional feature it lacks, or the harness precondition it does not meet."
	}
	for _, c := range res.Cases {
		if c.Outcome == "pass" {
			continue
		}
		e := expectation{ID: c.ID, Outcome: c.Outcome, Why: todoWhy}
		if o, ok := oldWhy[c.ID]; ok && strings.TrimSpace(o.Why) != "" {
			e.Why = o.Why
			if o.Outcome != c.Outcome && !strings.HasPrefix(strings.TrimSpace(o.Why), "TODO") {
				t.Logf("%s: outcome %s -> %s; re-read its why: %s", c.ID, o.Outcome, c.Outcome, o.Why)
			}
		}
		out.Cases = append(out.Cases, e)
	}
	slices.SortFunc(out.Cases, func(a, b expectation) int { return strings.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d non-passing cases)", path, len(out.Cases))
	return out
}

func readExpected(path string) (expectedResults, error) {
	var exp expectedResults
	b, err := os.ReadFile(path)
	if err != nil {
		return exp, fmt.Errorf("expected results: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&exp); err != nil {
		return exp, fmt.Errorf("expected results %s: %v", path, err)
	}
	return exp, nil
}

// runCLI runs `nipcl-conform SUB --report-dir DIR ARGS…` with cwd the
// repository root and decodes its results.json; it also returns the
// command's output. Exit codes 1 (a required case failed), 2 (harness-error
// cases) and 3 (blocked) are for the expected files to judge; a run that
// could not start, was killed or timed out, or left no results.json fails
// the test.
func runCLI(t *testing.T, bin string, timeout time.Duration, sub, reportDir string, args ...string) (*results, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resultsPath := filepath.Join(reportDir, "results.json")
	if err := os.Remove(resultsPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	args = append([]string{sub, "--report-dir", reportDir}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = harnessDir()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	dieWithParent(cmd)
	start := time.Now()
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	t.Logf("nipcl-conform %s: exit %d in %s", strings.Join(args, " "), code, time.Since(start).Round(time.Millisecond))
	var exitErr *exec.ExitError
	if err != nil && (!errors.As(err, &exitErr) || ctx.Err() != nil || code < 0) {
		t.Fatalf("nipcl-conform %s: %v\n%s", strings.Join(args, " "), err, clip(out.String(), 8000))
	}
	b, err := os.ReadFile(resultsPath)
	if err != nil {
		t.Fatalf("nipcl-conform %s results: %v\n%s", sub, err, clip(out.String(), 8000))
	}
	var res results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("nipcl-conform %s results.json: %v", sub, err)
	}
	return &res, out.String()
}

// runHarness runs the harness against a target (`nipcl-conform run`): one
// plan with cases and no setup error, or the test fails.
func runHarness(t *testing.T, bin, reportDir string, args ...string) *results {
	t.Helper()
	res, out := runCLI(t, bin, 4*time.Minute, "run", reportDir, args...)
	for _, p := range res.Plans {
		if p.SetupError != "" {
			t.Fatalf("harness plan %s: setup error: %s\n%s", p.Name, p.SetupError, clip(out, 8000))
		}
	}
	if len(res.Plans) != 1 || len(res.Cases) == 0 || res.Plans[0].Profile == "" {
		t.Fatalf("harness ran %d plans and %d cases, want one plan with cases\n%s", len(res.Plans), len(res.Cases), clip(out, 8000))
	}
	return res
}

// startRelay starts the relay binary on a free loopback port, waits until its
// NIP-11 document names pubKey, and kills it when the test ends. It returns
// the relay's URL and a channel closed when the relay process exits. args
// follow -addr on the relay's command line.
func startRelay(t *testing.T, bin, secKey, pubKey string, args ...string) (string, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "NIPCL_RELAY_SECKEY="+secKey)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	addrc := make(chan string, 1)
	go func() {
		defer func() { _ = cmd.Wait(); close(exited) }() // Wait after the last read of stdout
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			logs.Write([]byte(line + "\n"))
			if a, ok := strings.CutPrefix(line, "listening on "); ok {
				select {
				case addrc <- a:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("relay29 log:\n%s", clip(logs.String(), 8000))
		}
	})

	deadline := time.After(30 * time.Second)
	var url string
	select {
	case url = <-addrc:
	case <-exited:
		t.Fatalf("relay29 exited before listening:\n%s", logs.String())
	case <-deadline:
		t.Fatalf("relay29 did not report its address within 30s:\n%s", logs.String())
	}
	httpURL := "http://" + strings.TrimPrefix(url, "ws://")
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		if last = nip11Names(httpURL, pubKey); last == nil {
			return url, exited
		}
		select {
		case <-tick.C:
		case <-exited:
			t.Fatalf("relay29 exited: %v\n%s", last, logs.String())
		case <-deadline:
			t.Fatalf("relay29's NIP-11 document not ready within 30s: %v\n%s", last, logs.String())
		}
	}
}

// nip11Names fetches the NIP-11 document and checks that it carries pubKey
// (as "self", or as khatru's "pubkey").
func nip11Names(httpURL, pubKey string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var doc struct {
		Self   string `json:"self"`
		PubKey string `json:"pubkey"`
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("NIP-11: HTTP %d", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return fmt.Errorf("NIP-11: %v", err)
	}
	if doc.Self != pubKey && doc.PubKey != pubKey {
		return fmt.Errorf("NIP-11 names neither self nor pubkey %s: %+v", pubKey, doc)
	}
	return nil
}

// harnessDir is the harness module's root: the parent directory, or
// $NIPCL_HARNESS_DIR (another checkout).
func harnessDir() string {
	if d := os.Getenv("NIPCL_HARNESS_DIR"); d != "" {
		return d
	}
	return ".."
}

func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatal("no go command in PATH")
	}
	return p
}

func goBuild(t *testing.T, goBin, dir, out, pkg string) {
	t.Helper()
	cmd := exec.Command(goBin, "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s (in %s): %v\n%s", pkg, dir, err, b)
	}
}

func moduleVersion(t *testing.T, goBin, module string) string {
	t.Helper()
	b, err := exec.Command(goBin, "list", "-m", "-f", "{{.Version}}", module).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	return strings.TrimSpace(string(b))
}

func fmtCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func oneLine(s string, n int) string {
	return clip(strings.Join(strings.Fields(s), " "), n)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
