package reference

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nbd-wtf/go-nostr"
)

const waitTimeout = 5 * time.Second

// actor is one test key.
type actor struct{ sk, pk string }

func newActor(t *testing.T) actor {
	t.Helper()
	sk := nostr.GeneratePrivateKey()
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	return actor{sk, pk}
}

// event builds and signs an event created now (plus offset seconds). An
// empty content gets a nonce so two otherwise equal commands never share an id.
func (a actor) event(t *testing.T, kind int, tags nostr.Tags, content string, offset int64) *nostr.Event {
	t.Helper()
	if content == "" {
		content = "nonce-" + uuid.NewString()
	}
	ev := &nostr.Event{Kind: kind, Tags: tags, Content: content, CreatedAt: nostr.Timestamp(time.Now().Unix() + offset)}
	if ev.Tags == nil {
		ev.Tags = nostr.Tags{}
	}
	if err := ev.Sign(a.sk); err != nil {
		t.Fatal(err)
	}
	return ev
}

// startRelay starts a relay and closes it at test end.
func startRelay(t *testing.T, cfg Config) (*Relay, string) {
	t.Helper()
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	url, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return r, url
}

// client is a test WebSocket client on go-nostr's Connection; a background
// goroutine parses every frame into envs.
type client struct {
	t         *testing.T
	conn      *nostr.Connection
	envs      chan nostr.Envelope
	done      chan struct{} // closed when the read loop ends
	challenge string
	once      sync.Once
}

func dial(t *testing.T, url string) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	conn, err := nostr.NewConnection(ctx, url, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, conn: conn, envs: make(chan nostr.Envelope, 10000), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		parser := nostr.NewMessageParser()
		for {
			var buf bytes.Buffer
			if err := conn.ReadMessage(context.Background(), &buf); err != nil {
				return
			}
			env, err := parser.ParseMessage(buf.String())
			if err != nil {
				t.Logf("client: unparsable frame %q: %v", buf.String(), err)
				continue
			}
			c.envs <- env
		}
	}()
	t.Cleanup(c.close)
	// The relay greets with ["AUTH", challenge].
	env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.AuthEnvelope); return ok })
	c.challenge = *env.(*nostr.AuthEnvelope).Challenge
	return c
}

func (c *client) close() { c.once.Do(func() { _ = c.conn.Close() }) }

func (c *client) sendRaw(s string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := c.conn.WriteMessage(ctx, []byte(s)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) send(env nostr.Envelope) {
	c.t.Helper()
	b, err := env.MarshalJSON()
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(b))
}

var errClosed = errors.New("connection closed")

// next returns the next envelope matching pred, skipping others.
func (c *client) next(pred func(nostr.Envelope) bool) (nostr.Envelope, error) {
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		select {
		case env := <-c.envs:
			if pred(env) {
				return env, nil
			}
		case <-c.done:
			// drain what arrived before the close
			select {
			case env := <-c.envs:
				if pred(env) {
					return env, nil
				}
				continue
			default:
			}
			return nil, errClosed
		case <-deadline.C:
			return nil, errors.New("timeout")
		}
	}
}

func (c *client) expect(pred func(nostr.Envelope) bool) nostr.Envelope {
	c.t.Helper()
	env, err := c.next(pred)
	if err != nil {
		c.t.Fatalf("waiting for envelope: %v", err)
	}
	return env
}

func (c *client) auth(a actor) {
	c.t.Helper()
	ok := c.authResult(a, c.challenge, 0)
	if !ok.OK {
		c.t.Fatalf("AUTH as %s refused: %s", a.pk[:8], ok.Reason)
	}
}

func (c *client) authResult(a actor, challenge string, offset int64) *nostr.OKEnvelope {
	c.t.Helper()
	ev := a.event(c.t, nostr.KindClientAuthentication, nostr.Tags{{"relay", "ws://localhost"}, {"challenge", challenge}}, "", offset)
	c.send(&nostr.AuthEnvelope{Event: *ev})
	return c.okFor(ev.ID)
}

func (c *client) okFor(id string) *nostr.OKEnvelope {
	c.t.Helper()
	return c.expect(func(e nostr.Envelope) bool {
		ok, is := e.(*nostr.OKEnvelope)
		return is && ok.EventID == id
	}).(*nostr.OKEnvelope)
}

// publish sends EVENT and returns the OK.
func (c *client) publish(ev *nostr.Event) *nostr.OKEnvelope {
	c.t.Helper()
	c.send(&nostr.EventEnvelope{Event: *ev})
	return c.okFor(ev.ID)
}

// mustPublish requires OK true.
func (c *client) mustPublish(ev *nostr.Event) {
	c.t.Helper()
	if ok := c.publish(ev); !ok.OK {
		c.t.Fatalf("kind %d refused: %s", ev.Kind, ok.Reason)
	}
}

