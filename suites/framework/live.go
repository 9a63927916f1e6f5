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
// through c before it is judged: while the event has not arrived, the
// stored read is repeated every settle window (settle.go); once it finds
// the event (the relay holds it: the barrier), the subscription gets one
// more settle window, and an event still not delivered makes the case
// unsupported (the relay delivers relay-signed events only to reads, as
// LiveDeliveryReading says) — a barrier and a settle, not the step
// timeout. An event the relay never stores fails the step as a missing
// event (through Must) at the step deadline.
func (t *T) WaitLiveSigned(c *fixtures.Client, sub *fixtures.Subscription, pred func(*nostr.Event) bool, confirm nostr.Filter, what string) []*nostr.Event {
	GinkgoHelper()
	start := time.Now()
	window, why := t.Env.SettleWindow()
	var all []*nostr.Event
	var storedAt time.Time
	storedID := ""
	for {
		slice := window
		if left := t.Env.StepTimeout - time.Since(start); left < slice {
			slice = max(left, time.Millisecond)
		}
		sctx, cancel := context.WithTimeout(t.Ctx(), slice)
		seen, err := sub.WaitFor(sctx, pred)
		cancel()
		all = append(all, seen...)
		if err == nil {
			t.Env.Delays.Observe(time.Since(start))
			return all
		}
		sliceEnded := sctx.Err() != nil && t.Ctx().Err() == nil
		if !sliceEnded || time.Since(start) >= t.Env.StepTimeout {
			if sliceEnded {
				err = fmt.Errorf("%w: %w after %s", err, fixtures.ErrTimeout, t.Env.StepTimeout)
			}
			if errors.Is(err, fixtures.ErrTimeout) && storedID == "" {
				for _, ev := range t.Query(c, confirm) {
					if pred(ev) {
						storedID = ev.ID
					}
				}
			}
			if storedID != "" {
				t.Unsupported(fmt.Sprintf("%s: the event is stored (%s finds %s) but was not delivered live within %s: %s",
					what, FilterString([]nostr.Filter{confirm}), storedID, time.Since(start).Round(time.Millisecond), LiveDeliveryReading))
			}
			t.Must(err, what)
			return all
		}
		if storedID != "" {
			if time.Since(storedAt) >= window {
				t.Unsupported(fmt.Sprintf("%s: the event is stored (%s finds %s) but was not delivered live: waited %s, of which %s after the stored read found it (the relay holds the event; settle window %s: %s): %s",
					what, FilterString([]nostr.Filter{confirm}), storedID, time.Since(start).Round(time.Millisecond), time.Since(storedAt).Round(time.Millisecond), window.Round(time.Millisecond), why, LiveDeliveryReading))
			}
			continue
		}
		for _, ev := range t.Query(c, confirm) {
			if pred(ev) {
				storedID, storedAt = ev.ID, time.Now()
			}
		}
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
