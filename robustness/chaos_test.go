package robustness

import (
	"bytes"
	"context"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/internal/chaos"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
)

const (
	stepTimeout = time.Second
	// runDeadline is the CLI's --deadline. Modes that time out every step
	// need about one step per case, so they hit it: 15s keeps the package
	// quick and exercises the deadline path. Whether a run hits it depends
	// on the machine's load (the fast-failing modes take 8-13 s on an idle
	// machine), so the checks hold either way: see checkDeadline.
	runDeadline = 15 * time.Second
	// answersGuard is the guard (startCLI) of a run with the deadline the
	// CLI derives from the plan (expectation.answers): it only catches a
	// run that never ends.
	answersGuard = 5 * time.Minute
)

// Baseline cases that need a REQ answered with EOSE (Query, StateEvent,
// Subscribe, Ping) and cases that need an OK to an EVENT.
var (
	queryCases = []string{
		"base/event/1", "base/filters/1", "base/filters/2", "base/filters/3", "base/filters/4", "base/live/1",
		"base/create/1", "base/create/2", "base/create/3", "base/state/1", "base/state/2", "base/state/3", "base/state/4", "base/edit/1",
		"base/permissions/1", "base/permissions/2", "base/membership/1", "base/membership/4", "base/membership/5",
		"base/read/1", "base/read/2", "base/read/3", "base/read/4", "base/delete/1", "base/delete/2",
		"base/flags/1", "base/join/1", "base/join/3", "base/leave/1", "base/restricted/1",
	}
	publishCases = []string{
		"base/auth/3", "base/event/1", "base/event/2", "base/event/3", "base/prefix/1",
		"base/filters/1", "base/filters/2", "base/live/1", "base/count/1", "base/count/2",
		"base/create/1", "base/create/2", "base/create/3", "base/state/1", "base/state/2", "base/edit/1",
		"base/permissions/1", "base/permissions/2", "base/membership/1", "base/membership/4",
		"base/read/1", "base/read/2", "base/read/3", "base/read/4", "base/delete/1", "base/delete/2",
		"base/join/1", "base/join/2", "base/leave/1", "base/restricted/1",
	}
)

// expectation: which cases check the broken clause, and how each of them
// must be classified. every: the rule covers every case of the run except
// the listed ones (modes in which nothing can work).
type expectation struct {
	cases  []string        // cases that need the broken capability
	every  bool            // ... or every case of the run, except `except`
	except []string        // cases that may legitimately pass in an `every` mode
	want   reports.Outcome // required class of the broken cases ("" = any non-pass)
	code   int             // required exit code (0 = 1 or 2)
	// answers: the relay answers every step (it drops the connection or
	// sends what breaks it), and the class under test is that answer's
	// (Fail, not Timeout). Such a run keeps the CLI's default step timeout
	// and the deadline it derives from the plan: with stepTimeout the
	// answer races the step deadline, and on a loaded machine the oversize
	// frame (4 MiB the client reads before it can refuse it) or the drop
	// can come after a second — a timeout that says nothing of the
	// classification; with runDeadline the run stops before most cases are
	// classified at all. The deadline path is the timing-out modes' to
	// exercise.
	answers bool
}

var expectations = map[chaos.Mode]expectation{
	// No HTTP answer at all: setup times out, every case is a timeout.
	chaos.Silent: {every: true, want: reports.Timeout, code: reports.ExitHarness},
	// A REQ never ends: every case that reads times out.
	chaos.NoEOSE: {cases: queryCases, want: reports.Timeout},
	// Every answer comes 5s late with a 1s step timeout.
	chaos.Slow: {every: true, except: []string{"base/nip11/1"}, want: reports.Timeout},
	// Nothing parseable ever comes back.
	chaos.Garbage: {every: true, except: []string{"base/nip11/1"}, want: reports.Timeout},
	// The connection drops at the first REQ.
	chaos.CloseMidSub: {cases: queryCases, want: reports.Fail, answers: true},
	// No OK ever names the event that was sent (AUTH included).
	chaos.WrongOKID: {cases: publishCases, want: reports.Timeout},
	// A frame above the client's read limit ends the connection.
	chaos.Oversize: {cases: queryCases, want: reports.Fail, answers: true},
	// Relay-signed state events do not verify.
	chaos.BadSignatures: {cases: []string{"base/state/1"}, want: reports.Fail},
	// Every AUTH is refused: the harness cannot act as its keys, so every
	// case that needs an authenticated write is blocked by the auth
	// precondition (one incompatible line), never failed.
	chaos.AuthRefused: {cases: publishCases, want: reports.Blocked, code: reports.ExitBlocked},
	// Nothing but NOTICEs.
	chaos.NoticeFlood: {every: true, except: []string{"base/nip11/1"}, want: reports.Timeout},
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestChaosModes runs the real CLI against each chaos mode. The runs are
// started together (they mostly wait on timeouts; t.Parallel would cap them
// at GOMAXPROCS), then checked one by one.
func TestChaosModes(t *testing.T) {
	t.Parallel()
	type pending struct {
		mode chaos.Mode
		srv  *chaos.Server
		done chan runResult
	}
	var runs []pending
	for _, m := range chaos.Modes {
		s, err := chaos.Start(chaos.Options{Mode: m})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		p := pending{mode: m, srv: s, done: make(chan runResult, 1)}
		dir := t.TempDir()
		go func() {
			// One process: the run's own handling of a broken relay is
			// under test, not the worker count a measured link would pick
			// (a slow or silent relay on loopback measures as far away).
			// Only the baseline cases, which every expectation names: the
			// whole labels profile no longer fits the deadline when the
			// mode lets cases fail fast but the machine is loaded.
			args := []string{"run", "--target", s.URL, "--profile", "labels", "--parallel", "1", "--focus", "base/*"}
			guard := runDeadline + 30*time.Second
			if expectations[m].answers {
				guard = answersGuard
			} else {
				args = append(args, "--timeout", stepTimeout.String(), "--deadline", runDeadline.String())
			}
			p.done <- startCLI(dir, guard, args...)
		}()
		runs = append(runs, p)
	}
	for _, p := range runs {
		t.Run(string(p.mode), func(t *testing.T) {
			r := <-p.done
			exp, ok := expectations[p.mode]
			if !ok {
				t.Fatalf("no expectation for chaos mode %s", p.mode)
			}
			if r.err != nil {
				t.Fatalf("%v\nstderr: %s", r.err, r.stderr)
			}
			r.results = readResults(t, r.dir)
			checkRun(t, p.mode, exp, r)
		})
	}
}

// startCLI runs nipcl-conform with a report directory and a hard guard
// timeout; r.err is set when it did not exit on its own.
func startCLI(dir string, guard time.Duration, args ...string) runResult {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "--report-dir", dir)...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := runResult{took: time.Since(start), stdout: stdout.String(), stderr: stderr.String(), dir: dir}
	r.code, r.err = exitCode(err, ctx)
	return r
}

