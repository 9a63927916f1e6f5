package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The probes of the NIP-01 subscription and limit faults, the NIP-42 AUTH
// verification faults and the NIP-45 count faults (issue 37), added to
// faultProbes (faults_test.go) here so that fault files stay independent.
func init() {
	faultProbes[faultSubReplaceKeepsOld] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c, w := dial(t, url), dial(t, url)
		w.auth(owner)
		a, b := newChannelID(), newChannelID()
		w.mustPublish(owner.create(t, a))
		w.mustPublish(owner.create(t, b))
		c.req("s", nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}})
		c.req("s", nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {b}}})
		ma, mb := owner.msg(t, a, "old filter", 0), owner.msg(t, b, "new filter", 0)
		w.mustPublish(ma)
		w.mustPublish(mb)
		ev, err := c.live("s", func(ev *nostr.Event) bool { return ev.ID == ma.ID || ev.ID == mb.ID })
		return err != nil || ev.ID == ma.ID
	}
	faultProbes[faultCloseIgnored] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c, w := dial(t, url), dial(t, url)
		c.auth(owner)
		w.auth(owner)
		a := newChannelID()
		w.mustPublish(owner.create(t, a))
		f := nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}}
		c.req("s", f)
		c.sendRaw(`["CLOSE","s"]`)
		c.req("m", f)
		m := owner.msg(t, a, "after close", 0)
		w.mustPublish(m)
		return onSub(t, c, "m", m.ID)["s"]
	}
	faultProbes[faultSubIDsShared] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c1, c2, w := dial(t, url), dial(t, url), dial(t, url)
		w.auth(owner)
		a := newChannelID()
		w.mustPublish(owner.create(t, a))
		f := nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}}
		c1.req("x", f)
		c2.req("x", f)
		c1.req("m", f)
		m := owner.msg(t, a, "shared id", 0)
		w.mustPublish(m)
		return !onSub(t, c1, "m", m.ID)["x"]
	}
	faultProbes[faultLiveForeignSubID] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c1, c2, w := dial(t, url), dial(t, url), dial(t, url)
		w.auth(owner)
		a := newChannelID()
		w.mustPublish(owner.create(t, a))
		f := nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}}
		c1.req("mine", f)
		c2.req("theirs", f)
		m := owner.msg(t, a, "whose id", 0)
		w.mustPublish(m)
		var under string
		c1.expect(func(e nostr.Envelope) bool {
			if v, ok := e.(*nostr.EventEnvelope); ok && v.SubscriptionID != nil && v.Event.ID == m.ID {
				under = *v.SubscriptionID
				return true
			}
			return false
		})
		return under != "mine"
	}
	faultProbes[faultEOSEBeforeStored] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a := newChannelID()
		c.mustPublish(owner.create(t, a))
		m := owner.msg(t, a, "stored", 0)
		c.mustPublish(m)
		return len(c.req("s", nostr.Filter{IDs: []string{m.ID}})) == 0
	}
	faultProbes[faultLimitCapsLive] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c, w := dial(t, url), dial(t, url)
		w.auth(owner)
		a := newChannelID()
		w.mustPublish(owner.create(t, a))
		f := nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}}
		limited := f
		limited.Limit = 1
		c.req("s", limited)
		c.req("m", f)
		m := owner.msg(t, a, "live", 0)
		w.mustPublish(m)
		return !onSub(t, c, "m", m.ID)["s"]
	}
	faultProbes[faultLimitAcrossFilter] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a, b := newChannelID(), newChannelID()
		c.mustPublish(owner.create(t, a))
		c.mustPublish(owner.create(t, b))
		c.mustPublish(owner.msg(t, a, "a", -2))
		c.mustPublish(owner.msg(t, b, "b", -1))
		got := c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}, Limit: 1}, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {b}}, Limit: 1})
		return len(got) != 2
	}
	faultProbes[faultAuthIgnoresChallenge] = func(t *testing.T, r *Relay, url string) bool {
		return dial(t, url).authResult(newActor(t), "not-the-challenge", 0).OK
	}
	faultProbes[faultAuthIgnoresRelay] = func(t *testing.T, r *Relay, url string) bool {
		c := dial(t, url)
		ev := newActor(t).event(t, nostr.KindClientAuthentication, nostr.Tags{{"relay", "wss://not-this-relay.invalid/"}, {"challenge", c.challenge}}, "", 0)
		c.send(&nostr.AuthEnvelope{Event: *ev})
		return c.okFor(ev.ID).OK
	}
	faultProbes[faultAuthIgnoresCreatedAt] = func(t *testing.T, r *Relay, url string) bool {
		c := dial(t, url)
		return c.authResult(newActor(t), c.challenge, -7200).OK
	}
	faultProbes[faultAuthAnyKind] = func(t *testing.T, r *Relay, url string) bool {
		c := dial(t, url)
		ev := newActor(t).event(t, 1, nostr.Tags{{"relay", "ws://localhost"}, {"challenge", c.challenge}}, "", 0)
		c.send(&nostr.AuthEnvelope{Event: *ev})
		return c.okFor(ev.ID).OK
	}
	faultProbes[faultCountIgnoresTags] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a, b := newChannelID(), newChannelID()
		c.mustPublish(owner.create(t, a))
		c.mustPublish(owner.create(t, b))
		c.mustPublish(owner.msg(t, a, "elsewhere", 0))
		return c.count(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {b}}}) != 0
	}
	faultProbes[faultCountAnswersLimit] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a := newChannelID()
		c.mustPublish(owner.create(t, a))
		c.mustPublish(owner.msg(t, a, "one", 0))
		return c.count(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}, Limit: 5}) != 1
	}
	faultProbes[faultCountSumsFilters] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a := newChannelID()
		c.mustPublish(owner.create(t, a))
		m := owner.msg(t, a, "one", 0)
		c.mustPublish(m)
		return c.count(nostr.Filter{IDs: []string{m.ID}}, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}}) != 1
	}
}

