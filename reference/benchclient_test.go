package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// benchConn is a minimal WebSocket client for benchmarks: no background
// reader, no transcript; every call reads frames until its own answer. It
// works with any testing.TB (the test helpers in helpers_test.go take
// *testing.T).
type benchConn struct {
	ws  *websocket.Conn
	sk  string // key it authenticated with
	pk  string
	seq atomic.Int64
	// pending is a frame read ahead and put back for the next read
	pending []byte
}

const benchStep = 30 * time.Second

// benchKey returns a fresh secret/public key pair.
func benchKey(tb testing.TB) (sk, pk string) {
	tb.Helper()
	sk = nostr.GeneratePrivateKey()
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		tb.Fatal(err)
	}
	return sk, pk
}

// benchDial connects and authenticates as sk (NIP-42).
func benchDial(tb testing.TB, url, sk string) *benchConn {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), benchStep)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	pk, _ := nostr.GetPublicKey(sk)
	c := &benchConn{ws: ws, sk: sk, pk: pk}
	tb.Cleanup(func() { _ = ws.CloseNow() })
	var challenge string
	for challenge == "" {
		arr, err := c.read()
		if err != nil {
			tb.Fatalf("waiting for AUTH challenge: %v", err)
		}
		if frameVerb(arr) == "AUTH" {
			_ = json.Unmarshal(arr[1], &challenge)
		}
	}
	ev := benchSign(tb, sk, nostr.KindClientAuthentication, nostr.Tags{{"relay", url}, {"challenge", challenge}}, "")
	b, _ := (&nostr.AuthEnvelope{Event: *ev}).MarshalJSON()
	if err := c.write(b); err != nil {
		tb.Fatal(err)
	}
	if ok, reason, err := c.waitOK(ev.ID); err != nil || !ok {
		tb.Fatalf("AUTH refused: %q %v", reason, err)
	}
	return c
}

// benchSign builds and signs an event created now; an empty content gets a
// nonce so equal commands never share an id.
func benchSign(tb testing.TB, sk string, kind int, tags nostr.Tags, content string) *nostr.Event {
	if content == "" {
		content = "n-" + strconv.FormatUint(randomUint(), 36)
	}
	ev := &nostr.Event{Kind: kind, Tags: tags, Content: content, CreatedAt: nostr.Now()}
	if err := ev.Sign(sk); err != nil {
		tb.Fatal(err)
	}
	return ev
}

func (c *benchConn) write(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), benchStep)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// readRaw reads one frame (or returns the one put back in pending).
func (c *benchConn) readRaw() ([]byte, error) {
	if data := c.pending; data != nil {
		c.pending = nil
		return data, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), benchStep)
	defer cancel()
	_, data, err := c.ws.Read(ctx)
	return data, err
}

func (c *benchConn) read() ([]json.RawMessage, error) {
	data, err := c.readRaw()
	if err != nil {
		return nil, err
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err != nil {
		return nil, fmt.Errorf("unparsable frame %q: %w", text.Clip(string(data), 200), err)
	}
	return arr, nil
}

func frameVerb(arr []json.RawMessage) string {
	if len(arr) < 2 {
		return ""
	}
	var v string
	_ = json.Unmarshal(arr[0], &v)
	return v
}

// waitOK reads until the OK for id.
func (c *benchConn) waitOK(id string) (bool, string, error) {
	for {
		arr, err := c.read()
		if err != nil {
			return false, "", err
		}
		if frameVerb(arr) != "OK" || len(arr) < 4 {
			continue
		}
		var got, reason string
		var ok bool
		_ = json.Unmarshal(arr[1], &got)
		if got != id {
			continue
		}
		_ = json.Unmarshal(arr[2], &ok)
		_ = json.Unmarshal(arr[3], &reason)
		return ok, reason, nil
	}
}

// publish sends EVENT and waits for its OK.
func (c *benchConn) publish(ev *nostr.Event) (bool, string, error) {
	b, err := eventFrame(ev)
	if err != nil {
		return false, "", err
	}
	return c.publishFrame(b, ev.ID)
}

// eventFrame is the ["EVENT", ev] frame a client sends.
func eventFrame(ev *nostr.Event) ([]byte, error) {
	return (&nostr.EventEnvelope{Event: *ev}).MarshalJSON()
}

// publishFrame sends an encoded EVENT frame and waits for the OK of id.
func (c *benchConn) publishFrame(frame []byte, id string) (bool, string, error) {
	if err := c.write(frame); err != nil {
		return false, "", err
	}
	return c.waitOK(id)
}

// query sends one REQ, collects the stored events until EOSE and closes the
// subscription.
func (c *benchConn) query(filters ...nostr.Filter) ([]nostr.Event, error) {
	evs, _, err := c.req(true, filters...)
	return evs, err
}

// count is query without decoding the events (a benchmark measures the
// relay, not the client's JSON decoder): it returns how many arrived.
func (c *benchConn) count(filters ...nostr.Filter) (int, error) {
	_, n, err := c.req(false, filters...)
	return n, err
}

func (c *benchConn) req(decode bool, filters ...nostr.Filter) ([]nostr.Event, int, error) {
	sub := "b" + strconv.FormatInt(c.seq.Add(1), 10)
	b, err := (&nostr.ReqEnvelope{SubscriptionID: sub, Filters: filters}).MarshalJSON()
	if err != nil {
		return nil, 0, err
	}
	if err := c.write(b); err != nil {
		return nil, 0, err
	}
	var out []nostr.Event
	n := 0
	// go-nostr (the relay's encoder) writes an EVENT frame of this
	// subscription with exactly this prefix; counting needs no JSON parse.
	eventPrefix := []byte(`["EVENT","` + sub + `",{`)
	for {
		if !decode {
			data, err := c.readRaw()
			if err != nil {
				return nil, 0, err
			}
			if bytes.HasPrefix(data, eventPrefix) {
				n++
				continue
			}
			c.pending = data
		}
		arr, err := c.read()
		if err != nil {
			return nil, 0, err
		}
		var id string
		switch frameVerb(arr) {
		case "EVENT":
			if len(arr) == 3 && json.Unmarshal(arr[1], &id) == nil && id == sub {
				n++
				if !decode {
					continue
				}
				var ev nostr.Event
				if err := json.Unmarshal(arr[2], &ev); err != nil {
					return nil, 0, err
				}
				out = append(out, ev)
			}
		case "EOSE":
			if json.Unmarshal(arr[1], &id) == nil && id == sub {
				cl, _ := nostr.CloseEnvelope(sub).MarshalJSON()
				return out, n, c.write(cl)
			}
		case "CLOSED":
			if json.Unmarshal(arr[1], &id) == nil && id == sub {
				return nil, 0, fmt.Errorf("subscription closed: %s", arr[2])
			}
		}
	}
}
