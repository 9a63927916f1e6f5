package nip29

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// baselineRelaySpecs: what NIP-01, NIP-11, NIP-42 and NIP-45 themselves
// require, at the level of their own sentences. Optional NIPs (42's
// gating, 45) are checked only as far as the relay takes them up.
func baselineRelaySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/nip11/1", Clauses: []string{"nip11/document.1", "nip11/document.2"}, Area: "nip11", Section: "nip11/document", Level: framework.MUST,
			Requirement: "The NIP-11 document is served for Accept: application/nostr+json; its self field, when present, is a 64-hex key.",
			Reading:     "NIP-29 names self as the key of group state; a document without self but with pubkey is read as naming that key, with a note."},
			Run: func(t *framework.T) {
				info := t.Env.Info
				t.Expect(info).NotTo(BeNil(), "the NIP-11 document was read at setup")
				if info.Self != "" && !hex64.MatchString(info.Self) {
					framework.Failf("NIP-11 (nip11/document.2): self must be a 32-byte lowercase hex key, got %q", info.Self)
				}
				if info.Self == "" {
					t.Note("NIP-11 has no self; the harness checks group state against %s (from --relay-pubkey or the document's pubkey)", t.Env.RelayPubKey)
				}
			}},
		{Case: framework.Case{ID: "base/auth/1", Clauses: []string{"labels/events.2", "nip42/auth.3"}, Area: "auth", Section: "nip42/auth", Level: framework.SHOULD,
			Requirement: "A write refused only because the connection has not authenticated is refused with auth-required:.",
			Reading:     "NIP-42 lets a relay choose whether writes need AUTH: a relay that accepts the write has no AUTH gate to check (unsupported, with the reason); a refusal that AUTH then lifts must have said auth-required:."},
			Run: func(t *framework.T) {
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
					framework.Failf("NIP-42 (nip42/auth.3): the write was refused before AUTH and accepted after it, so the refusal should say auth-required:, got %s", ok)
				}
			}},
		{Case: framework.Case{ID: "base/auth/2", Clauses: []string{"labels/events.2", "nip42/auth.3"}, Area: "auth", Section: "nip42/auth", Level: framework.SHOULD,
			Requirement: "A write signed by a key the connection has not authenticated, if refused for that, says auth-required: (or restricted:).",
			Reading:     "NIP-42 does not oblige a relay to tie writes to the authenticated key: acceptance leaves nothing to check (unsupported, with the reason); a refusal that authenticating the signer lifts must use a NIP-42 prefix."},
			Run: func(t *framework.T) {
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
				framework.Failf("NIP-42 (nip42/auth.3): a write refused for its signer not being authenticated should say auth-required: or restricted:, got %s (the signer's own authenticated connection was accepted)", ok)
			}},
		{Case: framework.Case{ID: "base/auth/3", Clauses: []string{"nip42/auth.1"}, Area: "auth", Section: "nip42/auth", Level: framework.MUST,
			Requirement: "An AUTH message with a valid kind 22242 event is answered with OK."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: a, NoAutoAuth: true})
				if !t.Env.AuthOnConnect {
					// Ask for something that may need AUTH, so a relay that challenges on demand does.
					t.Publish(c, fixtures.CreateGroup(a, t.NewGroupID()))
				}
				err := c.Auth(t.Ctx())
				switch {
				case err == nil:
				case errors.Is(err, fixtures.ErrTimeout) && !c.HasChallenge():
					t.Unsupported("the relay sent no AUTH challenge, on connect or on a write: it does not use NIP-42")
				case errors.Is(err, fixtures.ErrTimeout):
					t.Must(err, "NIP-42 (nip42/auth.1): an AUTH message must be answered with OK; none came")
				default:
					t.Blocked(framework.PreAuth, err.Error())
				}
			}},
		{Case: framework.Case{ID: "base/auth/4", Clauses: []string{"nip01/ok-prefix.2", "nip42/auth.2"}, Area: "auth", Section: "nip42/auth", Level: framework.MUST,
			Requirement: "Kind 22242 AUTH events are never broadcast: a subscription for kind 22242 receives none when another client authenticates."},
			Run: func(t *framework.T) {
				watcher := t.Connect(t.Actor("watcher"))
				t.Must(framework.AuthIfNeeded(t, watcher), "authenticate the watcher")
				authSub, err := watcher.Subscribe(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindAuth}})
				t.Must(err, "subscribe to kind 22242")
				if closed, reason := authSub.ClosedReason(); closed {
					framework.CheckPrefix("CLOSED", reason)
					t.Note("the relay refused a kind 22242 subscription (CLOSED %q), so it broadcasts none", reason)
					return
				}
				for _, ev := range authSub.Stored() {
					framework.Failf("NIP-42 (nip42/auth.2): kind 22242 events must never be sent to clients, got stored %s from %s", ev.ID, ev.PubKey)
				}
				owner := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: owner, NoAutoAuth: true})
				ch := t.NewGroupID()
				marker, err := watcher.Subscribe(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				t.Must(err, "subscribe to the marker group's 39000")
				if closed, reason := marker.ClosedReason(); closed {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ for a 39000 by #d answered CLOSED %q", reason))
				}
				if err := c.Auth(t.Ctx()); err != nil {
					if !c.HasChallenge() {
						t.Publish(c, fixtures.CreateGroup(owner, t.NewGroupID()))
						err = c.Auth(t.Ctx())
					}
					if err != nil {
						t.Unsupported("no AUTH could be completed on this relay: " + err.Error())
					}
				}
				// The group's 39000 arrives after the AUTH on the relay's side:
				// once it is here, a broadcast AUTH would be too.
				t.CreateGroupNIP29(c, fixtures.ChannelSpec{ID: ch})
				_, err = marker.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.Kind == fixtures.KindMetadata })
				if err != nil {
					t.Blocked(framework.Precondition{ID: "live-state", Need: "the relay delivers a new group's 39000 to an open #d subscription (used as a marker)", Adapt: "deliver replaced state events live"}, err.Error())
				}
				for _, ev := range authSub.Drain() {
					framework.Failf("NIP-42 (nip42/auth.2): kind 22242 events must never be broadcast, got %s from %s", ev.ID, ev.PubKey)
				}
			}},
		{Case: framework.Case{ID: "base/event/1", Clauses: []string{"labels/events.2", "nip01/event-validation.1", "nip01/ok-prefix.1"}, Area: "events", Section: "nip01/event-validation", Level: framework.MUST,
			Requirement: "An event whose signature does not verify is refused (OK false) and has no effect."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ch := t.NewGroupID()
				ev := fixtures.CreateGroup(a, ch)
				sig := []byte(ev.Sig)
				sig[10] = flipHex(sig[10])
				ev.Sig = string(sig)
				ok := t.Reject(c, ev, "", "create with a corrupted signature")
				noteInvalid(t, ok)
				t.QueryAbsent(c, "no group from a badly signed create", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
			}},
		{Case: framework.Case{ID: "base/event/2", Clauses: []string{"labels/events.2", "nip01/event-validation.2", "nip01/ok-prefix.1"}, Area: "events", Section: "nip01/event-validation", Level: framework.MUST,
			Requirement: "An event whose id is not the hash of its content is refused (OK false)."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(a, t.NewGroupID())
				ev.Content = "tampered after signing"
				noteInvalid(t, t.Reject(c, ev, "", "create whose content changed after signing"))
			}},
		{Case: framework.Case{ID: "base/prefix/1", Clauses: []string{"nip01/ok-prefix.1"}, Area: "events", Section: "nip01/ok-prefix", Level: framework.MUST,
			Requirement: "An OK false carries a machine-readable prefix and a colon before its human-readable message."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(a, t.NewGroupID())
				ev.Content = "tampered after signing"
				ok := t.Publish(c, ev)
				if ok.Accepted {
					framework.Failf("NIP-01: an event whose id does not match its content must not be accepted, got %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.Case{ID: "base/event/3", Clauses: []string{"nip29/late-publication.1"}, Area: "events", Section: "nip29/late-publication", Level: framework.SHOULD,
			Requirement: "A group message stamped three hours in the past is refused (late publication)."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				late := c.Actor().EventAt(time.Now().Add(-3*time.Hour), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "late")
				ok := t.Publish(c, late)
				if ok.Accepted {
					framework.Failf("NIP-29 (nip29/late-publication.1): relays should prevent late publication; a message stamped 3 h ago was accepted: %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.Case{ID: "base/filters/1", Clauses: []string{"nip01/filters.2"}, Area: "filters", Section: "nip01/filters", Level: framework.SHOULD,
			Requirement: "With limit 1, a REQ by #h and #t returns the one older match behind newer non-matching messages."},
			Run: func(t *framework.T) {
				c, ch, want, _ := needleChannel(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}, Limit: 1})
				t.Expect(framework.IDs(got)).To(Equal([]string{want.ID}), "REQ #h #t limit 1 returns the one match, the newest n matching events (NIP-01 limit)")
			}},
		{Case: framework.Case{ID: "base/filters/3", Clauses: []string{"nip01/filters.1"}, Area: "filters", Section: "nip01/filters", Level: framework.MUST,
			Requirement: "Every event a REQ returns matches its filter: a REQ by #h and #t returns no event without that t tag."},
			Run: func(t *framework.T) {
				c, ch, want, distractors := needleChannel(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}, "t": {framework.TagOf(want, "t")}}}
				for _, ev := range t.Query(c, f) {
					if !f.Matches(ev) {
						framework.Failf("NIP-01 (nip01/filters.1): REQ %s returned %s, which does not match it (one of %d distractors)", f, ev.ID, distractors)
					}
				}
			}},
		{Case: framework.Case{ID: "base/filters/2", Clauses: []string{"nip01/filters.3"}, Area: "filters", Section: "nip01/filters", Level: framework.MUST,
			Requirement: "A REQ with two id filters returns the events matching either."},
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{IDs: []string{m1.ID}}, nostr.Filter{IDs: []string{m2.ID}})
				t.Expect(framework.IDs(got)).To(ConsistOf(m1.ID, m2.ID), "NIP-01 (nip01/filters.3): several filters are || conditions")
			}},
		{Case: framework.Case{ID: "base/filters/4", Clauses: []string{"nip01/filters.4"}, Area: "filters", Section: "nip01/filters", Level: framework.SHOULD,
			Requirement: "Stored events come newest first."},
			Run: func(t *framework.T) {
				c, m1, m2 := twoMessages(t)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {mustH(m1)}}})
				t.Expect(framework.IDs(got)).To(Equal([]string{m2.ID, m1.ID}), "NIP-01 (nip01/filters.4): newer events should come first")
			}},
		{Case: framework.Case{ID: "base/live/1", Clauses: []string{"nip01/live.1"}, Area: "filters", Section: "nip01/live", Level: framework.SHOULD,
			Requirement: "An open subscription receives a new matching event after EOSE."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				sub := t.Subscribe(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				if closed, reason := sub.ClosedReason(); closed {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ by #h of the creator's own group answered CLOSED %q", reason))
				}
				m := fixtures.Message(c.Actor(), ch, "live")
				t.Accept(c, m, "message")
				_, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == m.ID })
				t.Must(err, "NIP-01 (nip01/live.1): live delivery of the new message")
			}},
		{Case: framework.Case{ID: "base/count/1", Clauses: []string{"nip45/count.1", "nip45/count.2"}, Area: "count", Section: "nip45/count", Level: framework.MUST,
			Requirement: "A relay that serves COUNT answers with the number of matching events; one that refuses answers CLOSED."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				for i := 0; i < 3; i++ {
					t.Accept(c, fixtures.Message(c.Actor(), ch, fmt.Sprintf("message %d", i)), "message")
				}
				n := t.Count(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				if n != 3 {
					framework.Failf("NIP-45 (nip45/count.1): COUNT of the group's three messages answered %d", n)
				}
			}},
		{Case: framework.Case{ID: "base/count/2", Clauses: []string{"nip45/count.1", "nip45/count.3"}, Area: "count", Section: "nip45/count", Level: framework.SHOULD,
			Requirement: "COUNT does not count a private group's messages for an outsider."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.RequireFlags(c, ch, fixtures.FlagPrivate)
				t.Accept(c, fixtures.Message(c.Actor(), ch, "secret"), "message in the private group")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				if n := t.Count(c, f); n != 1 {
					framework.Failf("NIP-45 (nip45/count.1): the member's COUNT of one message answered %d", n)
				}
				outsider := t.Connect(t.Actor("outsider"))
				r, err := outsider.Count(t.Ctx(), f)
				t.Must(err, "outsider's COUNT")
				if r.Closed {
					framework.CheckPrefix("CLOSED", r.ClosedReason)
					t.Note("the outsider's COUNT was refused: CLOSED %q", r.ClosedReason)
					return
				}
				if r.Count != 0 {
					framework.Failf("NIP-45 with NIP-29 private (nip45/count.3): an outsider's COUNT of a private group's messages answered %d, want 0 or a refusal", r.Count)
				}
			}},
	}
}

