package framework

import (
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
