package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/pace"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
)

// workerEnv names the environment variable through which the parent of
// run --parallel hands a worker process its share of the run.
const workerEnv = "NIPCL_WORKER"

// workerSpec is what a worker gets: where to claim cases and the relays
// the parent started (each plan once, shared by every worker).
type workerSpec struct {
	ClaimURL string       `json:"claim_url"`
	Worker   int          `json:"worker"`
	Plans    []workerPlan `json:"plans"`
	// Started is when the parent began the run: an explicit --deadline
	// counts from it in every worker (runner.Options.Started).
	Started time.Time `json:"started,omitzero"`
}

type workerPlan struct {
	Name        string   `json:"name"`
	Profile     string   `json:"profile"`
	URL         string   `json:"url"`
	RelayPubKey string   `json:"relay_pubkey,omitempty"`
	Hosts       []string `json:"hosts,omitempty"`
	RelayURL    string   `json:"relay_url,omitempty"`
	Desc        string   `json:"desc"`
	Repro       string   `json:"repro"`
	// Findings is what the parent observed of the relay before the
	// workers started (runner.ProbePlans): the workers skip those probes.
	Findings *runner.Findings `json:"findings,omitempty"`
}

// workerFromEnv reads a worker's share of a parallel run, or returns nil
// when this process is not a worker.
func workerFromEnv() (*workerSpec, error) {
	raw := os.Getenv(workerEnv)
	if raw == "" {
		return nil, nil
	}
	var w workerSpec
	if err := json.Unmarshal([]byte(raw), &w); err != nil || w.ClaimURL == "" || len(w.Plans) == 0 {
		return nil, fmt.Errorf("%s is set but is not a worker description (%v)", workerEnv, err)
	}
	return &w, nil
}

// plans are the worker's plans: the parent's relays, already started.
func (w *workerSpec) plans() []runner.Plan {
	var out []runner.Plan
	for _, p := range w.Plans {
		out = append(out, runner.Plan{Name: p.Name, Profile: p.Profile, Target: &runner.StartedTarget{
			Endpoint: runner.Endpoint{URL: p.URL, RelayPubKey: p.RelayPubKey, Hosts: p.Hosts, RelayURL: p.RelayURL},
			Desc:     p.Desc, Repro: p.Repro,
		}, Findings: p.Findings})
	}
	return out
}

// claimer asks the parent for each case this worker does not know to be
// taken: each answer brings the claims made since the worker's last ask
// (claimQueue.order), so a worker asks about the cases it runs and a few it
// races for, not about every case of the plan (with 40 workers that was
// 26,000 requests, a tenth of the run's CPU). A parent that cannot be
// reached grants nothing: the case is then the parent's to report.
func (w *workerSpec) claimer() func(plan, caseID string) bool {
	client := &http.Client{Timeout: 10 * time.Second}
	var mu sync.Mutex
	taken := map[[2]string]bool{}
	seen := 0 // the claims log read so far
	return func(plan, caseID string) bool {
		mu.Lock()
		defer mu.Unlock()
		if taken[[2]string{plan, caseID}] {
			return false
		}
		body := w.post(client, "/claim", url.Values{"plan": {plan}, "case": {caseID}, "since": {strconv.Itoa(seen)}}, 4<<20)
		answer, rest, _ := strings.Cut(body, "\n")
		for _, line := range strings.Split(rest, "\n") {
			if line == "" {
				continue
			}
			seen++ // one line per claim, read or not
			if e, err := url.ParseQuery(line); err == nil {
				taken[[2]string{e.Get("plan"), e.Get("case")}] = true
			}
		}
		return answer == "run"
	}
}

