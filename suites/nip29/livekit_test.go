package nip29_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// catchAllBody is the page a front serves at every plain HTTP path, as
// relay29's basic-khatru example does.
const catchAllBody = "<html><body>nothing to see here, you must use a nip-29 powered client</body></html>"

// plainAnswer is how a front answers a plain HTTP request (neither a
// WebSocket upgrade nor a NIP-11 request).
type plainAnswer func(w http.ResponseWriter, r *http.Request)

var (
	// pageAnswer is a 200 text/html catch-all page.
	pageAnswer plainAnswer = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, catchAllBody)
	}
	// redirectAnswer sends every plain request to a landing page elsewhere.
	redirectAnswer plainAnswer = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://landing.example.invalid/", http.StatusFound)
	}
	// notFoundAnswer is a 404.
	notFoundAnswer plainAnswer = http.NotFound
)

// front starts an HTTP front for the relay at upstream (ws://): it proxies
// WebSocket upgrades and NIP-11 requests to the relay, and the paths under
// passThrough when it is not empty; it answers every other request with
// plain. It returns the front's ws:// URL.
func front(t *testing.T, upstream string, plain plainAnswer, passThrough string) string {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	u.Scheme = "http"
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws := strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
		nip11 := strings.Contains(r.Header.Get("Accept"), "application/nostr+json")
		through := passThrough != "" && strings.HasPrefix(r.URL.Path, passThrough)
		if ws || nip11 || through {
			proxy.ServeHTTP(w, r)
			return
		}
		plain(w, r)
	}))
	t.Cleanup(srv.Close)
	return "ws://" + strings.TrimPrefix(srv.URL, "http://")
}

// startReference starts the in-process reference relay (profile nip29)
// under policies.
func startReference(t *testing.T, policies ...string) (url, pubKey string) {
	t.Helper()
	r, err := reference.New(reference.Config{Addr: "127.0.0.1:0", Profile: framework.ProfileNIP29, Policies: policies})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	u, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	return u, r.PubKey()
}

// runLiveKit runs the base/livekit cases against each target (plan name ->
// ws:// URL) in one run (Ginkgo allows one per process) and returns their
// results by plan and ID. The relay's key comes from its NIP-11 document,
// which the fronts pass through.
func runLiveKit(t *testing.T, targets map[string]string) map[string]map[string]reports.CaseResult {
	t.Helper()
	var plans []runner.Plan
	for name, u := range targets {
		plans = append(plans, runner.Plan{Name: name, Profile: framework.ProfileNIP29, Target: &runner.URLTarget{URL: u}})
	}
	res, err := runner.Run(context.Background(), runner.Options{
		Plans:       plans,
		Focus:       []string{"base/livekit/"},
		ReportDir:   t.TempDir(),
		StepTimeout: 5 * time.Second,
		Deadline:    2 * time.Minute,
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	out := map[string]map[string]reports.CaseResult{}
	for _, p := range res.Plans {
		if p.SetupError != "" {
			t.Fatalf("plan %s: setup error: %s", p.Name, p.SetupError)
		}
	}
	for _, c := range res.Cases {
		if out[c.Plan] == nil {
			out[c.Plan] = map[string]reports.CaseResult{}
		}
		out[c.Plan][c.ID] = c
	}
	return out
}

var liveKitCases = []string{"base/livekit/1", "base/livekit/2", "base/livekit/3", "base/livekit/4"}

// TestLiveKitNeedsPositiveEvidence: a relay without AV support behind a
// front that answers every plain HTTP path with a 200 text/html page
// (relay29's basic-khatru example), a redirect or a 404 gets base/livekit/1-4
// unsupported, each saying what it saw; the page front passing the AV paths
// through to a relay that offers AV lets every case pass, so the front
// itself hides nothing.
func TestLiveKitNeedsPositiveEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the livekit cases against the reference relay behind four fronts")
	}
	noEvidence := []struct {
		plan  string
		plain plainAnswer
		seen  []string // what the unsupported message must quote
	}{
		{"catch-all page, no AV", pageAnswer, []string{"HTTP 200", "text/html", "nothing to see here"}},
		{"redirect, no AV", redirectAnswer, []string{"HTTP 302", "Location https://landing.example.invalid/"}},
		{"404, no AV", notFoundAnswer, []string{"HTTP 404"}},
	}
	const through = "AV paths passed through"
	noAV, _ := startReference(t, "no-livekit")
	av, _ := startReference(t)
	targets := map[string]string{through: front(t, av, pageAnswer, "/.well-known/nip29/livekit")}
	for _, n := range noEvidence {
		targets[n.plan] = front(t, noAV, n.plain, "")
	}
	got := runLiveKit(t, targets)
	for _, id := range liveKitCases {
		for _, n := range noEvidence {
			c, ok := got[n.plan][id]
			switch {
			case !ok:
				t.Errorf("%s: %s did not run", n.plan, id)
				continue
			case c.Outcome != reports.Unsupported:
				t.Errorf("%s: %s is %s, want unsupported (no evidence of AV support): %s", n.plan, id, c.Outcome, c.Message)
				continue
			}
			for _, s := range n.seen {
				if !strings.Contains(c.Message, s) {
					t.Errorf("%s: %s is unsupported without saying what it saw (%q): %s", n.plan, id, s, c.Message)
				}
			}
		}
		if c, ok := got[through][id]; !ok || c.Outcome != reports.Pass {
			t.Errorf("%s: %s is %s, want pass (the relay behind the front issues tokens): %s", through, id, c.Outcome, c.Message)
		}
	}
}
