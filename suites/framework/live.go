package framework

import (
	"errors"
	"fmt"

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
// returns what arrived up to it. When none arrives before the step
// deadline, a stored read of confirm through c tells why: the relay
// stored the event (it delivers relay-signed events only to reads: the
// case is unsupported, as LiveDeliveryReading says), or it has none at
// all (the step fails as a missing event, through Must).
func (t *T) WaitLiveSigned(c *fixtures.Client, sub *fixtures.Subscription, pred func(*nostr.Event) bool, confirm nostr.Filter, what string) []*nostr.Event {
	GinkgoHelper()
	seen, err := sub.WaitFor(t.Ctx(), pred)
	if err == nil {
		return seen
	}
	if errors.Is(err, fixtures.ErrTimeout) {
		for _, ev := range t.Query(c, confirm) {
			if pred(ev) {
				t.Unsupported(fmt.Sprintf("%s: the event is stored (%s finds %s) but was not delivered live within %s: %s",
					what, FilterString([]nostr.Filter{confirm}), ev.ID, t.Env.StepTimeout, LiveDeliveryReading))
			}
		}
	}
	t.Must(err, what)
	return seen
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