// pacer waits for the parent's shared pacer before each write: one write
// slot of the whole run's --rate.
func (w *workerSpec) pacer() func(ctx context.Context) error {
	return func(ctx context.Context) error {
		q := url.Values{"worker": {strconv.Itoa(w.Worker)}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(w.ClaimURL, "/claim")+"/pace?"+q.Encode(), nil)
		if err != nil {
			return fmt.Errorf("shared pacer: %w", err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return fmt.Errorf("shared pacer: %w", err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("shared pacer: %s", resp.Status)
		}
		return nil
	}
}

// doneReporter tells the parent a case ended (for its progress line).
func (w *workerSpec) doneReporter() func(plan, caseID string, failed bool) {
	client := &http.Client{Timeout: 10 * time.Second}
	return func(plan, caseID string, failed bool) {
		w.post(client, "/done", url.Values{"plan": {plan}, "case": {caseID}, "failed": {strconv.FormatBool(failed)}}, 16)
	}
}

// post sends one of this worker's messages to the parent's queue (path
// /claim or /done) and returns the answer, read up to limit bytes (""
// when there is none, or it could not be read whole).
func (w *workerSpec) post(client *http.Client, path string, q url.Values, limit int64) string {
	q.Set("worker", strconv.Itoa(w.Worker))
	resp, err := client.Post(strings.TrimSuffix(w.ClaimURL, "/claim")+path+"?"+q.Encode(), "text/plain", nil)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil || resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(body)
}

// claimQueue grants each (plan, case) to the first worker that asks, and
// counts the cases workers finished.
type claimQueue struct {
	// pacer, when set, paces every worker's writes (/pace): --rate holds
	// for the run, not per worker.
	pacer   *pace.Pacer
	mu      sync.Mutex
	claimed map[[2]string]int // (plan, case) → worker
	// asked is the workers that have asked for a case (growth.started).
	asked map[int]bool
	// order is every claim in the order granted: a claim's answer carries
	// the entries the asking worker has not read (its "since").
	order [][2]string
	// progress, when set, is called with the counts after each finished case.
	progress     func(done, failed int, last string)
	done, failed int
	// log, when set, gets a line per finished case (the run's ginkgo.log).
	log io.Writer
}

func (q *claimQueue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/pace") {
		if q.pacer == nil {
			_, _ = io.WriteString(w, "ok")
			return
		}
		if err := q.pacer.Wait(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ok")
		return
	}
	if strings.HasSuffix(r.URL.Path, "/done") {
		q.mu.Lock()
		q.done++
		if r.URL.Query().Get("failed") == "true" {
			q.failed++
		}
		done, failed := q.done, q.failed
		if q.log != nil {
			word := "passed"
			if r.URL.Query().Get("failed") == "true" {
				word = "not passing"
			}
			fmt.Fprintf(q.log, "worker %s: %s %s %s\n", r.URL.Query().Get("worker"), r.URL.Query().Get("plan"), r.URL.Query().Get("case"), word)
		}
		q.mu.Unlock()
		if q.progress != nil {
			q.progress(done, failed, r.URL.Query().Get("plan")+" "+r.URL.Query().Get("case"))
		}
		_, _ = io.WriteString(w, "ok")
		return
	}
	worker, err := strconv.Atoi(r.URL.Query().Get("worker"))
	key := [2]string{r.URL.Query().Get("plan"), r.URL.Query().Get("case")}
	if err != nil || key[0] == "" || key[1] == "" {
		http.Error(w, "want worker, plan and case", http.StatusBadRequest)
		return
	}
	since, _ := strconv.Atoi(r.URL.Query().Get("since"))
	q.mu.Lock()
	if q.asked == nil {
		q.asked = map[int]bool{}
	}
	q.asked[worker] = true
	_, taken := q.claimed[key]
	if !taken {
		q.claimed[key] = worker
		q.order = append(q.order, key)
	}
	var b strings.Builder
	if taken {
		b.WriteString("skip\n")
	} else {
		b.WriteString("run\n")
	}
	for _, k := range q.order[min(max(since, 0), len(q.order)):] {
		// query-escaped: a plan or case name may hold any character
		b.WriteString(url.Values{"plan": {k[0]}, "case": {k[1]}}.Encode() + "\n")
	}
	q.mu.Unlock()
	_, _ = io.WriteString(w, b.String())
}

// askedBy reports whether workers 1 to n have each asked for a case.
func (q *claimQueue) askedBy(n int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for w := 1; w <= n; w++ {
		if !q.asked[w] {
			return false
		}
	}
	return true
}

// claims returns every claim, sorted by plan and case.
func (q *claimQueue) claims() []claim {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]claim, 0, len(q.claimed))
	for k, w := range q.claimed {
		out = append(out, claim{plan: k[0], caseID: k[1], worker: w})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].plan != out[j].plan {
			return out[i].plan < out[j].plan
		}
		return out[i].caseID < out[j].caseID
	})
	return out
}

