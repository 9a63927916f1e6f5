package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
)

// checkIncomplete checks the reports of a run the harness stopped: exit 4,
// no case blamed on the relay as a timeout, the not-run cases counted, and
// every report leading with the same "incomplete: stopped by …" headline.
func checkIncomplete(t *testing.T, code int, stdout, dir, by string) {
	t.Helper()
	if code != reports.ExitIncomplete {
		t.Errorf("exit %d, want %d (incomplete)\n%s", code, reports.ExitIncomplete, stdout)
	}
	res, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.StoppedBy, by) {
		t.Errorf("stopped_by %q, want it to name %q", res.StoppedBy, by)
	}
	counts := res.Counts()
	if counts[reports.Timeout] != 0 {
		t.Errorf("%d timeout cases in a run the harness stopped against a healthy relay; outcomes %v", counts[reports.Timeout], counts)
	}
	if counts[reports.NotRun] == 0 {
		t.Errorf("no not-run case; outcomes %v", counts)
	}
	head := reports.Headline(res)
	if !strings.HasPrefix(head, "incomplete: stopped by "+res.StoppedBy+" after ") {
		t.Errorf("headline %q", head)
	}
	for _, f := range []string{"summary.md", "report.html", "junit.xml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if f == "report.html" || f == "junit.xml" {
			text = strings.NewReplacer("&#39;", "'", "&#34;", `"`).Replace(text)
		}
		if !strings.Contains(text, head) {
			t.Errorf("%s does not lead with %q", f, head)
		}
		if strings.Contains(text, "does not conform") {
			t.Errorf("%s says \"does not conform\" of a run the harness stopped", f)
		}
	}
	if !strings.Contains(stdout, head) {
		t.Errorf("stdout lacks the headline %q:\n%s", head, stdout)
	}
	v := cli(t, 30*time.Second, "report", "verify", filepath.Join(dir, "results.json"))
	if v.code != 0 || !strings.Contains(v.stdout, "verdict  incomplete: stopped by") {
		t.Errorf("report verify: exit %d\n%s%s", v.code, v.stdout, v.stderr)
	}
}

// TestDeadlineStopIsIncomplete: a run whose --deadline passes is
// incomplete (exit 4), its unfinished cases not-run, never timeouts. The
// labels profile (373 cases, about 4 s here): the nip29 profile's 171 now
// fit in 1.6 s with 4 workers, and the deadline counts from the parent's
// start in every worker (it once restarted in each, so such a run ended
// complete).
func TestDeadlineStopIsIncomplete(t *testing.T) {
	dir := t.TempDir()
	r := cli(t, time.Minute, "run", "--profile", "labels", "--deadline", "1500ms", "--report-dir", dir)
	checkIncomplete(t, r.code, r.stdout, dir, "the run's deadline (--deadline 1.5s)")
}

