package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// binary is the CLI built once for the subprocess tests: runner.Run may be
// called once per process (Ginkgo), so every run is its own process.
// binDir holds it and the other programs the tests build once; TestMain
// removes it.
var binary, binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nipcl-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir, binary = dir, filepath.Join(dir, "nipcl-conform")
	// Most tests run the binary and wait on its runs (the reference
	// relay's clocks, step timeouts): more of them at once than the
	// default -test.parallel (GOMAXPROCS) overlap those waits.
	flag.Parse()
	if !flagSet("test.parallel") {
		_ = flag.Set("test.parallel", "4")
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build CLI:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// heavyDeadline is the --deadline of the tests' whole-suite runs: the
// deadline a run derives from its plan assumes the machine is its own,
// and these tests run several at once, on machines shared with other
// builds. A run that overruns it is a hang, not a verdict.
const heavyDeadline = "8m"

// flagSet reports whether the command line set the flag name.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

type cliResult struct {
	code           int
	stdout, stderr string
	took           time.Duration
	err            string // why code is -1
}

// cli runs the binary with a hard deadline so a hang fails the test.
func cli(t *testing.T, limit time.Duration, args ...string) cliResult {
	t.Helper()
	r := cliNoFatal(t, limit, args...)
	if r.code < 0 {
		t.Fatalf("nipcl-conform %v %s\nstdout:\n%s\nstderr:\n%s", args, r.err, r.stdout, r.stderr)
	}
	return r
}

// cliAtOnce runs each named command line as its own process, all at once
// (each within 10 minutes), and returns their results by name.
func cliAtOnce(t *testing.T, runs map[string][]string) map[string]cliResult {
	done := map[string]cliResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, args := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := cliNoFatal(t, 10*time.Minute, slices.Clone(args)...)
			mu.Lock()
			done[name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	return done
}

// cliNoFatal is cli for a goroutine other than the test's: a hang or a
// binary that does not start is code -1 with err saying which.
func cliNoFatal(t *testing.T, limit time.Duration, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := cliResult{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		r.code, r.err = -1, fmt.Sprintf("did not finish within %s", limit)
		return r
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.code, r.err = -1, fmt.Sprintf("did not run: %v", err)
	}
	return r
}

type junitDoc struct {
	Suites []struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct{} `xml:"error"`
			Props   []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("JUnit report: %v", err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit report does not parse: %v", err)
	}
	return doc
}

var caseID = regexp.MustCompile(`^(base|identity|labels)/[a-z0-9-]+/[0-9]+ `)

func TestDefaultRunPassesAndWritesJUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := cli(t, 10*time.Minute, "run", "--deadline", heavyDeadline, "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	doc := readJUnit(t, filepath.Join(dir, "junit.xml"))
	n := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			n++
			if !caseID.MatchString(c.Name) {
				t.Errorf("test name %q does not start with a case ID", c.Name)
			}
			if len(c.Props) < 5 {
				t.Errorf("%s: %d properties", c.Name, len(c.Props))
			}
		}
	}
	if n < 10 {
		t.Errorf("%d test cases, want at least 10", n)
	}
	for _, f := range []string{"results.json", "summary.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("report %s: %v", f, err)
		}
	}
}

// serve starts `nipcl-conform serve` and returns its URL once it printed
// its "listening on" line.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	// Port 0: the relay picks a free port and prints it, so tests run in
	// parallel never race for one.
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening on ") {
				lines <- sc.Text()
			}
		}
	}()
	select {
	case l := <-lines:
		return strings.Fields(l)[2]
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not print its listening line within 20s")
	}
	return ""
}

