package reference

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// tieEvent signs an event created at `at` whose id sorts before other's
// (before) or after it, varying the content.
func (a actor) tieEvent(t *testing.T, kind int, tags nostr.Tags, at nostr.Timestamp, other string, before bool) *nostr.Event {
	t.Helper()
	for n := 0; ; n++ {
		ev := &nostr.Event{Kind: kind, Tags: tags, Content: fmt.Sprintf("tie %d", n), CreatedAt: at}
		if err := ev.Sign(a.sk); err != nil {
			t.Fatal(err)
		}
		if ev.ID != other && (ev.ID < other) == before {
			return ev
		}
	}
}

func init() {
	// A member put and leaving (or removed) in one second, the second
	// command's id sorting first: every reading makes it the latest.
	sameSecondMembership := func(leave bool) faultProbe {
		return func(t *testing.T, r *Relay, url string) bool {
			owner, member := newActor(t), newActor(t)
			co, cm := dial(t, url), dial(t, url)
			co.auth(owner)
			cm.auth(member)
			id := newChannelID()
			co.mustPublish(owner.bare(t, id))
			at := nostr.Now()
			put := owner.tieEvent(t, kindPutUser, nostr.Tags{{"h", id}, {"p", member.pk}}, at, "", false)
			co.mustPublish(put)
			if leave {
				cm.mustPublish(member.tieEvent(t, kindLeaveRequest, nostr.Tags{{"h", id}}, at, put.ID, true))
			} else {
				co.mustPublish(owner.tieEvent(t, kindRemoveUser, nostr.Tags{{"h", id}, {"p", member.pk}}, at, put.ID, true))
			}
			return hasPTag(co.state(kindGroupMembers, id), member.pk, roleMember)
		}
	}
	faultProbes[faultSameSecondLeaveLost] = sameSecondMembership(true)
	faultProbes[faultSameSecondRemovalLost] = sameSecondMembership(false)
	faultProbes[faultSameSecondEditLost] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		co := dial(t, url)
		co.auth(owner)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		at := nostr.Now()
		first := owner.tieEvent(t, kindEditMetadata, nostr.Tags{{"h", id}, {"name", "first"}}, at, "", false)
		co.mustPublish(first)
		co.mustPublish(owner.tieEvent(t, kindEditMetadata, nostr.Tags{{"h", id}, {"name", "second"}}, at, first.ID, true))
		meta := co.state(kindGroupMetadata, id)
		return meta == nil || meta.Tags.Find("name") == nil || meta.Tags.Find("name")[1] != "second"
	}
	faultProbes[faultReplaceableTieLastWins] = func(t *testing.T, r *Relay, url string) bool {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		at := nostr.Now()
		tags := nostr.Tags{{"d", "tie-" + newChannelID()}}
		first := a.tieEvent(t, 30078, tags, at, "", false)
		c.mustPublish(first)
		c.publish(a.tieEvent(t, 30078, tags, at, first.ID, false))
		got := c.query(nostr.Filter{Kinds: []int{30078}, Authors: []string{a.pk}, Tags: nostr.TagMap{"d": {tags[0][1]}}})
		return len(got) != 1 || got[0].ID != first.ID
	}
}