// TestSIGTERMStopIsIncomplete: a run cancelled with SIGTERM half-way (a CI
// job cancelled) is incomplete, stopped by a cancel.
func TestSIGTERMStopIsIncomplete(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "run", "--profile", "nip29", "--report-dir", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Ginkgo writes a mark per finished case into ginkgo.log: the run is
	// under way once it has some.
	for {
		if st, err := os.Stat(filepath.Join(dir, "ginkgo.log")); err == nil && st.Size() > 20 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no case finished within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	checkIncomplete(t, code, out.String(), dir, "a cancel (SIGTERM)")
}

// TestDeadlineIsDerivedAndSaid: without --deadline the run derives one
// from its plan and says so at start; a --deadline the run cannot fit is
// said to be too short before the cases begin.
func TestDeadlineIsDerivedAndSaid(t *testing.T) {
	r := cli(t, time.Minute, "run", "--profile", "nip29", "--focus", "base/nip11/1", "--report-dir", t.TempDir())
	if r.code != 0 || !strings.Contains(text.FirstLine(r.stdout), "derived from the plan (1 cases") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// 129 cases paced at 5 writes/s need minutes: 1m is said to be short
	// before the cases begin (the run is then interrupted).
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "run", "--profile", "nip29", "--rate", "5", "--deadline", "1m", "--report-dir", t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(stdout).ReadString('\n')
	// The first line is all this test reads: the process is killed
	// (TestInterruptAsCasesStartStopsAtOnce interrupts it at this moment).
	_ = cmd.Process.Kill()
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	_ = cmd.Wait()
	if !strings.HasPrefix(first, "warning: --deadline 1m0s is shorter than this run is expected to take") {
		t.Errorf("first line %q, want the deadline said to be too short", first)
	}
}

// TestInterruptAsCasesStartStopsAtOnce: a SIGINT sent right after the
// run's first line (the plan prepared, the cases about to start) lands
// after the runner looked at the stop but before Ginkgo hears signals; the
// run still stops at once, incomplete, every case not-run — not at its
// deadline a minute later.
func TestInterruptAsCasesStartStopsAtOnce(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "run", "--profile", "nip29", "--rate", "5", "--deadline", "1m", "--report-dir", dir)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(pipe)
	first, _ := rd.ReadString('\n')
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	rest, _ := io.ReadAll(rd)
	err = cmd.Wait()
	took := time.Since(sent)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stdout := first + string(rest)
	// The cases stop as they start, not at the minute of --deadline: at
	// most the one case under way when Ginkgo heard the signal ran, every
	// other is not-run. Counted, not timed: the time to exit (a case's
	// grace period, report writing) stretches with the machine's load,
	// while a run that ignored the interrupt runs case after case.
	t.Logf("exit %d %s after the interrupt", code, took.Round(time.Millisecond))
	checkIncomplete(t, code, stdout, dir, "an interrupt (SIGINT)")
	res, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if ran := len(res.Cases) - res.Counts()[reports.NotRun]; ran > 1 {
		t.Errorf("%d cases ran after an interrupt sent as the cases started, want at most 1; outcomes %v", ran, res.Counts())
	}
}

// TestSafeRunCancelledHalfWayCleansUp: a --safe run against a live relay
// cancelled with SIGTERM half-way is incomplete, and deletes every channel
// it created (or names those it could not): nothing is left behind
// unreported.
func TestSafeRunCancelledHalfWayCleansUp(t *testing.T) {
	db := filepath.Join(t.TempDir(), "relay.db")
	relay := serve(t, "--profile", "labels", "--db", db)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "run", "--target", relay, "--profile", "labels", "--safe", "--rate", "200", "--parallel", "1", "--report-dir", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "ginkgo.log")); err == nil && st.Size() > 60 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no case finished in time:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	checkIncomplete(t, code, out.String(), dir, "a cancel (SIGTERM)")
	res, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plans) != 1 || res.Plans[0].Cleanup == nil {
		t.Fatalf("no cleanup account in results.json: %+v", res.Plans)
	}
	cl := res.Plans[0].Cleanup
	if !strings.Contains(out.String(), fmt.Sprintf("safe mode (labels): deleted %d channels", cl.Deleted)) {
		t.Errorf("stdout does not report the cleanup:\n%s", out.String())
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
	if alive > len(cl.Failed) {
		t.Errorf("%d channels left behind, %d reported as not deleted (%d deleted): %v", alive, len(cl.Failed), cl.Deleted, cl.Failed)
	}
	t.Logf("deleted %d, could not delete %d, left %d", cl.Deleted, len(cl.Failed), alive)
}

// TestProgressWithoutATerminal: a run whose output is a file (a CI log)
// prints a progress line every few seconds, and its messages whole.
func TestProgressWithoutATerminal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "run", "--profile", "labels", "--fault", "labels-unsorted", "--focus", "labels/snapshot/*", "--focus", "base/*", "--report-dir", t.TempDir())
	cmd.Env = append(os.Environ(), "NIPCL_PROGRESS_EVERY=200ms")
	out, _ := cmd.Output()
	s := string(out)
	if !strings.Contains(s, "progress: ") || !strings.Contains(s, " cases done, ") {
		t.Errorf("no progress line:\n%s", s)
	}
	// The messages end with what was observed: never cut in a file.
	for _, l := range strings.Split(s, "\n") {
		if strings.HasSuffix(l, "…") {
			t.Errorf("a line cut in a file: %s", l)
		}
	}
}