func TestServeThenRunTarget(t *testing.T) {
	t.Parallel()
	for _, profile := range []string{"identity", "labels"} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel()
			url := serve(t, "--profile", profile)
			dir := t.TempDir()
			r := cli(t, 10*time.Minute, "run", "--target", url, "--profile", profile, "--deadline", heavyDeadline, "--report-dir", dir)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

func TestAutoProfileOnPlainRelayIsUnsupported(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	url := serve(t, "--profile", "none")
	dir := t.TempDir()
	r := cli(t, time.Minute, "run", "--target", url, "--report-dir", dir)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, `does not advertise "nip-cl"`) {
		t.Errorf("stderr lacks the unsupported sentence:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "pass") {
		t.Errorf("baseline cases should still pass:\n%s", r.stdout)
	}
	// The reports say what the exit code says, never "conforms".
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); !strings.Contains(string(b), `## nipcl-conform: does not conform: the relay does not advertise "nip-cl"`) {
		t.Errorf("summary.md headline:\n%s", strings.SplitN(string(b), "\n", 2)[0])
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--target", "notaurl"}, "--target must be a ws:// or wss:// URL"},
		{[]string{"run", "--profile", "bogus"}, "unknown profile"},
		{[]string{"run", "--fault", "no-such-fault"}, "unknown fault"},
		{[]string{"run", "--timeout", "-1s"}, "must be positive"},
		{[]string{"run", "--image", "x", "--target", "ws://127.0.0.1:1"}, "mutually exclusive"},
		{[]string{"run", "--baseline", "/nonexistent/file"}, "baseline"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"serve", "--profile", "bogus"}, "unknown profile"},
		{[]string{"explain", "nope/1"}, "no case or section"},
		{[]string{"run", "--header", "Authorization Bearer x"}, `--header: header "<redacted>": want "Name: value"`},
		{[]string{"run", "--header", "Host: example.com"}, "set with --host"},
		{[]string{"bench", "--header", ": no-name"}, "--header"},
		{[]string{"run", "--command-tag", "novalue"}, "--command-tag: want K=V"},
		{[]string{"bench", "--command-tag", "=v"}, "--command-tag: want K=V"},
		{[]string{"serve", "--require-command-tag", "novalue"}, "RequireCommandTag: want K=V"},
		{[]string{"run", "--role-map", "admin=moderator,boss=king"}, "separate pairs with commas"},
		{[]string{"run", "--role-map", "admin=moderator", "--role-map", "admin=king"}, "two roles for admin"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := cli(t, 30*time.Second, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.want)
			}
		})
	}
}

func TestUnreachableTargetExits2Quickly(t *testing.T) {
	dir := t.TempDir()
	r := cli(t, 15*time.Second, "run", "--target", "ws://127.0.0.1:1", "--report-dir", dir)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
		t.Errorf("want a one-line reason, got %d lines:\n%s", lines, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "junit.xml")); err != nil {
		t.Errorf("junit.xml not written: %v", err)
	}
}

// TestSilentRelayTimesOut: a TCP listener that accepts and never answers.
func TestSilentRelayTimesOut(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	dir := t.TempDir()
	r := cli(t, 30*time.Second, "run", "--target", "ws://"+l.Addr().String(), "--timeout", "1s", "--deadline", "20s", "--report-dir", dir)
	if r.code != 1 && r.code != 2 {
		t.Fatalf("exit %d, want 1 or 2", r.code)
	}
	doc := readJUnit(t, filepath.Join(dir, "junit.xml"))
	var res struct {
		Cases []struct{ ID, Outcome string }
	}
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Cases) == 0 || len(doc.Suites) == 0 {
		t.Fatal("no cases reported")
	}
	for _, c := range res.Cases {
		if c.Outcome != "timeout" {
			t.Errorf("%s: outcome %s, want timeout", c.ID, c.Outcome)
		}
	}
}

func TestSafeModeDeletesEveryChannel(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "relay.db")
	url := serve(t, "--profile", "labels", "--db", db)
	dir := t.TempDir()
	r := cli(t, 10*time.Minute, "run", "--target", url, "--profile", "labels", "--safe", "--rate", "1000", "--deadline", heavyDeadline, "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "safe mode (labels): deleted") || strings.Contains(r.stdout, "could NOT delete") {
		t.Errorf("cleanup summary:\n%s", r.stdout)
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var alive int
	if err := conn.QueryRow(`SELECT count(*) FROM channels WHERE deleted = 0`).Scan(&alive); err != nil {
		t.Fatal(err)
	}
	if alive != 0 {
		t.Errorf("%d channels left behind by a --safe run", alive)
	}
}

// TestMatrixWritesCaseByTarget: the default matrix (every profile's
// suites against the reference relay of every profile) writes one column
// per plan, named after its relay and suites, and keeps the plan names in
// its results. A matrix's exit code says nothing of the cases' outcomes,
// so a few cases of each suite show the columns as well as every case
// would: the whole suites run in TestDefaultRunPassesAndWritesJUnit,
// TestServeThenRunTarget and the conformance packages.
func TestMatrixWritesCaseByTarget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := cli(t, 5*time.Minute, "matrix", "--report-dir", dir,
		"--focus", "base/nip11/*", "--focus", "identity/tags/*", "--focus", "labels/grammar/1")
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
	for _, col := range []string{"reference (labels) · identity", "reference (identity) · labels", "reference (nip29) · labels"} {
		if !strings.Contains(header, col) {
			t.Errorf("matrix header lacks %q: %s", col, header)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "matrix.html")); err != nil {
		t.Error(err)
	}
	// The run's own reports keep the plan names "<suites> suites @ <profile> relay".
	if _, ok := outcomes(t, filepath.Join(dir, "results.json"))["labels suites @ nip29 relay labels/grammar/1"]; !ok {
		t.Error("results.json lacks plan \"labels suites @ nip29 relay\"")
	}
}

