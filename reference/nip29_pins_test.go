package reference

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func init() { maps.Copy(faultProbes, pinsProbes) }

// pin builds a 9010 with the given references.
func (a actor) pin(t *testing.T, id string, refs ...nostr.Tag) *nostr.Event {
	return a.event(t, kindUpdatePins, append(nostr.Tags{{"h", id}}, refs...), "", 0)
}

// pinRefs are the e and a values of the group's 39005, in order (nil
// when there is none).
func pinRefs(c *client, id string) []string {
	ev := c.state(kindGroupPins, id)
	if ev == nil {
		return nil
	}
	out := []string{}
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && (tag[0] == "e" || tag[0] == "a") {
			out = append(out, tag[1])
		}
	}
	return out
}

// pinFixture makes a group with two messages to pin.
func pinFixture(t *testing.T, url string) (c *client, owner actor, id string, e1, e2 string) {
	owner = newActor(t)
	c = dial(t, url)
	c.auth(owner)
	id = "pins-" + newChannelID()[:8]
	c.mustPublish(owner.bare(t, id))
	m1, m2 := owner.msg(t, id, "first", 0), owner.msg(t, id, "second", 0)
	c.mustPublish(m1)
	c.mustPublish(m2)
	// e2 < e1 in value, so sorting changes the order.
	e1, e2 = m1.ID, m2.ID
	if e1 < e2 {
		e1, e2 = e2, e1
	}
	return c, owner, id, e1, e2
}

var pinsProbes = map[FaultName]faultProbe{
	faultPinsOrderLost: func(t *testing.T, r *Relay, url string) bool {
		c, owner, id, e1, e2 := pinFixture(t, url)
		c.mustPublish(owner.pin(t, id, nostr.Tag{"e", e1}, nostr.Tag{"e", e2}))
		return !slices.Equal(pinRefs(c, id), []string{e1, e2})
	},
	faultPinsNotRegenerated: func(t *testing.T, r *Relay, url string) bool {
		c, owner, id, e1, e2 := pinFixture(t, url)
		c.mustPublish(owner.pin(t, id, nostr.Tag{"e", e1}, nostr.Tag{"e", e2}))
		c.mustPublish(owner.pin(t, id))
		return len(pinRefs(c, id)) != 0
	},
	faultPinsMemberCanUpdate: func(t *testing.T, r *Relay, url string) bool {
		c, owner, id, e1, _ := pinFixture(t, url)
		member := newActor(t)
		c.mustPublish(owner.put(t, id, member.pk, ""))
		cm := dial(t, url)
		cm.auth(member)
		return cm.publish(member.pin(t, id, nostr.Tag{"e", e1})).OK
	},
}

// TestPins: 9010 lists become the 39005, in order, replaced by each new
// list; only owners and admins pin; bad references are invalid; users
// cannot publish 39005.
func TestPins(t *testing.T) {
	r, url := startRelay(t, Config{Profile: "nip29"})
	c, owner, id, e1, e2 := pinFixture(t, url)
	addr := "30023:" + owner.pk + ":article"
	c.mustPublish(owner.pin(t, id, nostr.Tag{"e", e2}, nostr.Tag{"a", addr}, nostr.Tag{"e", e1}))
	if got := pinRefs(c, id); !slices.Equal(got, []string{e2, addr, e1}) {
		t.Fatalf("39005 = %v", got)
	}
	if ev := c.state(kindGroupPins, id); ev.PubKey != r.PubKey() {
		t.Fatalf("39005 signed by %s", ev.PubKey)
	}
	c.mustPublish(owner.pin(t, id, nostr.Tag{"e", e1}, nostr.Tag{"e", e2}))
	if got := pinRefs(c, id); !slices.Equal(got, []string{e1, e2}) {
		t.Fatalf("39005 after reorder/unpin = %v", got)
	}
	c.mustPublish(owner.pin(t, id))
	if got := pinRefs(c, id); len(got) != 0 {
		t.Fatalf("39005 after clearing = %v", got)
	}
	for _, tc := range []struct {
		name string
		ev   *nostr.Event
		want string
	}{
		{"bad e", owner.pin(t, id, nostr.Tag{"e", "xyz"}), "invalid:"},
		{"bad a", owner.pin(t, id, nostr.Tag{"a", "not-an-address"}), "invalid:"},
		{"user 39005", owner.event(t, kindGroupPins, nostr.Tags{{"d", id}}, "", 0), "restricted:"},
	} {
		ok := c.publish(tc.ev)
		if ok.OK || !strings.HasPrefix(ok.Reason, tc.want) {
			t.Errorf("%s: %v %q, want false %q", tc.name, ok.OK, ok.Reason, tc.want)
		}
	}
}