// req subscribes and returns the stored events (until EOSE).
func (c *client) req(subID string, filters ...nostr.Filter) []nostr.Event {
	c.t.Helper()
	c.send(&nostr.ReqEnvelope{SubscriptionID: subID, Filters: filters})
	var out []nostr.Event
	for {
		env := c.expect(func(e nostr.Envelope) bool {
			switch v := e.(type) {
			case *nostr.EventEnvelope:
				return v.SubscriptionID != nil && *v.SubscriptionID == subID
			case *nostr.EOSEEnvelope:
				return string(*v) == subID
			case *nostr.ClosedEnvelope:
				return v.SubscriptionID == subID
			}
			return false
		})
		switch v := env.(type) {
		case *nostr.EventEnvelope:
			out = append(out, v.Event)
		case *nostr.ClosedEnvelope:
			c.t.Fatalf("subscription %s closed: %s", subID, v.Reason)
		default:
			return out
		}
	}
}

// query is req followed by CLOSE.
func (c *client) query(filters ...nostr.Filter) []nostr.Event {
	c.t.Helper()
	id := "q-" + uuid.NewString()[:8]
	evs := c.req(id, filters...)
	c.send(ptr(nostr.CloseEnvelope(id)))
	return evs
}

func (c *client) count(filters ...nostr.Filter) int64 {
	c.t.Helper()
	id := "c-" + uuid.NewString()[:8]
	// CountEnvelope carries one filter; build the frame by hand for several.
	frame := `["COUNT",` + quote(id)
	for _, f := range filters {
		b, _ := f.MarshalJSON()
		frame += "," + string(b)
	}
	c.sendRaw(frame + "]")
	env := c.expect(func(e nostr.Envelope) bool {
		switch v := e.(type) {
		case *nostr.CountEnvelope:
			return v.SubscriptionID == id
		case *nostr.ClosedEnvelope:
			return v.SubscriptionID == id
		}
		return false
	})
	ce, ok := env.(*nostr.CountEnvelope)
	if !ok || ce.Count == nil {
		c.t.Fatalf("COUNT refused: %v", env)
	}
	return *ce.Count
}

// live waits for an EVENT on subID matching pred.
func (c *client) live(subID string, pred func(*nostr.Event) bool) (*nostr.Event, error) {
	env, err := c.next(func(e nostr.Envelope) bool {
		v, ok := e.(*nostr.EventEnvelope)
		return ok && v.SubscriptionID != nil && *v.SubscriptionID == subID && pred(&v.Event)
	})
	if err != nil {
		return nil, err
	}
	ev := env.(*nostr.EventEnvelope).Event
	return &ev, nil
}

func ptr[T any](v T) *T { return &v }

func quote(s string) string {
	b, _ := nostr.NoticeEnvelope(s).MarshalJSON() // ["NOTICE","..."]
	return string(b[len(`["NOTICE",`) : len(b)-1])
}

// --- NIP-29 builders --------------------------------------------------------

func newChannelID() string { return uuid.NewString() }

func (a actor) create(t *testing.T, id string, extra ...nostr.Tag) *nostr.Event {
	tags := nostr.Tags{{"h", id}, {"name", "chan-" + id[:8]}}
	tags = append(tags, extra...)
	return a.event(t, kindCreateGroup, tags, "", 0)
}

func (a actor) put(t *testing.T, id, pk, role string) *nostr.Event {
	p := nostr.Tag{"p", pk}
	if role != "" {
		p = append(p, role)
	}
	return a.event(t, kindPutUser, nostr.Tags{{"h", id}, p}, "", 0)
}

func (a actor) remove(t *testing.T, id, pk string) *nostr.Event {
	return a.event(t, kindRemoveUser, nostr.Tags{{"h", id}, {"p", pk}}, "", 0)
}

func (a actor) edit(t *testing.T, id string, tags ...nostr.Tag) *nostr.Event {
	return a.event(t, kindEditMetadata, append(nostr.Tags{{"h", id}}, tags...), "", 0)
}

func (a actor) msg(t *testing.T, id, content string, offset int64) *nostr.Event {
	return a.event(t, kindChatMessage, nostr.Tags{{"h", id}}, content, offset)
}

// state returns the stored state event of kind for channel id.
func (c *client) state(kind int, id string) *nostr.Event {
	c.t.Helper()
	evs := c.query(nostr.Filter{Kinds: []int{kind}, Tags: nostr.TagMap{"d": {id}}})
	if len(evs) > 1 {
		c.t.Fatalf("%d state events of kind %d for %s", len(evs), kind, id)
	}
	if len(evs) == 0 {
		return nil
	}
	return &evs[0]
}

func hasPTag(ev *nostr.Event, pk, role string) bool {
	for _, tag := range ev.Tags {
		if len(tag) >= 3 && tag[0] == "p" && tag[1] == pk && tag[2] == role {
			return true
		}
	}
	return false
}
