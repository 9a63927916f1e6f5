package main

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
)

// dropper serves NIP-11 and accepts every WebSocket upgrade, then closes
// the connection at once: a relay that crashes on every connection.
func dropper(t *testing.T) string {
	url, _ := countingDropper(t)
	return url
}

// countingDropper is dropper, with a count of the WebSocket upgrades it
// accepted.
func countingDropper(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var upgrades atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") == "" {
			w.Header().Set("Content-Type", "application/nostr+json")
			fmt.Fprint(w, `{"name":"dropper","self":"79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798","supported_nips":[1,11,29,42]}`)
			return
		}
		upgrades.Add(1)
		accept := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", base64.StdEncoding.EncodeToString(accept[:]))
		_ = buf.Flush()
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), &upgrades
}

// TestFailedSetupIsProbedOnce: without --parallel the run probes the relay
// once its worker count is chosen, and the process that then runs the
// cases reports that probe's setup error instead of probing the relay
// again (for a silent relay, a second round of step timeouts).
// Beyond what --parallel 1 does, the relay sees only the worker count's
// WebSockets.
func TestFailedSetupIsProbedOnce(t *testing.T) {
	url, upgrades := countingDropper(t)
	r := cli(t, time.Minute, "run", "--target", url, "--profile", "nip29", "--parallel", "1", "--report-dir", t.TempDir())
	if r.code != reports.ExitHarness {
		t.Fatalf("--parallel 1: exit %d, want %d\n%s", r.code, reports.ExitHarness, r.stdout)
	}
	once := upgrades.Swap(0)
	r = cli(t, time.Minute, "run", "--target", url, "--profile", "nip29", "--report-dir", t.TempDir())
	if r.code != reports.ExitHarness || !strings.Contains(r.stderr, "dropped every connection") {
		t.Fatalf("default: exit %d, want %d with the setup error\n%s%s", r.code, reports.ExitHarness, r.stdout, r.stderr)
	}
	// runner.MeasureRTT opens one WebSocket.
	if got, most := upgrades.Load(), once+1; got > most {
		t.Errorf("the default run opened %d WebSockets, want at most %d (--parallel 1's %d and the worker count's one): the setup was probed twice", got, most, once)
	}
}

// TestRelayDroppingEveryConnectionIsOneSetupError: the capability probe
// observed nothing, so the run stops with one setup error (exit 2), said
// once in each report, not as hundreds of failing cases.
func TestRelayDroppingEveryConnectionIsOneSetupError(t *testing.T) {
	dir := t.TempDir()
	r := cli(t, time.Minute, "run", "--target", dropper(t), "--profile", "nip29", "--parallel", "1", "--report-dir", dir)
	if r.code != reports.ExitHarness {
		t.Errorf("exit %d, want %d\n%s", r.code, reports.ExitHarness, r.stdout)
	}
	const want = "dropped every connection"
	if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("stderr, want one line saying %q:\n%s", want, r.stderr)
	}
	if n := strings.Count(r.stdout, want); n != 1 {
		t.Errorf("stdout says it %d times, want once:\n%s", n, r.stdout)
	}
	res, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if counts := res.Counts(); counts[reports.Fail] != 0 || counts[reports.HarnessError] != len(res.Cases) {
		t.Errorf("outcomes %v, want every case a harness error (not run), none failed", counts)
	}
	for _, f := range []string{"summary.md", "report.html"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if n := strings.Count(string(b), want); n != 1 {
			t.Errorf("%s says it %d times, want once", f, n)
		}
	}
}

// TestRelayThatFailsToStartStillGetsReports: a relay started before the
// run (here the reference relay behind a delay proxy, on a database it
// cannot open; a container that exits at once is the same) writes the
// reports with its setup error, so a CI job's artifacts say why.
func TestRelayThatFailsToStartStillGetsReports(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(t.TempDir(), "no-such-dir", "relay.db")
	r := cli(t, time.Minute, "run", "--profile", "nip29", "--db", db, "--simulate-rtt", "10ms", "--report-dir", dir)
	if r.code != reports.ExitHarness {
		t.Errorf("exit %d, want %d\n%s%s", r.code, reports.ExitHarness, r.stdout, r.stderr)
	}
	res, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("no reports: %v\nstderr: %s", err, r.stderr)
	}
	if len(res.Plans) != 1 || res.Plans[0].SetupError == "" {
		t.Errorf("plans %+v, want the setup error recorded", res.Plans)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); !strings.Contains(string(b), "setup failed") {
		t.Errorf("summary.md does not say the setup failed:\n%s", b)
	}
}
