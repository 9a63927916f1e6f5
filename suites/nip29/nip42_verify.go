package nip29

import (
	"errors"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// challenged is a connection of a that has the relay's AUTH challenge and
// has not authenticated: unsupported when the relay sends none, on connect
// or on a write.
func challenged(t *framework.T, a *fixtures.Actor) *fixtures.Client {
	c := t.ConnectWith(fixtures.DialOptions{Actor: a, NoAutoAuth: true})
	if !t.Env.AuthOnConnect && !c.HasChallenge() {
		// Ask for something that may need AUTH, so a relay that
		// challenges on demand does.
		t.Publish(c, fixtures.CreateGroup(a, t.NewGroupID()))
	}
	if !c.HasChallenge() && !c.WaitChallenge(t.Ctx()) {
		t.Unsupported("the relay sent no AUTH challenge, on connect or on a write: it does not use NIP-42, so there is no AUTH to verify")
	}
	return c
}

// refusedAuth sends ev as an AUTH on c and fails the case for clauseID
// when the relay accepts it; then a correct AUTH on the same connection,
// the positive control, must be accepted (else the relay accepts no AUTH
// here and the refusal proved nothing: blocked).
func refusedAuth(t *framework.T, c *fixtures.Client, ev *nostr.Event, clauseID, why string) {
	ok, err := c.AuthEvent(t.Ctx(), ev)
	if errors.Is(err, fixtures.ErrTimeout) {
		t.Violates("nip42/auth.1", "NIP-42 (nip42/auth.1): the AUTH of %s got no OK (%v)", why, err)
	}
	t.Must(err, "AUTH of "+why)
	if ok.Accepted {
		t.Violates(clauseID, "NIP-42 (%s): the AUTH of %s was accepted (%s); relays must verify it", clauseID, why, ok)
	}
	framework.CheckPrefix("OK", ok.Reason)
	if err := c.Auth(t.Ctx()); err != nil {
		t.Blocked(framework.PreAuth, fmt.Sprintf("after refusing the AUTH of %s, the relay refused a correct AUTH on the same connection too: %v", why, err))
	}
}

// nip42VerifySpecs are the cases of nip42/verify.
func nip42VerifySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/auth/5", Clauses: []string{"nip42/auth.1", "nip42/verify.1"}, Area: "auth", Section: "nip42/verify", Level: framework.MUST,
			Requirement: "An AUTH event whose challenge tag is not the challenge the relay sent is refused; a correct AUTH on the same connection is then accepted."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.Event(fixtures.KindAuth, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", "not-" + c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.1", "a kind 22242 event whose challenge tag is not the relay's challenge")
			}},
		{Case: framework.Case{ID: "base/auth/6", Clauses: []string{"nip42/auth.1", "nip42/verify.2"}, Area: "auth", Section: "nip42/verify", Level: framework.MUST,
			Requirement: "An AUTH event created three hours ago is refused; a correct AUTH on the same connection is then accepted.",
			Reading:     "NIP-42 asks for a created_at close to the current time, e.g. within ~10 minutes: three hours is outside any reading of close."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.EventAt(time.Now().Add(-3*time.Hour), fixtures.KindAuth, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.2", "a kind 22242 event created three hours ago")
			}},
		{Case: framework.Case{ID: "base/auth/7", Clauses: []string{"nip42/auth.1", "nip42/verify.3"}, Area: "auth", Section: "nip42/verify", Level: framework.MUST,
			Requirement: "An AUTH message carrying a kind 1 event (with the right relay and challenge tags) is refused; a correct AUTH on the same connection is then accepted."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.Event(1, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.3", "a kind 1 event")
			}},
	}
}