func checkRun(t *testing.T, m chaos.Mode, exp expectation, r runResult) {
	t.Helper()
	t.Logf("%s: exit %d in %s; outcomes %v", m, r.code, r.took.Round(time.Millisecond), r.results.Counts())
	// A mode that times every case out may not fit the run's deadline:
	// the cases the deadline kept from running are not-run and the run is
	// incomplete (exit 4), never a verdict on the relay.
	stopped := r.results.StoppedBy != ""
	switch {
	case stopped && r.code != reports.ExitIncomplete:
		t.Errorf("exit code %d for a run stopped by %s, want %d (incomplete)", r.code, r.results.StoppedBy, reports.ExitIncomplete)
	case stopped:
	case exp.code != 0 && r.code != exp.code:
		t.Errorf("exit code %d, want %d\nstderr: %s", r.code, exp.code, r.stderr)
	case exp.code == 0 && r.code != reports.ExitFailed && r.code != reports.ExitHarness:
		t.Errorf("exit code %d, want 1 or 2 against a broken relay\nstderr: %s", r.code, r.stderr)
	}
	if len(r.results.Cases) == 0 {
		t.Fatalf("results.json lists no cases")
	}
	deadline, err := time.ParseDuration(r.results.Settings["deadline"])
	if err != nil {
		t.Errorf("results.json settings.deadline: %v", err)
	}
	checkDeadline(t, r.results, deadline)
	for _, k := range []string{"step_timeout", "deadline"} {
		if r.results.Settings[k] == "" {
			t.Errorf("results.json settings lack %s: %v", k, r.results.Settings)
		}
	}
	byID := map[string]reports.CaseResult{}
	for _, c := range r.results.Cases {
		byID[c.ID] = c
	}
	var broken []string
	if exp.every {
		for id := range byID {
			if !contains(exp.except, id) {
				broken = append(broken, id)
			}
		}
	} else {
		broken = exp.cases
	}
	sort.Strings(broken)
	for _, id := range broken {
		c, ok := byID[id]
		if !ok {
			t.Errorf("%s: case missing from results.json", id)
			continue
		}
		if c.Outcome == reports.Pass {
			t.Errorf("%s passed against the %s relay, which breaks what it needs", id, m)
			continue
		}
		// A contract case (the harness's own precondition) blocks where a
		// NIP case fails: both say the relay did not do what the case needs.
		if exp.want == reports.Fail && c.Outcome == reports.Blocked && c.Source == "contract" {
			continue
		}
		if stopped && c.Outcome == reports.NotRun {
			continue
		}
		if exp.want != "" && c.Outcome != exp.want {
			t.Errorf("%s: outcome %s, want %s (message: %s)", id, c.Outcome, exp.want, text.FirstLine(c.Message))
		}
	}
}

// checkDeadline: no case started after the run's deadline. With one
// process the cases run one after another from after the deadline was set
// (an explicit --deadline covers setup too), so every case but the last to
// run started within the deadline, and the durations of all but one add up
// to at most the deadline. The longest case stands in for the last (the one
// the deadline may have cut short, which Ginkgo's grace period lets wind
// down): sum - longest <= sum - last <= deadline.
//
// This is counted from the run's own case durations, not timed around the
// process: a loaded machine slows every case (the fast-failing modes then
// reach the deadline and stop incomplete, which checkRun accepts), and
// process start, the interrupted case's grace period and report writing
// stretch the wall-clock time past any fixed margin — none of which is the
// run ignoring its deadline. A run that did ignore it (every case run to
// its end in a mode that times out each step) is caught by this sum, a
// hung one by startCLI's guard.
func checkDeadline(t *testing.T, res *reports.Results, deadline time.Duration) {
	t.Helper()
	var sum, longest time.Duration
	var longestID string
	for _, c := range res.Cases {
		d := time.Duration(c.DurationMS) * time.Millisecond
		sum += d
		if d > longest {
			longest, longestID = d, c.ID+" "+string(c.Outcome)
		}
	}
	t.Logf("cases ran %s in all, %s without the longest (%s, %s; deadline %s)", sum.Round(time.Millisecond), (sum - longest).Round(time.Millisecond), longestID, longest, deadline)
	if sum-longest > deadline {
		t.Errorf("cases ran %s in all (%s without the longest) with a %s deadline: cases started after it (stopped by %q)",
			sum.Round(time.Millisecond), (sum - longest).Round(time.Millisecond), deadline, res.StoppedBy)
	}
}
