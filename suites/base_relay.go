package suites

import (
	"fmt"
	"regexp"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// baselineRelaySpecs: NIP-01, NIP-11, NIP-42 and NIP-45 behaviour every
// NIP-CL scenario relies on.
func baselineRelaySpecs() []Spec {
	return []Spec{
		{Case{ID: "base/nip11/1", Area: "nip11", Section: "nip11/document", Level: MUST,
			Requirement: "The relay serves a NIP-11 JSON document at its URL for Accept: application/nostr+json, with self as a 64-hex key."},
			func(t *T) {
				Expect(t.Env.Info).NotTo(BeNil(), "NIP-11 document")
				Expect(t.Env.Info.Self).To(MatchRegexp(hex64.String()), "NIP-11 self")
				Expect(t.Env.Info.Self).To(Equal(t.Env.RelayPubKey), "NIP-11 self is the key relay-signed events use")
			}},
		{Case{ID: "base/auth/1", Area: "auth", Section: "nip42/auth", Level: MUST,
			Requirement: "A write from a connection that has not authenticated is refused with auth-required:."},
			func(t *T) {
				owner := t.Actor("owner")
				c := t.ConnectWith(fixtures.DialOptions{Actor: owner, NoAutoAuth: true})
				ok := t.Reject(c, fixtures.CreateChannel(owner, &fixtures.ChannelSpec{Name: t.Unique("noauth")}), "auth-required:", "create without AUTH")
				_ = ok
			}},
		{Case{ID: "base/auth/2", Area: "auth", Section: "nip42/auth", Level: MUST,
			Requirement: "A write signed by a key other than the authenticated one is refused with auth-required:."},
			func(t *T) {
				a, b := t.Actor("authed"), t.Actor("other")
				c := t.Connect(a)
				t.Must(authIfNeeded(t, c), "authenticate")
				t.Reject(c, fixtures.CreateChannel(b, &fixtures.ChannelSpec{Name: t.Unique("wrongkey")}), "auth-required:", "create signed by a key the connection did not authenticate")
			}},
		{Case{ID: "base/auth/3", Area: "auth", Section: "nip42/auth", Level: MUST,
			Requirement: "After AUTH with a valid kind 22242 event, writes by that key are accepted."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(authIfNeeded(t, c), "authenticate")
				t.CreateChannel(c, fixtures.ChannelSpec{})
			}},
		{Case{ID: "base/event/1", Area: "events", Section: "nip01/event-validation", Level: MUST,
			Requirement: "An event whose signature does not verify is rejected with invalid:."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(authIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateChannel(a, &fixtures.ChannelSpec{Name: t.Unique("badsig")})
				sig := []byte(ev.Sig)
				sig[10] = flipHex(sig[10])
				ev.Sig = string(sig)
				t.Reject(c, ev, "invalid:", "create with a corrupted signature")
				Expect(t.StateEvent(c, fixtures.KindMetadata, mustH(ev))).To(BeNil(), "no channel from a badly signed create")
			}},
		{Case{ID: "base/event/2", Area: "events", Section: "nip01/event-validation", Level: MUST,
			Requirement: "An event whose id is not the hash of its content is rejected with invalid:."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(authIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateChannel(a, &fixtures.ChannelSpec{Name: t.Unique("badid")})
				ev.Content = "tampered after signing"
				t.Reject(c, ev, "invalid:", "create whose content changed after signing")
			}},
		{Case{ID: "base/event/3", Area: "events", Section: "nip01/event-validation", Level: MUST,
			Requirement: "An event more than 900 s away from the relay clock (past or future) is rejected with invalid:."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(authIfNeeded(t, c), "authenticate")
				for _, skew := range []time.Duration{-1200 * time.Second, 1200 * time.Second} {
					spec := &fixtures.ChannelSpec{ID: fixtures.NewChannelID(), Name: t.Unique("skew")}
					ev := fixtures.CreateChannel(a, spec)
					ev.CreatedAt = nostr.Timestamp(time.Now().Add(skew).Unix())
					a.Sign(ev)
					t.Reject(c, ev, "invalid:", "create with created_at "+skew.String()+" from now")
				}
			}},
		{Case{ID: "base/malformed/1", Area: "events", Section: "nip01/malformed", Level: MUST,
			Requirement: "A malformed frame is answered with NOTICE and the connection stays usable."},
			func(t *T) {
				c := t.Connect(nil)
				for _, frame := range []string{`not json`, `["NOPE"]`, `{"a":1}`, `["REQ"]`, `["EVENT",{"id":1}]`} {
					t.Must(c.SendRaw(t.Ctx(), frame), "send malformed frame")
					_, err := c.WaitNotice(t.Ctx())
					t.Must(err, "NOTICE for malformed frame "+frame)
				}
				t.Must(c.Ping(t.Ctx()), "connection still answers a REQ after malformed frames")
			}},
		{Case{ID: "base/filters/1", Area: "filters", Section: "nip01/filters", Level: MUST,
			Requirement: "Tag filters are matched before limit: an older matching event is returned behind newer non-matching ones."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				needle := t.Unique("needle")
				// Strictly older than every distractor, so no tie-break can hide a fault.
				want := a.EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", needle}}, "match")
				t.Accept(c, want, "message with the needle tag")
				for i := 0; i < 20; i++ {
					t.Accept(c, fixtures.Message(a, ch, fmt.Sprintf("distractor %d", i)), "distractor message")
				}
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {needle}}, Limit: 1})
				Expect(IDs(got)).To(Equal([]string{want.ID}), "REQ #t:[needle] limit 1 returns the one match")
			}},
		{Case{ID: "base/filters/2", Area: "filters", Section: "nip01/filters", Level: MUST,
			Requirement: "A REQ with several filters returns the union of their matches, newest first, then EOSE."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				m1 := fixtures.Message(a, ch, "one")
				t.Accept(c, m1, "first message")
				m2 := a.EventAt(time.Unix(int64(m1.CreatedAt)+1, 0), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "two")
				t.Accept(c, m2, "second message")
				got := t.Query(c, nostr.Filter{IDs: []string{m1.ID}}, nostr.Filter{IDs: []string{m2.ID}})
				Expect(IDs(got)).To(ConsistOf(m1.ID, m2.ID), "union of two id filters")
				got = t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				Expect(IDs(got)).To(Equal([]string{m2.ID, m1.ID}), "messages newest first")
			}},
		{Case{ID: "base/live/1", Area: "filters", Section: "nip01/live", Level: MUST,
			Requirement: "An open subscription receives a new matching event after EOSE."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				reader := t.Connect(t.Actor("reader"))
				sub := t.Subscribe(reader, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				m := fixtures.Message(a, ch, "live")
				t.Accept(c, m, "message")
				_, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == m.ID })
				t.Must(err, "live delivery of the new message")
			}},
		{Case{ID: "base/count/1", Area: "count", Section: "nip45/count", Level: MUST,
			Requirement: "COUNT returns the number of events matching the filter."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				for i := 0; i < 3; i++ {
					t.Accept(c, fixtures.Message(a, ch, fmt.Sprintf("message %d", i)), "message")
				}
				Expect(t.Count(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})).To(BeEquivalentTo(3), "COUNT of the channel's three messages")
			}},
		{Case{ID: "base/count/2", Area: "count", Section: "nip45/count", Level: MUST,
			Requirement: "COUNT applies the same read access as REQ: an outsider counts no messages of a private channel."},
			func(t *T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.Accept(c, fixtures.Message(a, ch, "secret"), "message in private channel")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				Expect(t.Count(c, f)).To(BeEquivalentTo(1), "the member counts the message")
				outsider := t.Connect(t.Actor("outsider"))
				Expect(t.Count(outsider, f)).To(BeEquivalentTo(0), "an outsider counts nothing")
			}},
	}
}

// authIfNeeded authenticates c when it has not yet (relays that challenge
// only on demand are covered by Publish's auth-required retry).
func authIfNeeded(t *T, c *fixtures.Client) error {
	if c.Authed() {
		return nil
	}
	if !t.Env.AuthOnConnect {
		return nil
	}
	return c.Auth(t.Ctx())
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

// hasP reports whether a state event lists pubkey in a p tag, and its roles.
func hasP(ev *nostr.Event, pubkey string) (bool, []string) {
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

// tagOf returns the first value of the first tag named name ("" if none).
func tagOf(ev *nostr.Event, name string) string {
	if ev == nil {
		return ""
	}
	v, _ := fixtures.TagValue(ev, name)
	return v
}
