package framework

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// LiveDeliveryReading is the reading every live step of relay-signed
// events states: NIP-01 says new events matching an open subscription
// "SHOULD be sent", and NIP-29 and the drafts say nothing of delivering
// the state events and notices a relay signs, so a relay that stores
// them but never delivers them live is judged on its stored reads only.
const LiveDeliveryReading = "NIP-01: new events \"SHOULD be sent\" to open subscriptions; a relay that stores the events it signs but delivers none live leaves the live rule unobservable (unsupported), never failed"

// WaitLiveSigned waits on sub for the relay-signed event pred picks and
// returns what arrived up to it. NIP-01 makes live delivery a SHOULD, so
// an absence on the subscription is confirmed by a stored read of confirm
// through c before it is judged (AwaitLive): an event the stored read
// finds but the subscription did not deliver within a settle window
// after it makes the case unsupported (the relay delivers relay-signed
// events only to reads, as LiveDeliveryReading says) — a barrier and a
// settle, not the step timeout. An event the relay never stores fails the
// step as a missing event (through Must) at the step deadline.
func (t *T) WaitLiveSigned(c *fixtures.Client, sub *fixtures.Subscription, pred func(*nostr.Event) bool, confirm nostr.Filter, what string) []*nostr.Event {
	GinkgoHelper()
	w := t.awaitLive(sub, pred, confirm, func() []*nostr.Event { return t.Query(c, confirm) })
	if w.Live {
		return w.Seen
	}
	if w.Stored != "" {
		t.Unsupported(fmt.Sprintf("%s: %s: %s", what, w.Why, LiveDeliveryReading))
	}
	t.Must(w.Err, what)
	return w.Seen
}

// LiveWait is what AwaitLive saw on a subscription.
type LiveWait struct {
	Seen   []*nostr.Event // the live events, up to the one waited for when it came
	Live   bool           // the event waited for arrived on the subscription
	Stored string         // not Live: the id of the event the stored read found ("" if none)
	Why    string         // not Live: how long the wait took and why that was enough
	Err    error          // not Live and not Stored: the subscription's error (a step timeout)
}

// AwaitLive waits on sub for the event pred picks, deciding its absence by
// a barrier, not by the step timeout (issue 36). NIP-01 makes live
// delivery a SHOULD, so while the event has not arrived a stored read of
// confirm through c (as c, refusals and errors read as "not found") is
// repeated every settle window (settle.go); once it finds a matching
// event (the relay holds it: the barrier), the subscription gets one more
// settle window, and an event still not delivered is reported Stored,
// with Why saying how long the wait took and why that was enough. An
// event no stored read finds is waited for up to the step timeout (Err).
// The caller judges: a case whose live part is optional notes the
// absence, one that needs the live event ends unsupported.
func (t *T) AwaitLive(c *fixtures.Client, sub *fixtures.Subscription, pred func(*nostr.Event) bool, confirm nostr.Filter) LiveWait {
	return t.awaitLive(sub, pred, confirm, func() []*nostr.Event {
		r, err := c.Query(t.Ctx(), confirm)
		if err != nil || r.Closed {
			return nil
		}
		return r.Events
	})
}

// awaitLive is AwaitLive with the stored read read.
func (t *T) awaitLive(sub *fixtures.Subscription, pred func(*nostr.Event) bool, confirm nostr.Filter, read func() []*nostr.Event) LiveWait {
	GinkgoHelper()
	start := time.Now()
	window, why := t.Env.SettleWindow()
	var w LiveWait
	var storedAt time.Time
	find := func() {
		for _, ev := range read() {
			if pred(ev) {
				w.Stored, storedAt = ev.ID, time.Now()
			}
		}
	}
	for {
		slice := window
		if left := t.Env.StepTimeout - time.Since(start); left < slice {
			slice = max(left, time.Millisecond)
		}
		sctx, cancel := context.WithTimeout(t.Ctx(), slice)
		seen, err := sub.WaitFor(sctx, pred)
		cancel()
		w.Seen = append(w.Seen, seen...)
		if err == nil {
			t.Env.Delays.Observe(time.Since(start))
			w.Live = true
			return w
		}
		sliceEnded := sctx.Err() != nil && t.Ctx().Err() == nil
		if !sliceEnded || time.Since(start) >= t.Env.StepTimeout {
			if sliceEnded {
				err = fmt.Errorf("%w: %w after %s", err, fixtures.ErrTimeout, t.Env.StepTimeout)
			}
			if errors.Is(err, fixtures.ErrTimeout) && w.Stored == "" {
				find()
			}
			if w.Stored != "" {
				w.Why = fmt.Sprintf("the event is stored (%s finds %s) but was not delivered live within %s",
					FilterString([]nostr.Filter{confirm}), w.Stored, time.Since(start).Round(time.Millisecond))
				return w
			}
			w.Err = err
			return w
		}
		if w.Stored != "" {
			if time.Since(storedAt) >= window {
				w.Why = fmt.Sprintf("the event is stored (%s finds %s) but was not delivered live: waited %s, of which %s after the stored read found it (the relay holds the event; settle window %s: %s)",
					FilterString([]nostr.Filter{confirm}), w.Stored, time.Since(start).Round(time.Millisecond), time.Since(storedAt).Round(time.Millisecond), window.Round(time.Millisecond), why)
				return w
			}
			continue
		}
		find()
	}
}

// StateKinds keeps, of kinds, the state kinds the relay publishes: a kind
// of which the capability probe read no instance for its own new group is
// left out (NIP-29: "a single instance of each (or none) should exist"),
// so a case expects only what this relay publishes. Without a probe every
// kind is kept.
func (t *T) StateKinds(kinds ...int) []int {
	var out []int
	for _, k := range kinds {
		if a, probed := t.Env.StatePublished[k]; probed && a == capability.No {
			continue
		}
		out = append(out, k)
	}
	return out
}

// RequireStateKinds is StateKinds for a case about those kinds: when the
// relay publishes none of them the case is unsupported, saying so.
func (t *T) RequireStateKinds(kinds ...int) []int {
	GinkgoHelper()
	out := t.StateKinds(kinds...)
	if len(out) == 0 {
		t.Unsupported(fmt.Sprintf("the relay publishes none of kinds %v for a new group (the capability probe read none; NIP-29: \"a single instance of each (or none)\"), so the rule about them cannot be observed", kinds))
	}
	return out
}
