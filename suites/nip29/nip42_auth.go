package nip29

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip42AuthSpecs are the cases of nip42/auth.
func nip42AuthSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/auth/1", framework.SHOULD,
			"A write refused only because the connection has not authenticated is refused with auth-required:.",
			"nip42/auth.3", "labels/events.2").
			WithReading("NIP-42 lets a relay choose whether writes need AUTH: a relay that accepts the write has no AUTH gate to check (unsupported, with the reason); a refusal that AUTH then lifts must have said auth-required:."),
			Run: func(t *framework.T) {
				t.Checking("nip42/auth.3")
				owner := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: owner, NoAutoAuth: true})
				ev := fixtures.CreateGroup(owner, t.NewGroupID())
				ok := t.Publish(c, ev)
				if ok.Accepted {
					t.Track(ev)
					t.Unsupported("the relay accepted a write before AUTH: it does not gate writes on NIP-42 (its choice), so there is no AUTH refusal to check")
				}
				framework.CheckPrefix("OK", ok.Reason)
				if err := c.Auth(t.Ctx()); err != nil {
					t.Unsupported(fmt.Sprintf("refused before AUTH with %s and AUTH did not complete (%v): not a NIP-42 gate the harness can observe", ok, err))
				}
				again := t.Publish(c, ev)
				if !again.Accepted {
					t.Unsupported(fmt.Sprintf("refused before (%s) and after AUTH (%s): a policy refusal, not an AUTH gate", ok, again))
				}
				t.Track(ev)
				if !strings.HasPrefix(ok.Reason, "auth-required:") {
					t.Violates("nip42/auth.3", "NIP-42 (nip42/auth.3): the write was refused before AUTH and accepted after it, so the refusal should say auth-required:, got %s", ok)
				}
			}},
		{Case: framework.NewCase("base/auth/2", framework.SHOULD,
			"A write signed by a key the connection has not authenticated, if refused for that, says auth-required: (or restricted:).",
			"nip42/auth.3", "labels/events.2").
			WithReading("NIP-42 does not oblige a relay to tie writes to the authenticated key: acceptance leaves nothing to check (unsupported, with the reason); a refusal that authenticating the signer lifts must use a NIP-42 prefix."),
			Run: func(t *framework.T) {
				t.Checking("nip42/auth.3")
				a, b := t.Actor("authed"), t.Actor("other")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(b, t.NewGroupID())
				ok := t.Publish(c, ev)
				if ok.Accepted {
					t.Track(ev)
					t.Unsupported("the relay accepted a write signed by a key the connection had not authenticated: it does not tie writes to AUTH (its choice), so there is no refusal to check")
				}
				framework.CheckPrefix("OK", ok.Reason)
				if strings.HasPrefix(ok.Reason, "auth-required:") || strings.HasPrefix(ok.Reason, "restricted:") {
					// NIP-42's own prefixes: restricted: is the one it gives a
					// connection that has authenticated with a key that may
					// not do this, which is exactly the case here.
					t.Note("a write signed by a key the connection had not authenticated was refused with a NIP-42 prefix: %s", ok)
					return
				}
				// Another prefix: it breaks the requirement only if the
				// refusal was for the missing AUTH, i.e. the signer's own
				// authenticated connection is accepted.
				cb := t.Connect(b)
				if err := framework.AuthIfNeeded(t, cb); err != nil {
					t.Unsupported(fmt.Sprintf("refused (%s), and the signer could not authenticate on a connection of its own (%v): whether the refusal was for AUTH is not observable", ok, err))
				}
				if own := t.Publish(cb, ev); !own.Accepted {
					t.Unsupported(fmt.Sprintf("refused (%s), and refused for its own authenticated signer too (%s): a refusal of the write, not of the unauthenticated signer", ok, own))
				}
				t.Track(ev)
				t.Violates("nip42/auth.3", "NIP-42 (nip42/auth.3): a write refused for its signer not being authenticated should say auth-required: or restricted:, got %s (the signer's own authenticated connection was accepted)", ok)
			}},
		{Case: framework.NewCase("base/auth/3", framework.MUST,
			"An AUTH message with a valid kind 22242 event is answered with OK.",
			"nip42/auth.1"),
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: a, NoAutoAuth: true})
				if !t.Env.AuthOnConnect {
					// Ask for something that may need AUTH, so a relay that challenges on demand does.
					t.Publish(c, fixtures.CreateGroup(a, t.NewGroupID()))
				}
				if ok, why := t.AwaitChallenge(c); !ok {
					t.Unsupported("the relay sent no AUTH challenge, on connect or on a write (" + why + "): it does not use NIP-42")
				}
				err := c.Auth(t.Ctx())
				switch {
				case err == nil:
				case errors.Is(err, fixtures.ErrTimeout):
					t.Must(err, "NIP-42 (nip42/auth.1): an AUTH message must be answered with OK; none came")
				default:
					t.Blocked(framework.PreAuth, err.Error())
				}
			}},
		{Case: framework.NewCase("base/auth/4", framework.MUST,
			"Kind 22242 AUTH events are never broadcast: a subscription for kind 22242 receives none when another client authenticates.",
			"nip42/auth.2", "nip01/ok-prefix.2"),
			Run: func(t *framework.T) {
				t.Checking("nip42/auth.2")
				watcher := t.Connect(t.Actor("watcher"))
				t.Must(framework.AuthIfNeeded(t, watcher), "authenticate the watcher")
				// A relay that asks for AUTH only on a read (auth-required:)
				// gets it: a refusal of the unauthenticated watcher says
				// nothing of kind 22242.
				authSub, err := watcher.SubscribeAuthed(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindAuth}})
				t.Must(err, "subscribe to kind 22242")
				if closed, reason := authSub.ClosedReason(); closed {
					framework.CheckPrefix("CLOSED", reason)
					t.Note("the relay refused a kind 22242 subscription (CLOSED %q), so it broadcasts none", reason)
					return
				}
				for _, ev := range authSub.Stored() {
					t.Violates("nip42/auth.2", "NIP-42 (nip42/auth.2): kind 22242 events must never be sent to clients, got stored %s from %s", ev.ID, ev.PubKey)
				}
				owner := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: owner, NoAutoAuth: true})
				ch := t.NewGroupID()
				marker, err := watcher.SubscribeAuthed(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				t.Must(err, "subscribe to the marker group's 39000")
				if closed, reason := marker.ClosedReason(); closed {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ for a 39000 by #d answered CLOSED %q", reason))
				}
				// Each wait for a challenge ends at a barrier (issue 36).
				ok, why := t.AwaitChallenge(c)
				if !ok {
					t.Publish(c, fixtures.CreateGroup(owner, t.NewGroupID()))
					ok, why = t.AwaitChallenge(c)
				}
				if !ok {
					t.Unsupported("no AUTH could be completed on this relay: it sent no challenge, on connect or on a write (" + why + ")")
				}
				if err := c.Auth(t.Ctx()); err != nil {
					t.Unsupported("no AUTH could be completed on this relay: " + err.Error())
				}
				// The group's 39000 arrives after the AUTH on the relay's side:
				// once it is here, a broadcast AUTH would be too.
				t.CreateGroupNIP29(c, fixtures.ChannelSpec{ID: ch})
				// Absence by barrier (issue 36): a stored read finds the
				// group's 39000, then a settle window, not the step timeout.
				w := t.AwaitLive(watcher, marker, func(ev *nostr.Event) bool { return ev.Kind == fixtures.KindMetadata },
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				if !w.Live {
					observed := fmt.Sprint(w.Err)
					if w.Stored != "" {
						observed = w.Why
					}
					t.Blocked(framework.Precondition{ID: "live-state", Need: "the relay delivers a new group's 39000 to an open #d subscription (used as a marker)", Adapt: "deliver replaced state events live"}, observed)
				}
				for _, ev := range authSub.Drain() {
					t.Violates("nip42/auth.2", "NIP-42 (nip42/auth.2): kind 22242 events must never be broadcast, got %s from %s", ev.ID, ev.PubKey)
				}
			}},
	}
}
