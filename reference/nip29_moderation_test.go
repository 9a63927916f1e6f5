package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Probes of the moderation, delete-event, state-event and timeline faults
// (issue 26), merged into faultProbes.
func init() {
	for name, p := range moderationProbes {
		faultProbes[name] = p
	}
}

var moderationProbes = map[FaultName]faultProbe{
	faultOutsiderRemoveUser: func(t *testing.T, r *Relay, url string) bool {
		owner, member, outsider := newActor(t), newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.create(t, id))
		co.mustPublish(owner.put(t, id, member.pk, ""))
		cx.publish(outsider.remove(t, id, member.pk))
		members := co.state(kindGroupMembers, id)
		for _, tag := range members.Tags {
			if len(tag) >= 2 && tag[0] == "p" && tag[1] == member.pk {
				return false
			}
		}
		return true
	},
	faultOutsiderDeleteEvent: func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.create(t, id))
		m := owner.msg(t, id, "keep me", 0)
		co.mustPublish(m)
		cx.publish(outsider.event(t, kindDeleteEvent, nostr.Tags{{"h", id}, {"e", m.ID}}, "", 0))
		return len(co.query(nostr.Filter{IDs: []string{m.ID}})) == 0
	},
	faultModerationEventsUnserved: func(t *testing.T, r *Relay, url string) bool {
		owner, member := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		put := owner.put(t, id, member.pk, "")
		c.mustPublish(put)
		return len(c.query(nostr.Filter{IDs: []string{put.ID}})) == 0
	},
	faultDeleteEventIgnored: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		m := owner.msg(t, id, "delete me", 0)
		c.mustPublish(m)
		c.mustPublish(owner.event(t, kindDeleteEvent, nostr.Tags{{"h", id}, {"e", m.ID}}, "", 0))
		return len(c.query(nostr.Filter{IDs: []string{m.ID}})) > 0
	},
	faultBannerDropped: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		c.mustPublish(owner.edit(t, id, nostr.Tag{"banner", "https://example.invalid/b.png"}))
		v, _ := lastTag(c.state(kindGroupMetadata, id), "banner")
		return v != "https://example.invalid/b.png"
	},
	faultUserStateAccepted: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		forged := owner.event(t, kindGroupMetadata, nostr.Tags{{"d", id}, {"name", "forged"}}, "", 0)
		return c.publish(forged).OK
	},
	faultIdenticalStateDuplicated: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "same"}))
		c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "same"}))
		return len(c.query(nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": {id}}})) > 1
	},
	faultPreviousUnchecked: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		ev := owner.event(t, kindChatMessage, nostr.Tags{{"h", id}, {"previous", "00000000"}}, "out of context", 0)
		return c.publish(ev).OK
	},
	faultPreviousRefused: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		m := owner.msg(t, id, "first", 0)
		c.mustPublish(m)
		ev := owner.event(t, kindChatMessage, nostr.Tags{{"h", id}, {"previous", m.ID[:8]}}, "in context", 0)
		return !c.publish(ev).OK
	},
}

// TestDeleteEventReadPaths: an owner's 9005 hides the event from every read
// path, and from COUNT; an outsider's is refused.
func TestDeleteEventReadPaths(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "none"})
	owner, outsider := newActor(t), newActor(t)
	c, cx := dial(t, url), dial(t, url)
	c.auth(owner)
	cx.auth(outsider)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	m := owner.msg(t, id, "delete me", 0)
	c.mustPublish(m)
	del := outsider.event(t, kindDeleteEvent, nostr.Tags{{"h", id}, {"e", m.ID}}, "", 0)
	if ok := cx.publish(del); ok.OK {
		t.Fatal("outsider's 9005 accepted")
	}
	c.mustPublish(owner.event(t, kindDeleteEvent, nostr.Tags{{"h", id}, {"e", m.ID}}, "", 0))
	for _, f := range []nostr.Filter{
		{IDs: []string{m.ID}},
		{Tags: nostr.TagMap{"h": {id}}, Kinds: []int{kindChatMessage}},
		{Authors: []string{owner.pk}, Kinds: []int{kindChatMessage}},
	} {
		if got := c.query(f); len(got) != 0 {
			t.Errorf("filter %v still serves the deleted event", f)
		}
	}
	if n := c.count(nostr.Filter{IDs: []string{m.ID}}); n != 0 {
		t.Errorf("COUNT of the deleted event = %d", n)
	}
	if ok := c.publish(owner.event(t, kindDeleteEvent, nostr.Tags{{"h", id}, {"e", m.ID[:63] + "0"}}, "", 0)); ok.OK && m.ID[63] != '0' {
		t.Error("a 9005 naming an unknown event was accepted")
	}
}

// TestMinPrevious: with MinPrevious 3 a group event needs as many
// references as the group has events by other keys, up to three.
func TestMinPrevious(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "none", MinPrevious: 3})
	owner, member := newActor(t), newActor(t)
	co, cm := dial(t, url), dial(t, url)
	co.auth(owner)
	cm.auth(member)
	id := newChannelID()
	create := owner.create(t, id)
	co.mustPublish(create)
	first := owner.msg(t, id, "first", 0)
	co.mustPublish(first) // nothing by others to reference yet
	if ok := cm.publish(member.msg(t, id, "no context", 0)); ok.OK {
		t.Fatal("a message without references accepted while the group has two events by others")
	}
	ev := member.event(t, kindChatMessage, nostr.Tags{{"h", id}, {"previous", create.ID[:8], first.ID[:8]}}, "in context", 0)
	if ok := cm.publish(ev); !ok.OK {
		t.Fatalf("two valid references refused: %s", ok.Reason)
	}
}
