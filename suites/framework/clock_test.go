package framework

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// stampRelay is a loopback relay holding one group's 39000: it answers a
// REQ with it and EOSE, and a 9002 with OK true and a new 39000 stamped by
// stamp (given the replaced one's created_at). renames counts the 9002s.
type stampRelay struct {
	mu      sync.Mutex
	signer  *fixtures.Actor
	group   string
	meta    *nostr.Event
	stamp   func(prev nostr.Timestamp) nostr.Timestamp
	renames int
}

func newStampRelay(group string, at nostr.Timestamp, stamp func(nostr.Timestamp) nostr.Timestamp) *stampRelay {
	r := &stampRelay{signer: fixtures.NewActor("relay"), group: group, stamp: stamp}
	r.meta = r.signer.Sign(&nostr.Event{Kind: fixtures.KindMetadata, CreatedAt: at, Tags: nostr.Tags{{"d", group}, {"name", "first"}}})
	return r
}

// start serves r on loopback and returns its ws:// URL.
func (r *stampRelay) start(t *testing.T) string {
	t.Helper()
	return loopbackRelay(t, func(send func(v ...any)) func(string, []json.RawMessage) {
		return func(verb string, frame []json.RawMessage) {
			switch verb {
			case "REQ":
				var id string
				_ = json.Unmarshal(frame[1], &id)
				r.mu.Lock()
				meta := r.meta
				r.mu.Unlock()
				send("EVENT", id, meta)
				send("EOSE", id)
			case "EVENT":
				var ev nostr.Event
				_ = json.Unmarshal(frame[1], &ev)
				r.mu.Lock()
				r.renames++
				r.meta = r.signer.Sign(&nostr.Event{Kind: fixtures.KindMetadata, CreatedAt: r.stamp(r.meta.CreatedAt), Tags: nostr.Tags{{"d", r.group}, {"name", "renamed"}}})
				r.mu.Unlock()
				send("OK", ev.ID, true, "")
			}
		}
	})
}

// clockT is a T against url whose client signs as an actor.
func clockT(t *testing.T, url string) (*T, *fixtures.Client) {
	t.Helper()
	env := &Env{StepTimeout: 5 * time.Second}
	env.defaults()
	return dialT(t, url, env, fixtures.NewActor("owner"))
}

// TestNewerMetadata: a relay that stamps each replacement a second past
// the one before is renamed past `than` without waiting for any clock,
// even when `than` is seconds ahead of it; a relay that stamps with its
// clock is renamed once, then again when the wall clock has passed
// `than`; a relay whose 39000 never moves on fails the case within the
// step deadline.
func TestNewerMetadata(t *testing.T) {
	now := nostr.Timestamp(time.Now().Unix())
	bump := func(prev nostr.Timestamp) nostr.Timestamp { return max(nostr.Timestamp(time.Now().Unix()), prev+1) }
	clock := func(nostr.Timestamp) nostr.Timestamp { return nostr.Timestamp(time.Now().Unix()) }

	t.Run("bumping relay", func(t *testing.T) {
		r := newStampRelay("g", now, bump)
		ct, c := clockT(t, r.start(t))
		meta := ct.NewerMetadata(c, "g", now+2)
		if meta.CreatedAt <= now+2 {
			t.Fatalf("returned a 39000 at %d, not newer than %d", meta.CreatedAt, now+2)
		}
		if time.Now().Unix() > int64(now+2) {
			t.Errorf("returned only once the wall clock had passed %d: a relay that bumps each replacement needs no clock wait", now+2)
		}
		if r.renames > maxBumpRenames {
			t.Errorf("%d renames, want at most %d", r.renames, maxBumpRenames)
		}
	})

	t.Run("clock-stamping relay", func(t *testing.T) {
		than := nostr.Timestamp(time.Now().Unix())
		r := newStampRelay("g", than, clock)
		ct, c := clockT(t, r.start(t))
		meta := ct.NewerMetadata(c, "g", than)
		if meta.CreatedAt <= than {
			t.Fatalf("returned a 39000 at %d, not newer than %d", meta.CreatedAt, than)
		}
		if time.Now().Unix() <= int64(than) {
			t.Fatal("returned before the wall clock passed than")
		}
		if r.renames > 3 {
			t.Errorf("%d renames: one, then one after the clock passed (two if the second turned between them), want at most 3", r.renames)
		}
	})

	t.Run("relay that never moves on", func(t *testing.T) {
		r := newStampRelay("g", now, func(prev nostr.Timestamp) nostr.Timestamp { return prev })
		ct, c := clockT(t, r.start(t))
		ct.Env.StepTimeout = 1500 * time.Millisecond
		failed := func() (failed bool) {
			defer func() {
				if rec := recover(); rec != nil {
					failed = true
				}
			}()
			ct.NewerMetadata(c, "g", now)
			return false
		}()
		if !failed {
			t.Fatal("a 39000 that never moves on must fail the case")
		}
	})
}
