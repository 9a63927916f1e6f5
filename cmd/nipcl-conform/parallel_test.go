package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/internal/pace"
	"github.com/nipcl/nipcl-conform/reports"
)

// TestClaimQueueGrantsEachCaseOnce: however many workers ask at once, a
// (plan, case) is granted to exactly one; the same case in another plan is
// a separate claim.
func TestClaimQueueGrantsEachCaseOnce(t *testing.T) {
	q := &claimQueue{claimed: map[[2]string]int{}}
	srv := httptest.NewServer(q)
	defer srv.Close()
	var mu sync.Mutex
	granted := map[string]int{}
	var wg sync.WaitGroup
	for w := 1; w <= 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			spec := &workerSpec{ClaimURL: srv.URL + "/claim", Worker: w}
			claim := spec.claimer()
			for _, plan := range []string{"labels", "identity"} {
				for _, id := range []string{"base/create/1", "labels/grammar/1", "labels/retry/2"} {
					if claim(plan, id) {
						mu.Lock()
						granted[plan+" "+id]++
						mu.Unlock()
					}
				}
			}
		}(w)
	}
	wg.Wait()
	if len(granted) != 6 {
		t.Fatalf("%d claims granted, want 6: %v", len(granted), granted)
	}
	for k, n := range granted {
		if n != 1 {
			t.Errorf("%s granted %d times", k, n)
		}
	}
	resp, err := http.Get(srv.URL + "/claim?" + url.Values{"worker": {"1"}, "plan": {"p"}, "case": {"c"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET claim: HTTP %d, want 405", resp.StatusCode)
	}
}

// TestClaimAnswersCarryTheLog: a worker learns from each answer what the
// others took, and asks again only about a case it does not know to be
// taken: worker 2, in the same order as worker 1 and behind it, asks once
// for the first of worker 1's cases and never for the other two.
func TestClaimAnswersCarryTheLog(t *testing.T) {
	q := &claimQueue{claimed: map[[2]string]int{}}
	var mu sync.Mutex
	asks := map[string]int{} // worker → requests
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asks[r.URL.Query().Get("worker")]++
		mu.Unlock()
		q.ServeHTTP(w, r)
	}))
	defer srv.Close()
	first := (&workerSpec{ClaimURL: srv.URL + "/claim", Worker: 1}).claimer()
	second := (&workerSpec{ClaimURL: srv.URL + "/claim", Worker: 2}).claimer()
	cases := []string{"labels/retry/1", "labels/retry/2\twith a tab", "labels/retry/3\nand a line"}
	for _, id := range cases {
		if !first("labels", id) {
			t.Fatalf("worker 1 was refused %s, which nobody had taken", id)
		}
	}
	if !q.askedBy(1) || q.askedBy(2) {
		t.Errorf("after worker 1's claims: askedBy(1) %v, askedBy(2) %v; want true, false", q.askedBy(1), q.askedBy(2))
	}
	for _, id := range cases {
		if second("labels", id) {
			t.Errorf("worker 2 was granted %s, which worker 1 had taken", id)
		}
	}
	if !second("labels", "labels/retry/4") {
		t.Error("worker 2 was refused a case nobody had taken")
	}
	if asks["2"] != 2 {
		t.Errorf("worker 2 sent %d claims, want 2 (one learns worker 1's three, one takes the fourth)", asks["2"])
	}
	if got := q.claims(); len(got) != 4 || got[3].worker != 2 {
		t.Errorf("claims %v, want four, the last worker 2's", got)
	}
}

// TestUnreachableQueueGrantsNothing: a worker whose parent is gone runs
// nothing rather than everything.
func TestUnreachableQueueGrantsNothing(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	if (&workerSpec{ClaimURL: u + "/claim", Worker: 1}).claimer()("labels", "labels/grammar/1") {
		t.Error("a claim was granted by a queue that is gone")
	}
}

