package chaos

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// step is each client step's deadline: short, since most modes are
// checked by the timeouts they cause.
const step = 300 * time.Millisecond

// oversizeStep is the oversize mode's: its check wants the connection
// ended by the read limit, which needs the proxy to build and send a frame
// of over 4 MiB first; on a loaded CI machine that took more than step.
const oversizeStep = 3 * time.Second

// probe is what a client sees of one mode.
type probe struct {
	infoErr  error
	dialErr  error
	pub      fixtures.OK
	pubErr   error
	query    fixtures.QueryResult
	queryErr error
	notices  int
}

// exercise drives a server through every client step: NIP-11, dial (with
// AUTH on connect when the mode challenges), publish, query, close.
func exercise(t *testing.T, s *Server, auth bool, extra func(c *fixtures.Client, a *fixtures.Actor)) probe {
	t.Helper()
	step := step
	if s.Mode() == Oversize {
		step = oversizeStep
	}
	var p probe
	ctx := context.Background()
	ictx, cancel := context.WithTimeout(ctx, step)
	info, err := fixtures.FetchInfo(ictx, s.URL, "")
	cancel()
	p.infoErr = err
	if err == nil && (info.Self != s.PubKey() || !info.HasExtension("nip-cl")) {
		t.Errorf("%s: NIP-11 self %q extensions %v", s.Mode(), info.Self, info.SupportedExtensions)
	}
	a := fixtures.NewActor("chaos")
	c, err := fixtures.Dial(ctx, s.URL, fixtures.DialOptions{Actor: a, StepTimeout: step, AuthOnConnect: auth})
	p.dialErr = err
	if err != nil {
		return p
	}
	defer c.Close()
	p.pub, p.pubErr = c.Publish(ctx, a.Event(1, nostr.Tags{}, "hello chaos"))
	p.query, p.queryErr = c.Query(ctx, nostr.Filter{Kinds: []int{1}, Limit: 5})
	if extra != nil {
		extra(c, a)
	}
	p.notices = len(c.Notices())
	return p
}

func is(err, target error) bool { return err != nil && errors.Is(err, target) }

