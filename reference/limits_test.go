package reference

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

func fetchLimitation(t *testing.T, url string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, strings.Replace(url, "ws://", "http://", 1), nil)
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Limitation map[string]any `json:"limitation"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc.Limitation
}

func TestLimitsAdvertised(t *testing.T) {
	_, url := startRelay(t, Config{MaxMessageSize: 100_000, MaxSubscriptions: 3, MaxFilters: 2, MaxLimit: 50, EventsPerSecond: 4})
	lim := fetchLimitation(t, url)
	want := map[string]float64{"max_message_length": 100_000, "max_subscriptions": 3, "max_filters": 2, "max_limit": 50, "events_per_second": 4}
	for k, v := range want {
		if lim[k] != v {
			t.Errorf("limitation.%s = %v, want %v", k, lim[k], v)
		}
	}
	// Defaults: no rate advertised (unlimited).
	_, url = startRelay(t, Config{})
	lim = fetchLimitation(t, url)
	if _, ok := lim["events_per_second"]; ok {
		t.Errorf("default relay advertises a rate: %v", lim)
	}
	if lim["max_subscriptions"] != float64(MaxSubscriptions) || lim["max_filters"] != float64(MaxFilters) {
		t.Errorf("default limitation %v", lim)
	}
}

func TestLimitsEnforced(t *testing.T) {
	_, url := startRelay(t, Config{MaxSubscriptions: 2, MaxFilters: 2, MaxLimit: 3, MaxMessageSize: 4096})
	c := dial(t, url)
	a := newActor(t)
	c.auth(a)
	for i := 0; i < 5; i++ {
		c.mustPublish(a.event(t, 1, nostr.Tags{}, fmt.Sprintf("note %d", i), int64(-i)))
	}
	// max limit: a larger limit is cut to 3.
	if got := c.query(nostr.Filter{Authors: []string{a.pk}, Limit: 100}); len(got) != 3 {
		t.Errorf("limit 100 with max_limit 3 returned %d events", len(got))
	}
	// filters per REQ: 3 filters are refused with CLOSED.
	f := nostr.Filter{Authors: []string{a.pk}}
	c.sendRaw(`["REQ","three",` + mustJSON(f) + `,` + mustJSON(f) + `,` + mustJSON(f) + `]`)
	cl := c.expect(func(e nostr.Envelope) bool {
		v, ok := e.(*nostr.ClosedEnvelope)
		return ok && v.SubscriptionID == "three"
	})
	if r := cl.(*nostr.ClosedEnvelope).Reason; !strings.Contains(r, "too many filters") {
		t.Errorf("3 filters: CLOSED %q", r)
	}
	// subscriptions per connection: the third open one is refused.
	c.req("s1", f)
	c.req("s2", f)
	c.send(&nostr.ReqEnvelope{SubscriptionID: "s3", Filters: nostr.Filters{f}})
	cl = c.expect(func(e nostr.Envelope) bool { v, ok := e.(*nostr.ClosedEnvelope); return ok && v.SubscriptionID == "s3" })
	if r := cl.(*nostr.ClosedEnvelope).Reason; !strings.HasPrefix(r, "restricted: too many subscriptions") {
		t.Errorf("third subscription: CLOSED %q", r)
	}
	// message size: a frame above the limit ends the connection.
	c.sendRaw(`["REQ","big",{"search":"` + strings.Repeat("x", 5000) + `"}]`)
	if _, err := c.next(func(nostr.Envelope) bool { return false }); err != errClosed {
		t.Errorf("oversized frame: connection still open (%v)", err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRateLimit(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	_, url := startRelay(t, Config{EventsPerSecond: 2, EventBurst: 3, Now: clock})
	c := dial(t, url)
	a, b := newActor(t), newActor(t)
	c.authResultAt(a, now)
	c.authResultAt(b, now)
	ev := func(who actor, i int) *nostr.Event {
		e := &nostr.Event{Kind: 1, Tags: nostr.Tags{}, Content: fmt.Sprint("n", i), CreatedAt: nostr.Timestamp(now.Unix())}
		_ = e.Sign(who.sk)
		return e
	}
	for i := 0; i < 3; i++ { // the burst
		c.mustPublish(ev(a, i))
	}
	ok := c.publish(ev(a, 3))
	if ok.OK || !strings.HasPrefix(ok.Reason, "rate-limited:") {
		t.Fatalf("4th event in the same second: %v %q", ok.OK, ok.Reason)
	}
	c.mustPublish(ev(b, 0)) // per key: another key is unaffected
}

// authResultAt authenticates with an AUTH event created at the relay's clock.
func (c *client) authResultAt(a actor, now time.Time) {
	c.t.Helper()
	ev := &nostr.Event{Kind: nostr.KindClientAuthentication, CreatedAt: nostr.Timestamp(now.Unix()),
		Tags: nostr.Tags{{"relay", "ws://localhost"}, {"challenge", c.challenge}}}
	_ = ev.Sign(a.sk)
	c.send(&nostr.AuthEnvelope{Event: *ev})
	if ok := c.okFor(ev.ID); !ok.OK {
		c.t.Fatalf("AUTH refused: %s", ok.Reason)
	}
}

func TestRateLimiterRefills(t *testing.T) {
	now := time.Unix(0, 0)
	l := newRateLimiter(2, 2, func() time.Time { return now })
	first, second, third := l.allow("k"), l.allow("k"), l.allow("k") // each call takes a token
	if !first || !second || third {
		t.Fatal("burst of 2")
	}
	now = now.Add(500 * time.Millisecond) // one token back
	if !l.allow("k") || l.allow("k") {
		t.Fatal("refill after 0.5s at 2/s")
	}
	if newRateLimiter(0, 0, time.Now) != nil || !(*rateLimiter)(nil).allow("x") {
		t.Fatal("zero rate must be unlimited")
	}
}

// TestFileDBDurableAgainstProcessKill: a file database runs in WAL mode with
// synchronous=NORMAL on every pooled connection. A commit is then in the WAL
// file (the OS page cache) before the relay answers OK, which survives a
// process kill (not a power loss). robustness.TestCrashDurability checks it
// end to end with SIGKILL.
func TestFileDBDurableAgainstProcessKill(t *testing.T) {
	r, _ := startRelay(t, Config{DBPath: t.TempDir() + "/relay.db"})
	ctx := context.Background()
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for i := 0; i < 3; i++ { // hold several so each is a distinct pooled connection
		c, err := r.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var mode string
		var sync int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || sync != 1 {
			t.Errorf("connection %d: journal_mode %q synchronous %d, want wal and 1 (NORMAL)", i, mode, sync)
		}
	}
}