// onSub reads c's frames until the marker subscription receives id, then
// until the EOSE of one more REQ (everything the relay sent before it has
// arrived), and reports the subscriptions that received id.
func onSub(t *testing.T, c *client, marker, id string) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	seen := func(e nostr.Envelope) {
		if v, ok := e.(*nostr.EventEnvelope); ok && v.SubscriptionID != nil && v.Event.ID == id {
			got[*v.SubscriptionID] = true
		}
	}
	c.expect(func(e nostr.Envelope) bool { seen(e); return got[marker] })
	c.send(&nostr.ReqEnvelope{SubscriptionID: "barrier", Filters: nostr.Filters{{IDs: []string{id}}}})
	c.expect(func(e nostr.Envelope) bool {
		if v, ok := e.(*nostr.EOSEEnvelope); ok && string(*v) == "barrier" {
			return true
		}
		seen(e)
		return false
	})
	return got
}

// The state-follow fault's probe: a removed member stays in the 39002.
func init() {
	faultProbes[faultStateStaleOnRoleChange] = func(t *testing.T, r *Relay, url string) bool {
		owner, user := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		c.mustPublish(owner.put(t, id, user.pk, "member"))
		c.mustPublish(owner.put(t, id, user.pk, "admin"))
		for _, tag := range c.state(kindGroupAdmins, id).Tags {
			if len(tag) >= 3 && tag[0] == "p" && tag[1] == user.pk && tag[2] == "admin" {
				return false
			}
		}
		return true
	}
	faultProbes[faultStateStaleOnRemoval] = func(t *testing.T, r *Relay, url string) bool {
		owner, user := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		c.mustPublish(owner.put(t, id, user.pk, ""))
		c.mustPublish(owner.remove(t, id, user.pk))
		for _, tag := range c.state(kindGroupMembers, id).Tags {
			if len(tag) >= 2 && tag[0] == "p" && tag[1] == user.pk {
				return true
			}
		}
		return false
	}
}

// The probes of a deleted group's faults.
func init() {
	deleted := func(t *testing.T, c *client, owner actor, tags ...nostr.Tag) (id string, m *nostr.Event) {
		id = newChannelID()
		c.mustPublish(owner.create(t, id, tags...))
		m = owner.msg(t, id, "before the delete", 0)
		c.mustPublish(m)
		c.mustPublish(owner.event(t, 9008, nostr.Tags{{"h", id}}, "", 0))
		return id, m
	}
	faultProbes[faultDeleteKeepsMemberLists] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id, _ := deleted(t, c, owner)
		return c.state(kindGroupMembers, id) != nil
	}
	faultProbes[faultJoinDeletedAccepted] = func(t *testing.T, r *Relay, url string) bool {
		owner, joiner := newActor(t), newActor(t)
		c, j := dial(t, url), dial(t, url)
		c.auth(owner)
		j.auth(joiner)
		id, _ := deleted(t, c, owner)
		return j.publish(joiner.event(t, 9021, nostr.Tags{{"h", id}}, "", 0)).OK
	}
	faultProbes[faultDeletedGroupPublic] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c, anon := dial(t, url), dial(t, url)
		c.auth(owner)
		_, m := deleted(t, c, owner, nostr.Tag{"visibility", "private"})
		return len(anon.query(nostr.Filter{IDs: []string{m.ID}})) > 0
	}
}

// The probes of the replaceable-kind faults: two versions of a kind 10009.
func init() {
	versions := func(t *testing.T, url string) (*client, actor, *nostr.Event) {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		c.mustPublish(a.event(t, 10009, nostr.Tags{{"group", "older"}}, "", -2))
		newer := a.event(t, 10009, nostr.Tags{{"group", "newer"}}, "", 0)
		c.mustPublish(newer)
		return c, a, newer
	}
	faultProbes[faultReplaceableFirstWins] = func(t *testing.T, r *Relay, url string) bool {
		c, a, newer := versions(t, url)
		return !hasID(c.query(nostr.Filter{Kinds: []int{10009}, Authors: []string{a.pk}}), newer.ID)
	}
	faultProbes[faultReplaceableKeepsOlder] = func(t *testing.T, r *Relay, url string) bool {
		c, a, _ := versions(t, url)
		return len(c.query(nostr.Filter{Kinds: []int{10009}, Authors: []string{a.pk}})) != 1
	}
}

// The probe of auth-last-key-only: the first of two authenticated keys
// writes after the second AUTH.
func init() {
	faultProbes[faultAuthLastKeyOnly] = func(t *testing.T, r *Relay, url string) bool {
		a, b := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(a)
		c.auth(b)
		return !c.publish(a.create(t, newChannelID())).OK
	}
}