type claim struct {
	plan, caseID string
	worker       int
}

// parseShard parses "i/N" (1-based i) into a runner.Shard (0-based index).
func parseShard(s string) (runner.Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return runner.Shard{}, fmt.Errorf("--shard wants i/N with 1 <= i <= N, got %q", s)
	}
	return runner.Shard{Index: i - 1, Total: n}, nil
}

// childArgs rebuilds the flags the user set, minus the ones the parent
// owns: parallelism, report paths, run ID, and what picks and starts the
// relay (workers get the started relays instead).
func childArgs(fs *flag.FlagSet) []string {
	skip := map[string]bool{"parallel": true, "shard": true, "report-dir": true, "junit": true, "run-id": true,
		"target": true, "image": true, "dockerfile": true, "fault": true, "db": true, "reading": true, "simulate-rtt": true, "host-header": true,
		"container-port": true, "path": true, "network": true, "env": true, "profile": true}
	var out []string
	fs.Visit(func(f *flag.Flag) {
		if skip[f.Name] {
			return
		}
		if l, ok := f.Value.(*listFlag); ok {
			for _, v := range *l {
				out = append(out, "--"+f.Name, v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

// parallelRun is one run --parallel: the plans' relays, started once by
// this process, and n worker processes taking cases from one queue.
type parallelRun struct {
	fs        *flag.FlagSet
	n         int
	reportDir string
	junitPath string
	runID     string
	deadline  time.Duration
	started   time.Time // when the run began (the --deadline counts from it)
	rate      float64   // --rate, paced for all workers together
	stderr    io.Writer
	// progress, when set, receives a live progress line (a terminal);
	// else out, when set, a progress line every few seconds. Either also
	// receives what the workers say that a run in one process would print
	// as it goes (workerLines).
	progress, out io.Writer
	// printMu orders the lines this process prints while the workers run.
	printMu sync.Mutex
	// saidDeadline is set once a worker's deadline line was passed on.
	saidDeadline bool
	// grow, when set, starts fewer workers and adds more while the relay
	// keeps up (growth); n is then the most.
	grow *growth
	// workers counts the workers started so far (the progress lines).
	workers atomic.Int32
}

// say prints one line while the workers run: on a terminal, over the
// live progress line, which the next finished case draws again.
func (pr *parallelRun) say(line string) {
	pr.printMu.Lock()
	defer pr.printMu.Unlock()
	switch {
	case pr.progress != nil:
		fmt.Fprintf(pr.progress, "\r\033[K%s\n", line)
	case pr.out != nil:
		fmt.Fprintln(pr.out, line)
	}
}

// workerLine passes on a line of a worker's output that a run in one
// process prints as it goes: the deadline the run derived from the plan
// (or the warning that a --deadline is short), once for all workers —
// each derives the same one from the whole plan —, and each case that did
// not pass (FAIL, BLOCKED, KNOWN …). The rest of a worker's output is
// its own (its progress lines, its part of the reports).
func (pr *parallelRun) workerLine(line string) {
	switch {
	case strings.HasPrefix(line, "deadline ") && strings.Contains(line, "derived from the plan"),
		strings.HasPrefix(line, "warning: --deadline "):
		pr.printMu.Lock()
		said := pr.saidDeadline
		pr.saidDeadline = true
		pr.printMu.Unlock()
		if !said {
			pr.say(line)
		}
	case strings.HasPrefix(line, "FAIL "), strings.HasPrefix(line, "BLOCKED "), strings.HasPrefix(line, "KNOWN "):
		pr.say(line)
	}
}

// lineWriter calls each on every complete line written to it (without
// its newline), and keeps everything written in all.
type lineWriter struct {
	mu      sync.Mutex
	all     bytes.Buffer
	partial []byte
	each    func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSuffix(string(w.partial[:i]), "\r")
		w.partial = w.partial[i+1:]
		if w.each != nil {
			w.each(line)
		}
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// startPlans starts every plan's relay once; the caller stops them.
func startPlans(ctx context.Context, plans []runner.Plan, step time.Duration) ([]workerPlan, error) {
	var out []workerPlan
	for _, p := range plans {
		sctx, cancel := context.WithTimeout(ctx, 3*step+time.Minute)
		ep, err := p.Target.Start(sctx)
		cancel()
		if err != nil {
			return out, fmt.Errorf("start %s (%s): %w", p.Name, p.Target, err)
		}
		out = append(out, workerPlan{Name: p.Name, Profile: p.Profile, URL: ep.URL, RelayPubKey: ep.RelayPubKey,
			Hosts: ep.Hosts, RelayURL: ep.RelayURL, Desc: p.Target.String(), Repro: runner.ReproPrefix(p.Target, p.Profile, ep.URL)})
	}
	return out, nil
}

func stopPlans(plans []runner.Plan) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, p := range plans {
		_ = p.Target.Stop(ctx)
	}
}

// autoParallel picks the worker count when --parallel is not given: one
// process for a relay on this machine (round trips cost nothing, CPU is
// the budget), at most parallelWorkers or farWorkers across a network —
// fewer when the relay's NIP-11 limitation.max_subscriptions is smaller,
// a relay that asks for a small budget per client. Across a network the
// run starts with fewer and adds workers while the relay keeps up
// (growth, when the returned one is not nil). It returns the count and
// why ("" when the relay could not be probed: the run then reports why in
// its own words). measured, when set, is called as soon as the round trip
// says the relay is not on this machine: the parent's probe then starts
// beside the growth's baseline reads (its own first round trips are reads
// too), and none of its writes can make a local relay's round trip look
// remote.
func autoParallel(ctx context.Context, started []workerPlan, step time.Duration, measured func()) (int, string, *growth) {
	if len(started) == 0 {
		return 1, "no relay", nil
	}
	u := started[0].URL
	rtt, err := runner.MeasureRTT(ctx, u, step)
	if err != nil || rtt == 0 {
		return 1, "", nil // the run itself reports a relay it cannot reach or read
	}
	if rtt >= localRTT && measured != nil {
		measured()
	}
	if rtt < localRTT {
		n, why := localParallel()
		return n, fmt.Sprintf("round trip %s (the median of %d reads): a relay on this machine; %s", rtt.Round(time.Microsecond), 7, why), nil
	}
	// The growth's reads (a REQ and its EOSE: one whole round trip) also
	// decide a far link: behind a tunnel or port forward the TCP handshake
	// is local, and the round trip above can read half the link's.
	g := newGrowth(ctx, u, step)
	n := parallelWorkers
	why := fmt.Sprintf("round trip %s (the median of 7 reads)", rtt.Round(time.Millisecond))
	if g != nil && g.baseline >= farRTT && rtt < farRTT {
		why += fmt.Sprintf(", a read %s", g.baseline.Round(time.Millisecond))
	}
	if rtt >= farRTT || (g != nil && g.baseline >= farRTT) {
		n = farWorkers
	}
	why += fmt.Sprintf(": up to %d workers", n)
	ictx, cancel := context.WithTimeout(ctx, step)
	defer cancel()
	if info, err := fixtures.FetchInfo(ictx, u, ""); err == nil && info.Limitation != nil && info.Limitation.MaxSubscriptions > 0 && info.Limitation.MaxSubscriptions < n {
		n = info.Limitation.MaxSubscriptions
		why += fmt.Sprintf(", capped at the relay's limitation.max_subscriptions %d", n)
	}
	if n <= growFrom {
		g.release()
		return n, why, nil
	}
	if g != nil {
		why += ", " + g.plan(n)
	}
	return n, why, g
}

// localParallel is the worker count for a relay on this machine reached
// by URL: one process. Its round trips cost nothing, but the cases still
// wait (on the relay's clock, on settle windows), so workers would overlap
// those waits, as they do for the built-in relay (referenceWorkers); a
// relay other than ours may order concurrent writes in ways its own
// ordering cases do not expect of a single client, so the count stays 1
// for it.
func localParallel() (int, string) {
	return 1, "run in one process"
}

// localRTT separates a relay on this machine from one across a network;
// parallelWorkers is the most workers a remote run gets by default, and
// farWorkers the most it gets from farRTT on (an intercontinental link:
// each case waits longer on round trips, so more of them are in flight).
// A run reaches them only while the relay keeps up (growth): with all 40
// at once, a served relay on a loaded CI machine timed out
// identity/label-sweep/1 (552 events at once), the harness's own load
// judged as the relay's. Measured in BENCHMARKS.md ("Remote runs").
const (
	localRTT        = 2 * time.Millisecond
	parallelWorkers = 40
	farRTT          = 100 * time.Millisecond
	farWorkers      = 48
)

// run starts the relays, the queue and the workers, then merges what the
// workers report into one set of reports in reportDir (the JUnit file at
// junitPath when set, as without --parallel). It returns the merged
// results; cases a worker claimed but never reported (it crashed) are
// harness errors there.
func (pr *parallelRun) run(ctx context.Context, started []workerPlan) (*reports.Results, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--parallel: find own executable: %w", err)
	}
	queue := &claimQueue{claimed: map[[2]string]int{}}
	if pr.rate > 0 {
		queue.pacer = pace.New(pr.rate)
	}
	// ginkgo.log, as in a run in one process, shows the run under way: a
	// line per finished case (each worker's own Ginkgo log is in its
	// worker-N directory).
	if err := os.MkdirAll(pr.reportDir, 0o755); err != nil {
		return nil, fmt.Errorf("--parallel: report directory: %w", err)
	}
	clearWorkerDirs(pr.reportDir)
	logFile, err := os.Create(filepath.Join(pr.reportDir, "ginkgo.log"))
	if err != nil {
		return nil, fmt.Errorf("--parallel: %w", err)
	}
	defer logFile.Close()
	queue.log = logFile
	if pr.progress != nil {
		queue.progress = func(done, failed int, last string) {
			pr.printMu.Lock()
			defer pr.printMu.Unlock()
			fmt.Fprintf(pr.progress, "\r\033[K[%d done, %d workers] %d not passing  %s", done, pr.workers.Load(), failed, last)
		}
		defer fmt.Fprintln(pr.progress)
	} else if pr.out != nil {
		// Without a terminal (a CI log): a line every few seconds.
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			tick := time.NewTicker(runner.ProgressEvery)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					queue.mu.Lock()
					done, failed := queue.done, queue.failed
					queue.mu.Unlock()
					pr.printMu.Lock()
					said := pr.saidDeadline
					pr.printMu.Unlock()
					// The run's first line is its deadline (or the
					// warning that --deadline is short): no heartbeat
					// before it, nor before the first case ends, however
					// long a loaded machine takes to start the workers.
					if done == 0 && !said {
						continue
					}
					pr.say(fmt.Sprintf("progress: %d cases done, %d not passing so far (%d workers)", done, failed, pr.workers.Load()))
				case <-stop:
					return
				}
			}
		}()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("--parallel: case queue: %w", err)
	}
	srv := &http.Server{Handler: queue, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	claimURL := "http://" + ln.Addr().String() + "/claim"

	if ctx.Err() != nil {
		return nil, errStoppedBeforeWorkers
	}
	base := childArgs(pr.fs)
	// Each worker keeps the run's deadline (--deadline from the run's
	// start, or derived from the plan); this process gives them a little
	// longer to write reports.
	cancel := context.CancelFunc(func() {})
	if pr.started.IsZero() {
		pr.started = time.Now()
	}
	if pr.deadline > 0 {
		ctx, cancel = context.WithDeadlineCause(ctx, pr.started.Add(pr.deadline+30*time.Second), runner.StopByDeadline(pr.deadline))
	}
	defer cancel()
	parts := make([]*reports.Results, pr.n)
	errs := make([]error, pr.n)
	var wg sync.WaitGroup
	// finished is closed when the first worker ends (every case is then
	// taken, or the workers fail): no worker is added after it.
	finished := make(chan struct{})
	var finishOnce sync.Once
	spawn := func(i int) {
		pr.workers.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer finishOnce.Do(func() { close(finished) })
			spec, _ := json.Marshal(workerSpec{ClaimURL: claimURL, Worker: i + 1, Plans: workerShare(started, i+1), Started: pr.started})
			dir := filepath.Join(pr.reportDir, fmt.Sprintf("worker-%d", i+1))
			args := append([]string{"run"}, base...)
			args = append(args, "--report-dir", dir, "--run-id", pr.runID)
			cmd := exec.CommandContext(ctx, exe, args...)
			cmd.Env = workerEnviron(os.Environ(), spec)
			// Interrupted or out of time: a worker is asked to stop the
			// way a user would ask, and writes what it has.
			cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
			cmd.WaitDelay = 10 * time.Second
			out := &lineWriter{each: pr.workerLine}
			cmd.Stdout, cmd.Stderr = out, out
			runErr := cmd.Run()
			r, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
			if err != nil {
				errs[i] = fmt.Errorf("worker %d produced no results (%v): %s", i+1, runErr, tailJoined(out.String(), 5))
				return
			}
			parts[i] = r
		}()
	}
	if pr.grow != nil {
		pr.grow.started = queue.askedBy
	}
	spawned := pr.grow.start(pr.n)
	for i := 0; i < spawned; i++ {
		spawn(i)
	}
	grew := ""
	if spawned < pr.n {
		// The growth is one more party to wait for: no worker is added
		// once wg.Wait has returned.
		wg.Add(1)
		go func() {
			defer wg.Done()
			spawned, grew = pr.grow.run(ctx, spawned, pr.n, spawn, finished)
			pr.say(fmt.Sprintf("workers: %d of at most %d (%s)", spawned, pr.n, grew))
		}()
	}
	wg.Wait()
	parts, errs = parts[:spawned], errs[:spawned]
	claims := queue.claims()
	keepClaimed(parts, claims)
	var got []*reports.Results
	for i, p := range parts {
		if errs[i] != nil {
			fmt.Fprintf(pr.stderr, "nipcl-conform: %v\n", errs[i])
			continue
		}
		got = append(got, p)
	}
	if len(got) == 0 && stoppedBy(ctx) != "" {
		return nil, errStoppedBeforeWorkers
	}
	if len(got) == 0 {
		return nil, fmt.Errorf("--parallel: none of the %d workers produced results", spawned)
	}
	merged, err := reports.Merge(got...)
	if err != nil {
		return nil, err
	}
	addUnreported(merged, claims, errs, stoppedBy(ctx))
	if by := stoppedBy(ctx); by != "" {
		// The workers were stopped by this process (with SIGINT): what
		// stopped this process is what stopped the run.
		merged.StoppedBy = by
	}
	merged.Settings["parallel"] = strconv.Itoa(spawned)
	if grew != "" {
		merged.Settings["parallel_growth"] = fmt.Sprintf("%d of at most %d: %s", spawned, pr.n, grew)
	}
	merged.Settings["scheduling"] = "queue, longest cases first"
	merged.Sort()
	return merged, runner.WriteReports(pr.reportDir, pr.junitPath, merged)
}

// workerReportFiles are the files a worker-N directory may hold: what a
// worker writes (results.json, ginkgo.log) and what workers of earlier
// versions wrote besides.
var workerReportFiles = []string{"results.json", "ginkgo.log", "junit.xml", "summary.md", "report.html", "badge.svg"}

// clearWorkerDirs removes the worker-N directories an earlier run left in
// the report directory this run now claims: a run with 4 workers after one
// with 40 would otherwise leave worker-5 to worker-40 beside its own, each
// with another run's results. Only the report files are removed, and a
// directory only once empty: nothing else put there is lost.
func clearWorkerDirs(reportDir string) {
	entries, err := os.ReadDir(reportDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n, ok := strings.CutPrefix(e.Name(), "worker-")
		if !ok || !e.IsDir() {
			continue
		}
		if _, err := strconv.Atoi(n); err != nil {
			continue
		}
		dir := filepath.Join(reportDir, e.Name())
		for _, f := range workerReportFiles {
			_ = os.Remove(filepath.Join(dir, f))
		}
		_ = os.Remove(dir) // fails, and keeps it, when anything else is there
	}
}

// workerEnviron is a worker's environment: this process's, its share of
// the run (workerEnv) and, unless the user set GOMAXPROCS, one processor.
// A worker mostly waits on the relay; with a processor per core its idle
// ones spin looking for work, and with 4 workers beside the built-in
// relay on 2 cores that spinning cost about a CPU-second of 15 and a
// second of the run's 9 (BENCHMARKS.md, "Fifth round").
func workerEnviron(environ []string, spec []byte) []string {
	env := append(slices.Clip(environ), workerEnv+"="+string(spec))
	for _, kv := range environ {
		if strings.HasPrefix(kv, "GOMAXPROCS=") {
			return env
		}
	}
	return append(env, "GOMAXPROCS=1")
}

// workerShare is the plans as worker w gets them: the probe's groups it
// deleted (or could not) are reported by worker 1 only, since the merged
// report adds up the workers' clean-up counts.
func workerShare(started []workerPlan, w int) []workerPlan {
	if w == 1 {
		return started
	}
	out := slices.Clone(started)
	for i, p := range out {
		if p.Findings != nil {
			f := *p.Findings
			f.Deleted, f.Undeleted = 0, nil
			out[i].Findings = &f
		}
	}
	return out
}

// errStoppedBeforeWorkers is a parallel run stopped (an interrupt, a
// cancel) before any worker could report: the caller reports every case
// not run, as a run in one process stopped before its cases does.
var errStoppedBeforeWorkers = errors.New("--parallel: stopped before the workers reported")

// keepClaimed leaves in each worker's results (parts[i] is worker i+1's)
// the cases that worker claimed, and once, in the first worker that has
// it, each case nobody claimed: a run that stopped early (its deadline, an
// interrupt) reports those as not run in every worker.
func keepClaimed(parts []*reports.Results, claims []claim) {
	owner := map[[2]string]int{}
	for _, c := range claims {
		owner[[2]string{c.plan, c.caseID}] = c.worker
	}
	kept := map[[2]string]bool{}
	for i, p := range parts {
		if p == nil {
			continue
		}
		var cases []reports.CaseResult
		for _, c := range p.Cases {
			key := [2]string{c.Plan, c.ID}
			w, claimed := owner[key]
			if (claimed && w == i+1) || (!claimed && !kept[key]) {
				kept[key] = true
				cases = append(cases, c)
			}
		}
		p.Cases = cases
	}
}

// addUnreported adds a harness-error result for every case a worker
// claimed but did not report (the worker died running it).
func addUnreported(res *reports.Results, claims []claim, errs []error, stopped string) {
	have := map[[2]string]bool{}
	for _, c := range res.Cases {
		have[[2]string{c.Plan, c.ID}] = true
	}
	for _, cl := range claims {
		if have[[2]string{cl.plan, cl.caseID}] {
			continue
		}
		c, ok := suites.Lookup(cl.caseID)
		if !ok {
			continue
		}
		why := "the worker process running it ended without reporting it"
		if i := cl.worker - 1; i >= 0 && i < len(errs) && errs[i] != nil {
			why += ": " + errs[i].Error()
		}
		r := runner.UnreportedCase(cl.plan, c, why)
		if stopped != "" {
			// The run was stopped while the worker ran it: the stop, not
			// the worker, ended the case.
			r.Outcome, r.Message = reports.NotRun, "not run to the end: the run was stopped by "+stopped+" while this case ran"
		}
		res.Cases = append(res.Cases, r)
	}
}

// stoppedBy says what stopped a parallel run's context ("" = nothing).
func stoppedBy(ctx context.Context) string {
	var s *runner.Stop
	if errors.As(context.Cause(ctx), &s) {
		return s.By
	}
	return ""
}

// tailJoined returns the last n non-blank lines of s (text.LastLines), each trimmed, joined
// by " | ".
func tailJoined(s string, n int) string {
	lines := text.LastLines(s, n)
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " | ")
}
