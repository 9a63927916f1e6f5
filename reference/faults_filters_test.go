package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The NIP-01 filter-matching faults' probes, added to faultProbes
// (faults_test.go) here so that fault files stay independent.
func init() {
	faultProbes[faultFirstValueOnly] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a, b := newChannelID(), newChannelID()
		c.mustPublish(owner.create(t, a))
		c.mustPublish(owner.create(t, b))
		m := owner.msg(t, b, "in the second group", 0)
		c.mustPublish(m)
		return !hasID(c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a, b}}}), m.ID)
	}
	faultProbes[faultLastFilterOnly] = func(t *testing.T, r *Relay, url string) bool {
		c, _, m1, m2 := twoMessages(t, url)
		return !hasID(c.query(nostr.Filter{IDs: []string{m1.ID}}, nostr.Filter{IDs: []string{m2.ID}}), m1.ID)
	}
	faultProbes[faultStoredOldestFirst] = func(t *testing.T, r *Relay, url string) bool {
		c, a, m1, _ := twoMessages(t, url)
		got := c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}, Limit: 10})
		return len(got) == 2 && got[0].ID == m1.ID
	}
	faultProbes[faultExclusiveSinceUtil] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a := newChannelID()
		c.mustPublish(owner.create(t, a))
		m := owner.msg(t, a, "boundary", -5)
		c.mustPublish(m)
		at := m.CreatedAt
		return !hasID(c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}}, Since: &at, Until: &at}), m.ID)
	}
	faultProbes[faultEmptyArrayMatchAll] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		a := newChannelID()
		c.mustPublish(owner.create(t, a))
		c.mustPublish(owner.msg(t, a, "any", 0))
		return len(c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {a}, "t": {}}})) > 0
	}
}

// twoMessages opens an authenticated connection, creates a group and
// publishes two messages in it, the first a second older.
func twoMessages(t *testing.T, url string) (c *client, group string, older, newer *nostr.Event) {
	t.Helper()
	owner := newActor(t)
	c = dial(t, url)
	c.auth(owner)
	group = newChannelID()
	c.mustPublish(owner.create(t, group))
	older, newer = owner.msg(t, group, "older", -1), owner.msg(t, group, "newer", 0)
	c.mustPublish(older)
	c.mustPublish(newer)
	return c, group, older, newer
}

// hasID reports whether evs holds the event id.
func hasID(evs []nostr.Event, id string) bool {
	for _, ev := range evs {
		if ev.ID == id {
			return true
		}
	}
	return false
}