// needleChannel makes a group with one older message tagged with a unique
// t value behind 20 newer messages without it.
func needleChannel(t *framework.T) (c *fixtures.Client, ch string, needle *nostr.Event, distractors int) {
	c = t.Connect(t.Actor("owner"))
	ch = t.CreateChannel(c, fixtures.ChannelSpec{})
	// Strictly older than every distractor, so no tie-break can hide a fault.
	needle = c.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", t.Unique("needle")}}, "match")
	t.Accept(c, needle, "message with the needle tag")
	for i := 0; i < 20; i++ {
		t.Accept(c, fixtures.Message(c.Actor(), ch, fmt.Sprintf("distractor %d", i)), "distractor message")
	}
	return c, ch, needle, 20
}

// twoMessages posts two messages a second apart in a fresh group.
func twoMessages(t *framework.T) (c *fixtures.Client, m1, m2 *nostr.Event) {
	c = t.Connect(t.Actor("owner"))
	ch := t.CreateChannel(c, fixtures.ChannelSpec{})
	m1 = c.Actor().EventAt(time.Now().Add(-2*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "one")
	t.Accept(c, m1, "first message")
	m2 = c.Actor().EventAt(time.Unix(int64(m1.CreatedAt)+1, 0), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "two")
	t.Accept(c, m2, "second message")
	return c, m1, m2
}

// noteInvalid records which prefix a refused invalid event got (NIP-01
// shows invalid: as the example, but fixes no prefix for it).
func noteInvalid(t *framework.T, ok fixtures.OK) {
	if !strings.HasPrefix(ok.Reason, "invalid:") {
		t.Note("refused with %q rather than the invalid: NIP-01 uses in its example", ok.Reason)
	}
}

func flipHex(b byte) byte {
	if b == '0' {
		return '1'
	}
	return '0'
}

func mustH(ev *nostr.Event) string {
	h, _ := fixtures.TagValue(ev, "h")
	return h
}
