package framework

import (
	"context"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// AuthIfNeeded authenticates c when it has not yet (relays that challenge
// only on demand are covered by Publish's auth-required retry).
func AuthIfNeeded(t *T, c *fixtures.Client) error {
	if c.Authed() {
		return nil
	}
	if !t.Env.AuthOnConnect {
		return nil
	}
	return c.Auth(t.Ctx())
}

// HasP reports whether a state event lists pubkey in a p tag, and its roles.
func HasP(ev *nostr.Event, pubkey string) (bool, []string) {
	if ev == nil {
		return false, nil
	}
	for _, tg := range ev.Tags {
		if len(tg) >= 2 && tg[0] == "p" && tg[1] == pubkey {
			return true, append([]string(nil), tg[2:]...)
		}
	}
	return false, nil
}

// TagOf returns the first value of the first tag named name ("" if none).
func TagOf(ev *nostr.Event, name string) string {
	if ev == nil {
		return ""
	}
	v, _ := fixtures.TagValue(ev, name)
	return v
}

// DTag is an event's d value ("" when it has none).
func DTag(ev *nostr.Event) string {
	v, _ := fixtures.TagValue(ev, "d")
	return v
}

// AwaitChallenge reports whether the relay has sent c a NIP-42 challenge,
// deciding an absence by a barrier, not by the step timeout (issue 36): a
// REQ on c that the relay answers (EOSE or CLOSED) comes after whatever
// it sent c before — a challenge on connect, or one with an earlier
// write's OK — and then a settle window derived from this relay's
// measured delays (settle.go) covers a challenge sent from another
// goroutine. When none came, why says how long the wait took and why that
// was enough. A relay the capability probe saw challenge on connect has
// shown a challenge is coming: there the wait is one step, as any.
func (t *T) AwaitChallenge(c *fixtures.Client) (challenged bool, why string) {
	if c.HasChallenge() {
		return true, ""
	}
	start := time.Now()
	if t.Env.AuthOnConnect {
		sctx, cancel := context.WithTimeout(t.Ctx(), t.Env.StepTimeout)
		defer cancel()
		if c.WaitChallenge(sctx) {
			return true, ""
		}
		return false, fmt.Sprintf("waited %s, the step timeout: the capability probe saw this relay challenge on connect", time.Since(start).Round(time.Millisecond))
	}
	var barrier string
	r, err := c.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindAuthProbe}, Limit: 1})
	switch {
	case err != nil:
		barrier = fmt.Sprintf("a REQ on the connection went unanswered (%v)", err)
	case r.Closed:
		barrier = fmt.Sprintf("a REQ on the connection was answered CLOSED %q", r.ClosedReason)
	default:
		barrier = "a REQ on the connection was answered EOSE"
	}
	if c.HasChallenge() {
		return true, ""
	}
	window, settle := t.Env.SettleWindow()
	wctx, cancel := context.WithTimeout(t.Ctx(), window)
	defer cancel()
	if c.WaitChallenge(wctx) {
		return true, ""
	}
	return false, fmt.Sprintf("waited %s: %s (a NIP-01 barrier: a challenge sent on connect or with an earlier OK arrives before it), then a settle window of %s (%s)",
		time.Since(start).Round(time.Millisecond), barrier, window.Round(time.Millisecond), settle)
}
