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
	// A barrier, not the step timeout: a relay that gates no write on AUTH
	// and challenges only on demand never sends one here, and the case
	// must not wait out its own timeout for it (issue 34: no-auth-for-writes
	// + auth-on-demand; issue 36: absence by barrier).
	if ok, why := t.AwaitChallenge(c); !ok {
		t.Unsupported("the relay sent no AUTH challenge, on connect or on a write (" + why + "): it does not use NIP-42, so there is no AUTH to verify")
	}
	return c
}

// otherRelayURL is a relay URL no relay under test is: its host is in the
// reserved .invalid domain (RFC 2606), so it differs from the relay's own
// name by host, whatever URL the harness reaches the relay by.
const otherRelayURL = "wss://not-this-relay.invalid/"

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
		{Case: framework.NewCase("base/auth/5", framework.MUST,
			"An AUTH event whose challenge tag is not the challenge the relay sent is refused; a correct AUTH on the same connection is then accepted.",
			"nip42/verify.1", "nip42/auth.1"),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.Event(fixtures.KindAuth, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", "not-" + c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.1", "a kind 22242 event whose challenge tag is not the relay's challenge")
			}},
		{Case: framework.NewCase("base/auth/6", framework.MUST,
			"An AUTH event created three hours ago is refused; a correct AUTH on the same connection is then accepted.",
			"nip42/verify.2", "nip42/auth.1").
			WithReading("NIP-42 asks for a created_at close to the current time, e.g. within ~10 minutes: three hours is outside any reading of close."),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.EventAt(time.Now().Add(-3*time.Hour), fixtures.KindAuth, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.2", "a kind 22242 event created three hours ago")
			}},
		{Case: framework.NewCase("base/auth/7", framework.MUST,
			"An AUTH message carrying a kind 1 event (with the right relay and challenge tags) is refused; a correct AUTH on the same connection is then accepted.",
			"nip42/verify.3", "nip42/auth.1"),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.Event(1, nostr.Tags{{"relay", c.AuthRelayURL()}, {"challenge", c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.3", "a kind 1 event")
			}},
		{Case: framework.NewCase("base/auth/9", framework.MUST,
			"An AUTH event whose relay tag names another relay (wss://not-this-relay.invalid/) is refused; a correct AUTH on the same connection is then accepted.",
			"nip42/verify.5", "nip42/auth.1").
			WithReading("NIP-42 § Signed Event Verification: \"relays must ensure ... that the relay tag matches the relay URL\" (a lower-case must stating a rule: MUST), with \"URL normalization techniques can be applied. For most cases just checking if the domain name is correct should be enough\". The harness may reach the relay by another URL than the relay's own (a tunnel, --simulate-rtt, a proxy, a Host header), so the tag names a host no relay is: any refusal passes, and a relay comparing only the host or normalising is never failed."),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := challenged(t, a)
				ev := a.Event(fixtures.KindAuth, nostr.Tags{{"relay", otherRelayURL}, {"challenge", c.Challenge()}}, "")
				refusedAuth(t, c, ev, "nip42/verify.5", "a kind 22242 event whose relay tag names another relay ("+otherRelayURL+")")
			}},
		{Case: framework.NewCase("base/auth/8", framework.MUST,
			"A connection that authenticated as two keys, one AUTH after the other, may write as either: the first key's write after the second AUTH is accepted as it is on a connection of its own.",
			"nip42/verify.4").
			WithReading("NIP-42 lets a relay choose whether writes need AUTH: a relay that accepts a write signed by a key the connection has not authenticated ties nothing to AUTH (unsupported), and one that refuses the second AUTH or the first key's own write on its own connection leaves nothing to compare (unsupported, blocked)."),
			Run: func(t *framework.T) {
				a, b := t.Actor("owner"), t.Actor("other")
				// Does the relay tie writes to the authenticated key at all?
				onlyB := t.Connect(b)
				t.Must(framework.AuthIfNeeded(t, onlyB), "authenticate as the second key")
				probe := fixtures.CreateGroup(a, t.NewGroupID())
				if ok := t.Publish(onlyB, probe); ok.Accepted {
					t.Track(probe)
					t.Unsupported("the relay accepted a write signed by a key the connection had not authenticated: it does not tie writes to AUTH, so which keys count as authenticated is not observable")
				}
				c := challenged(t, a)
				if err := c.Auth(t.Ctx()); err != nil {
					t.Blocked(framework.PreAuth, "AUTH as the first key: "+err.Error())
				}
				ok, renewed, err := c.AuthAs(t.Ctx(), b)
				t.Must(err, "AUTH as the second key")
				if renewed {
					t.Note("the second AUTH crossed a fresh challenge the relay sent after the first; signed again with it: %s", ok)
				}
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported(fmt.Sprintf("the relay refused a second AUTH on the connection (%s): clients MAY send several, and a relay that refuses them leaves one key to judge", ok))
				}
				for _, signer := range []*fixtures.Actor{b, a} {
					ev := fixtures.CreateGroup(signer, t.NewGroupID())
					got := t.Publish(c, ev)
					if got.Accepted {
						t.Track(ev)
						continue
					}
					framework.CheckPrefix("OK", got.Reason)
					own := t.Connect(signer)
					t.Must(framework.AuthIfNeeded(t, own), "authenticate the signer on its own connection")
					again := fixtures.CreateGroup(signer, t.NewGroupID())
					if !t.Publish(own, again).Accepted {
						t.Unsupported(fmt.Sprintf("the key's write was refused on its own authenticated connection too (%s): a refusal of the write, not of the key", got))
					}
					t.Track(again)
					t.Violates("nip42/verify.4", "NIP-42 (nip42/verify.4): relays MUST treat all pubkeys of a sequence of AUTH messages as authenticated; after AUTH as %s then %s, a write signed by %s was refused (%s), though its own authenticated connection may write", a.PubKey, b.PubKey, signer.PubKey, got)
				}
			}},
	}
}