func outcomes(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Cases []struct{ ID, Plan, Outcome string }
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, c := range res.Cases {
		m[c.Plan+" "+c.ID] = c.Outcome
	}
	return m
}

func sameOutcomes(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d cases, serial run had %d", what, len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s is %q, serial run had %q", what, k, got[k], v)
		}
	}
}

// TestParallelAndShardsMatchSerial: --parallel 2 and two --shard runs joined
// by `report merge` report the same cases with the same outcomes as a
// serial run (with a fault on, so not every outcome is pass). The runs
// take three sections of the labels profile (about 50 cases, of which
// the fault fails about 30): the flags split and join whatever cases
// are selected, and the whole suite in worker processes is
// TestDefaultRunPassesAndWritesJUnit's.
func TestParallelAndShardsMatchSerial(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	common := []string{"run", "--profile", "labels", "--fault", "private-messages-readable", "--deadline", heavyDeadline,
		"--focus", "base/reads/*", "--focus", "base/read/*", "--focus", "labels/snapshot/*"}
	// The four runs are independent processes: all at once.
	runs := map[string][]string{
		"serial": append(common, "--parallel", "1", "--report-dir", filepath.Join(root, "serial")),
		"par":    append(common, "--parallel", "2", "--report-dir", filepath.Join(root, "par")),
		"s1":     append(common, "--shard", "1/2", "--report-dir", filepath.Join(root, "s1")),
		"s2":     append(common, "--shard", "2/2", "--report-dir", filepath.Join(root, "s2")),
	}
	done := cliAtOnce(t, runs)
	for name, r := range done {
		if r.code < 0 {
			t.Fatalf("%s run did not finish:\n%s", name, r.stderr)
		}
	}
	serial := done["serial"]
	if serial.code != 1 {
		t.Fatalf("serial run with a fault: exit %d, want 1\n%s", serial.code, serial.stderr)
	}
	want := outcomes(t, filepath.Join(root, "serial", "results.json"))

	if par := done["par"]; par.code != serial.code {
		t.Errorf("--parallel exit %d, serial %d\n%s", par.code, serial.code, par.stderr)
	}
	sameOutcomes(t, "--parallel 2", want, outcomes(t, filepath.Join(root, "par", "results.json")))

	var parts []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(root, fmt.Sprintf("s%d", i))
		part := outcomes(t, filepath.Join(dir, "results.json"))
		if len(part) == 0 || len(part) == len(want) {
			t.Errorf("shard %d/2 ran %d of %d cases", i, len(part), len(want))
		}
		parts = append(parts, filepath.Join(dir, "results.json"))
	}
	merged := cli(t, 30*time.Second, append([]string{"report", "merge", filepath.Join(root, "merged")}, parts...)...)
	if merged.code != serial.code {
		t.Errorf("report merge exit %d, serial %d\n%s", merged.code, serial.code, merged.stderr)
	}
	sameOutcomes(t, "shards + report merge", want, outcomes(t, filepath.Join(root, "merged", "results.json")))
	readJUnit(t, filepath.Join(root, "merged", "junit.xml"))
}

// TestAutoProfileDetectsTheLine: both drafts advertise "nip-cl"; auto
// detection tells them apart by behaviour and reports claim vs behaviour.
// Detection happens before the cases, so one section of the detected
// profile's own cases shows which suites ran (the whole suite against a
// served relay of each profile is TestServeThenRunTarget's).
func TestAutoProfileDetectsTheLine(t *testing.T) {
	t.Parallel()
	for profile, section := range map[string]string{"identity": "identity/tags/*", "labels": "labels/snapshot/*"} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel()
			url := serve(t, "--profile", profile)
			dir := t.TempDir()
			r := cli(t, 5*time.Minute, "run", "--target", url, "--focus", section, "--report-dir", dir)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if want := "behaviour says " + profile; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
			}
			got := outcomes(t, filepath.Join(dir, "results.json"))
			if len(got) == 0 {
				t.Errorf("no case of %s ran: the %s suites did not", section, profile)
			}
			for k, v := range got {
				if !strings.Contains(k, strings.TrimSuffix(section, "*")) || v != "pass" {
					t.Errorf("%s is %s; want only %s cases, passing", k, v, section)
				}
			}
		})
	}
}

