package framework

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// barrierRelay is a loopback relay for the barrier tests: it sends an AUTH
// challenge on connect when challenge is set, answers every REQ with the
// stored events (stored) and EOSE, and delivers live (after the EOSE of the
// first REQ) the events in live.
type barrierRelay struct {
	challenge bool
	stored    []*nostr.Event
	live      []*nostr.Event
}

// loopbackRelay serves a scripted relay on loopback and returns its ws://
// URL. For each connection, conn is called once with the connection's
// send (each argument one element of a JSON array frame; conn may greet
// with it) and returns the handler of the client's frames: each frame
// that is a JSON array of two or more elements, with its verb.
func loopbackRelay(t *testing.T, conn func(send func(v ...any)) func(verb string, frame []json.RawMessage)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ws, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := req.Context()
		handle := conn(func(v ...any) {
			data, _ := json.Marshal(v)
			_ = ws.Write(ctx, websocket.MessageText, data)
		})
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var frame []json.RawMessage
			var verb string
			if json.Unmarshal(data, &frame) != nil || len(frame) < 2 {
				continue
			}
			_ = json.Unmarshal(frame[0], &verb)
			handle(verb, frame)
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// start serves r on loopback and returns its ws:// URL.
func (r barrierRelay) start(t *testing.T) string {
	t.Helper()
	return loopbackRelay(t, func(send func(v ...any)) func(string, []json.RawMessage) {
		if r.challenge {
			send("AUTH", "c")
		}
		first := true
		return func(verb string, frame []json.RawMessage) {
			if verb != "REQ" {
				return
			}
			var id string
			_ = json.Unmarshal(frame[1], &id)
			for _, ev := range r.stored {
				send("EVENT", id, ev)
			}
			send("EOSE", id)
			if first {
				first = false
				for _, ev := range r.live {
					send("EVENT", id, ev)
				}
			}
		}
	})
}

// barrierT is a T against url with a 10 s step timeout and a relay that
// has shown a 1 ms OK→state delay (a settle window at the floor).
func barrierT(t *testing.T, url string) (*T, *fixtures.Client) {
	t.Helper()
	env := &Env{StepTimeout: 10 * time.Second}
	env.defaults()
	env.Delays.Observe(time.Millisecond)
	return dialT(t, url, env, nil)
}

// dialT is a T with env against url, and a connection there as actor a
// (nil: anonymous) that never authenticates on its own.
func dialT(t *testing.T, url string, env *Env, a *fixtures.Actor) (*T, *fixtures.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{StepTimeout: env.StepTimeout, Actor: a, NoAutoAuth: true})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(c.Close)
	return newT(ctx, env, Case{}), c
}

func TestAwaitChallengeByBarrier(t *testing.T) {
	ct, c := barrierT(t, barrierRelay{}.start(t))
	start := time.Now()
	ok, why := ct.AwaitChallenge(c)
	if ok {
		t.Fatal("a relay that never challenges: AwaitChallenge reported a challenge")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the absence took %s: want a barrier and a settle window, not the 10 s step timeout", took)
	}
	for _, want := range []string{"answered EOSE", "settle window of 100ms"} {
		if !strings.Contains(why, want) {
			t.Errorf("why %q does not say %q", why, want)
		}
	}

	ct, c = barrierT(t, barrierRelay{challenge: true}.start(t))
	if ok, why := ct.AwaitChallenge(c); !ok {
		t.Fatalf("a relay that challenges on connect: no challenge seen (%s)", why)
	}
}

func TestAwaitLiveByBarrier(t *testing.T) {
	ev := fixtures.NewActor("signer").Event(39000, nostr.Tags{{"d", "g"}}, "")
	pick := func(e *nostr.Event) bool { return e.ID == ev.ID }
	confirm := nostr.Filter{IDs: []string{ev.ID}}

	// Stored, never delivered live: a stored read and a settle window.
	ct, c := barrierT(t, barrierRelay{stored: []*nostr.Event{ev}}.start(t))
	sub, err := c.Subscribe(ct.Ctx(), nostr.Filter{Kinds: []int{39000}})
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	start := time.Now()
	w := ct.AwaitLive(c, sub, pick, confirm)
	if w.Live || w.Stored != ev.ID {
		t.Fatalf("stored, not delivered live: got live %v, stored %q (err %v)", w.Live, w.Stored, w.Err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the absence took %s: want a stored read and a settle window, not the 10 s step timeout", took)
	}
	if !strings.Contains(w.Why, "after the stored read found it") {
		t.Errorf("why %q does not say what the barrier was", w.Why)
	}

	// Delivered live.
	ct, c = barrierT(t, barrierRelay{live: []*nostr.Event{ev}}.start(t))
	sub, err = c.Subscribe(ct.Ctx(), nostr.Filter{Kinds: []int{39000}})
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	if w := ct.AwaitLive(c, sub, pick, confirm); !w.Live || len(w.Seen) != 1 {
		t.Fatalf("delivered live: got live %v, seen %d (%s)", w.Live, len(w.Seen), w.Why)
	}
}

// TestEventuallyStopsOnAClosedConnection: a poll through a connection the
// relay dropped fails at once, saying so, instead of after the step
// timeout; a condition that is only unmet, or whose complaint only quotes
// the words (a relay's own message), still gets the whole timeout.
func TestEventuallyStopsOnAClosedConnection(t *testing.T) {
	ct, c := barrierT(t, barrierRelay{}.start(t))
	ct.clients = append(ct.clients, c) // as T.Connect keeps it
	ct.Env.StepTimeout = 200 * time.Millisecond
	start := time.Now()
	msg := ct.poll(func(g Gomega) {
		g.Expect("error: connection closed by the relay's policy").To(BeEmpty(), "the relay's CLOSED")
	}, "quoted")
	if took := time.Since(start); took < 200*time.Millisecond || !strings.Contains(msg, "quoted: not seen within 200ms") {
		t.Errorf("a complaint quoting the words on a live connection failed after %s with %q; want the step timeout", took, msg)
	}
	ct.Env.StepTimeout = 10 * time.Second
	c.Close()
	start = time.Now()
	msg = ct.poll(func(g Gomega) {
		_, err := c.Query(ct.Ctx(), nostr.Filter{IDs: []string{strings.Repeat("0", 64)}})
		g.Expect(err).NotTo(HaveOccurred())
	}, "the event")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the closed connection was polled for %s", took)
	}
	if !strings.Contains(msg, "the event: not seen before the connection closed") {
		t.Errorf("failure %q does not say the connection closed", msg)
	}

	ct.Env.StepTimeout = 200 * time.Millisecond
	start = time.Now()
	msg = ct.poll(func(g Gomega) { g.Expect(1).To(Equal(2), "one is not two") }, "two")
	if took := time.Since(start); took < 200*time.Millisecond || !strings.Contains(msg, "two: not seen within 200ms") || !strings.Contains(msg, "one is not two") {
		t.Errorf("an unmet condition failed after %s with %q; want the step timeout and its complaint", took, msg)
	}
}