// TestModes checks what a client sees of each mode and that nothing leaks:
// after the client and the server are closed, the goroutine count returns
// to its baseline.
func TestModes(t *testing.T) {
	checks := map[Mode]struct {
		auth  bool
		extra func(t *testing.T) func(c *fixtures.Client, a *fixtures.Actor)
		check func(t *testing.T, p probe)
	}{
		Silent: {check: func(t *testing.T, p probe) {
			if !is(p.infoErr, fixtures.ErrTimeout) || !is(p.dialErr, fixtures.ErrTimeout) {
				t.Errorf("want NIP-11 and dial timeouts, got %v / %v", p.infoErr, p.dialErr)
			}
		}},
		NoEOSE: {auth: true, check: func(t *testing.T, p probe) {
			if p.pubErr != nil || !p.pub.Accepted {
				t.Errorf("publish through no-eose: %v %v", p.pub, p.pubErr)
			}
			if !is(p.queryErr, fixtures.ErrTimeout) {
				t.Errorf("query: want timeout, got %v", p.queryErr)
			}
		}},
		Slow: {check: func(t *testing.T, p probe) {
			if p.dialErr != nil || !is(p.pubErr, fixtures.ErrTimeout) || !is(p.queryErr, fixtures.ErrTimeout) {
				t.Errorf("want publish and query timeouts, got %v / %v / %v", p.dialErr, p.pubErr, p.queryErr)
			}
		}},
		Garbage: {check: func(t *testing.T, p probe) {
			if p.infoErr != nil || !is(p.pubErr, fixtures.ErrTimeout) || !is(p.queryErr, fixtures.ErrTimeout) {
				t.Errorf("want publish and query timeouts, got %v / %v / %v", p.infoErr, p.pubErr, p.queryErr)
			}
		}},
		CloseMidSub: {auth: true, check: func(t *testing.T, p probe) {
			if p.pubErr != nil || !p.pub.Accepted {
				t.Errorf("publish before the first REQ: %v %v", p.pub, p.pubErr)
			}
			if !is(p.queryErr, fixtures.ErrClosed) {
				t.Errorf("query: want connection closed, got %v", p.queryErr)
			}
		}},
		WrongOKID: {check: func(t *testing.T, p probe) {
			if !is(p.pubErr, fixtures.ErrTimeout) || p.queryErr != nil {
				t.Errorf("want publish timeout and a working query, got %v / %v", p.pubErr, p.queryErr)
			}
		}},
		Oversize: {auth: true, check: func(t *testing.T, p probe) {
			if p.pubErr != nil || !is(p.queryErr, fixtures.ErrClosed) {
				t.Errorf("want publish ok and query ended by the read limit, got %v / %v", p.pubErr, p.queryErr)
			}
		}},
		BadSignatures: {auth: true,
			extra: func(t *testing.T) func(c *fixtures.Client, a *fixtures.Actor) {
				return func(c *fixtures.Client, a *fixtures.Actor) {
					spec := &fixtures.ChannelSpec{}
					ok, err := c.Publish(context.Background(), fixtures.CreateChannel(a, spec))
					if err != nil || !ok.Accepted {
						t.Errorf("create through bad-signatures: %v %v", ok, err)
						return
					}
					r, err := c.Query(context.Background(), nostr.Filter{Kinds: []int{39000}, Tags: nostr.TagMap{"d": {spec.ID}}})
					if err != nil || len(r.Events) != 1 {
						t.Errorf("query 39000: %v %v", r, err)
						return
					}
					if good, _ := r.Events[0].CheckSignature(); good {
						t.Errorf("39000 signature verifies; want it corrupted")
					}
				}
			},
			check: func(t *testing.T, p probe) {
				if p.pubErr != nil || !p.pub.Accepted || p.queryErr != nil {
					t.Errorf("plain events pass through untouched: %v %v %v", p.pub, p.pubErr, p.queryErr)
				}
			}},
		AuthRefused: {auth: true, check: func(t *testing.T, p probe) {
			if p.dialErr == nil || is(p.dialErr, fixtures.ErrTimeout) {
				t.Errorf("want AUTH refused at dial, got %v", p.dialErr)
			}
		}},
		NoticeFlood: {check: func(t *testing.T, p probe) {
			if !is(p.pubErr, fixtures.ErrTimeout) || p.notices == 0 {
				t.Errorf("want publish timeout and notices, got %v / %d notices", p.pubErr, p.notices)
			}
		}},
	}
	for _, m := range Modes {
		chk, ok := checks[m]
		if !ok {
			t.Errorf("no check for mode %s", m)
			continue
		}
		t.Run(string(m), func(t *testing.T) {
			http.DefaultClient.CloseIdleConnections()
			base := settledGoroutines()
			s, err := Start(Options{Mode: m})
			if err != nil {
				t.Fatal(err)
			}
			var extra func(c *fixtures.Client, a *fixtures.Actor)
			if chk.extra != nil {
				extra = chk.extra(t)
			}
			serving := settledGoroutines()
			p := exercise(t, s, chk.auth, extra)
			chk.check(t, p)
			// The client's goroutines end with Close, while the server still runs.
			http.DefaultClient.CloseIdleConnections()
			if n, ok := waitGoroutines(serving, 5*time.Second); !ok {
				t.Errorf("goroutines: %d with the server idle, %d after the client closed\n%s", serving, n, stacks())
			}
			s.Close()
			if n, ok := waitGoroutines(base, 5*time.Second); !ok {
				t.Errorf("goroutines: %d before, %d after the server closed\n%s", base, n, stacks())
			}
		})
	}
}

func stacks() string {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
	return buf.String()
}

// settledGoroutines returns the goroutine count once it stops changing
// (polled every 2ms, for at most 100ms).
func settledGoroutines() int {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	n := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		<-tick.C
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// waitGoroutines polls until the count is at most base or the deadline passes.
func waitGoroutines(base int, within time.Duration) (int, bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= base {
			return n, true
		}
		if time.Now().After(deadline) {
			return n, false
		}
		<-tick.C
	}
}

func TestParseMode(t *testing.T) {
	if _, err := ParseMode("nope"); !errors.Is(err, ErrUnknownMode) {
		t.Fatal(err)
	}
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Fatal(m, err)
		}
	}
}