// TestSharedRunIDShardsDoNotCollide: shards that share a run ID — two
// --shard processes and a --parallel 8 run (eight workers), all started
// together against one relay — mint distinct names and labels (each
// process carries its own random instance beside the run ID), so a
// correct relay passes them all (before, per-process counters collided
// and label searches found another shard's channel). --junit keeps its
// meaning under --parallel.
func TestSharedRunIDShardsDoNotCollide(t *testing.T) {
	t.Parallel()
	url := serve(t, "--profile", "labels")
	root := t.TempDir()
	common := []string{"run", "--profile", "labels", "--run-id", "shared1", "--deadline", heavyDeadline}
	junit := filepath.Join(root, "custom", "conformance.xml")
	runs := map[string][]string{
		"shard 1/2":    append(slices.Clone(common), "--target", url, "--shard", "1/2", "--report-dir", filepath.Join(root, "s1")),
		"shard 2/2":    append(slices.Clone(common), "--target", url, "--shard", "2/2", "--report-dir", filepath.Join(root, "s2")),
		"--parallel 8": append(slices.Clone(common), "--target", url, "--parallel", "8", "--report-dir", filepath.Join(root, "par"), "--junit", junit),
	}
	done := cliAtOnce(t, runs)
	for name, r := range done {
		if r.code != 0 {
			t.Errorf("%s with a shared run ID exited %d %s\n%s\n%s", name, r.code, r.err, r.stdout, r.stderr)
		}
	}
	readJUnit(t, junit)
}

// TestRunIDIsValidated: a run ID that would make generated labels invalid
// (capitals, too long, other bytes) is a usage error, not a failing relay.
func TestRunIDIsValidated(t *testing.T) {
	for _, id := range []string{"ABC", "a_b", "-lead", "12345678901234567", "a b"} {
		r := cli(t, 30*time.Second, "run", "--run-id", id, "--report-dir", t.TempDir())
		if r.code != 2 || !strings.Contains(r.stderr, "--run-id") {
			t.Errorf("--run-id %q: exit %d, stderr %q; want 2 and a --run-id message", id, r.code, r.stderr)
		}
	}
}

// TestLabelFilterSelectsCases: cases carry their metadata as Ginkgo labels,
// so Ginkgo's filter syntax selects them; a bad filter is a usage error.
func TestLabelFilterSelectsCases(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	dir := t.TempDir()
	r := cli(t, 5*time.Minute, "run", "--profile", "labels", "--label-filter", "labels && MUST && !slow && section:labels.snapshot", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got := outcomes(t, filepath.Join(dir, "results.json"))
	if len(got) == 0 {
		t.Fatal("the label filter selected no case")
	}
	for k := range got {
		if !strings.Contains(k, "labels/snapshot/") {
			t.Errorf("case %s does not match the label filter", k)
		}
	}
	if bad := cli(t, 30*time.Second, "run", "--label-filter", "a &&", "--report-dir", t.TempDir()); bad.code != 2 || !strings.Contains(bad.stderr, "--label-filter") {
		t.Errorf("bad label filter: exit %d, stderr %q", bad.code, bad.stderr)
	}
}

// TestRootCausesLeadTheSummary: one broken rule seen by many cases is one
// root cause; two unrelated broken rules are two. The runs take the
// sections where the two faults show (labels-unsorted fails 55 cases of
// labels/reads, /add-remove and /snapshot; join-member-not-duplicate
// fails base/join/2): the summary groups the cases that did not pass;
// over the whole profile labels-unsorted fails 80 cases, of the same one
// root cause.
func TestRootCausesLeadTheSummary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		faults []string
		want   string
	}{
		{[]string{"labels-unsorted"}, "1 root cause(s) explain"},
		{[]string{"labels-unsorted", "join-member-not-duplicate"}, "2 root cause(s) explain"},
	} {
		t.Run(strings.Join(tc.faults, "+"), func(t *testing.T) {
			t.Parallel()
			args := []string{"run", "--profile", "labels", "--deadline", heavyDeadline, "--report-dir", t.TempDir(),
				"--focus", "labels/reads/*", "--focus", "labels/add-remove/*", "--focus", "labels/snapshot/*", "--focus", "base/join/*"}
			for _, f := range tc.faults {
				args = append(args, "--fault", f)
			}
			r := cli(t, 10*time.Minute, args...)
			if r.code != 1 || !strings.Contains(r.stdout, tc.want) {
				t.Errorf("faults %v: exit %d, want 1 and %q in the summary:\n%s", tc.faults, r.code, tc.want, r.stdout)
			}
		})
	}
}

func TestKillJudgesOneFault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := cli(t, time.Minute, "kill", "labels-unsorted", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"labels-unsorted (labels, clause labels/snapshot.4): killed", "killers:", "labels/snapshot/1", "reports in " + dir} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Errorf("--report-dir: %v", err)
	}
	if r := cli(t, time.Minute, "kill", "no-such-fault"); r.code != 2 || !strings.Contains(r.stderr, "unknown fault") {
		t.Errorf("unknown fault: exit %d, stderr %q; want 2 and \"unknown fault\"", r.code, r.stderr)
	}
	if r := cli(t, time.Minute, "kill"); r.code != 2 {
		t.Errorf("no fault: exit %d, want 2", r.code)
	}
}