// TestUnreportedClaimsAreHarnessErrors: a case a worker took and never
// reported (the worker died) is a harness error naming why, never missing.
func TestUnreportedClaimsAreHarnessErrors(t *testing.T) {
	res := &reports.Results{Cases: []reports.CaseResult{{ID: "labels/grammar/1", Plan: "labels", Outcome: reports.Pass}}}
	claims := []claim{{"labels", "labels/grammar/1", 1}, {"labels", "labels/grammar/2", 2}}
	addUnreported(res, claims, []error{nil, errTest("worker 2/2 produced no results: killed")}, "")
	if len(res.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(res.Cases))
	}
	c := res.Cases[1]
	if c.ID != "labels/grammar/2" || c.Outcome != reports.HarnessError || !strings.Contains(c.Message, "killed") {
		t.Errorf("unreported case: %+v", c)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

// TestRateIsGlobalAcrossWorkers: the workers of a parallel run wait for
// one pacer, their parent's, so --rate holds for the run as a whole: 4
// workers writing 5 times each at 20 writes/s take about a second, not a
// quarter of it.
//
// The property is counted, never timed per slot: the pacer grants its k-th
// slot no earlier than k intervals after the first, so by any moment t a
// worker has seen at most 1 + t·rate grants. Load on the machine only
// delays a grant reaching its worker, which can bunch two observed slots
// together but can never make the k-th earlier: the count holds however
// loaded the machine is, while per-worker pacing (4 grants at once) breaks
// it from the first slots.
func TestRateIsGlobalAcrossWorkers(t *testing.T) {
	const rate, workers, writes = 20.0, 4, 5
	interval := time.Duration(float64(time.Second) / rate)
	q := &claimQueue{claimed: map[[2]string]int{}, pacer: pace.New(rate)}
	srv := httptest.NewServer(q)
	defer srv.Close()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var slots []time.Duration
	for w := 1; w <= workers; w++ {
		wait := (&workerSpec{ClaimURL: srv.URL + "/claim", Worker: w}).pacer()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < writes; i++ {
				if err := wait(context.Background()); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				slots = append(slots, time.Since(start))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(slots) != workers*writes {
		t.Fatalf("%d writes granted, want %d", len(slots), workers*writes)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i] < slots[j] })
	// Grant k (from 0) comes k intervals after the first at the earliest,
	// and the first comes after start.
	for k, at := range slots {
		if early := time.Duration(k) * interval; at < early {
			t.Errorf("write %d of %d granted %s after start, before %s: %d writes in %s is above %g/s for the run (the rate is per worker)",
				k+1, len(slots), at.Round(time.Millisecond), early, k+1, at.Round(time.Millisecond), rate)
			break
		}
	}
}

// TestWorkerEnvironOneProcessor: a worker gets one processor unless the
// user chose GOMAXPROCS, which it keeps; its share of the run is always
// there, and the parent's environment is not written to.
func TestWorkerEnvironOneProcessor(t *testing.T) {
	parent := make([]string, 1, 4)
	parent[0] = "HOME=/root"
	env := workerEnviron(parent, []byte(`{"worker":1}`))
	want := []string{"HOME=/root", workerEnv + `={"worker":1}`, "GOMAXPROCS=1"}
	if strings.Join(env, "|") != strings.Join(want, "|") {
		t.Errorf("worker environment %q, want %q", env, want)
	}
	if got := parent[:2][1]; got != "" {
		t.Errorf("the parent's environment slice was written to: %q", got)
	}
	env = workerEnviron([]string{"GOMAXPROCS=2"}, []byte(`{}`))
	if strings.Join(env, "|") != "GOMAXPROCS=2|"+workerEnv+"={}" {
		t.Errorf("with the user's GOMAXPROCS: %q", env)
	}
}

// TestStaleWorkerDirsAreCleared: a parallel run removes the worker-N
// report files an earlier run left in its report directory, and the
// directories once empty; anything else there stays.
func TestStaleWorkerDirsAreCleared(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"worker-40/results.json", "worker-40/ginkgo.log", "worker-2/report.html", "worker-2/notes.txt", "worker-x/results.json", "results.json"} {
		write(f)
	}
	clearWorkerDirs(dir)
	for f, want := range map[string]bool{"worker-40": false, "worker-2/report.html": false, "worker-2/notes.txt": true, "worker-x/results.json": true, "results.json": true} {
		_, err := os.Stat(filepath.Join(dir, f))
		if got := err == nil; got != want {
			t.Errorf("%s exists: %v, want %v", f, got, want)
		}
	}
}
