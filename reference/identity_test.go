package reference

import (
	"slices"
	"strconv"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// identitySeqOf returns the t/P tags of ev in order as "t:v" / "P:v".
func identitySeqOf(ev *nostr.Event) []string {
	var out []string
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && (tag[0] == "t" || tag[0] == "P") {
			out = append(out, tag[0]+":"+tag[1])
		}
	}
	return out
}

func TestIdentityTagsAndLabels(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "identity"})
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	c.mustPublish(owner.create(t, id, nostr.Tag{"channel_type", "forum"}, nostr.Tag{"t", "zeta"}, nostr.Tag{"t", "alpha"}, nostr.Tag{"t", "zeta"},
		nostr.Tag{"P", newActor(t).pk}))
	want := []string{"t:forum", "t:zeta", "t:alpha", "P:" + owner.pk}
	for _, k := range []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers} {
		if got := identitySeqOf(c.state(k, id)); !slices.Equal(got, want) {
			t.Fatalf("kind %d identity tags %v, want %v", k, got, want)
		}
	}
	meta := c.state(kindGroupMetadata, id)
	created := meta.Tags.Find("created_at")
	if created == nil {
		t.Fatal("39000 lacks created_at")
	}
	if _, err := strconv.ParseInt(created[1], 10, 64); err != nil {
		t.Fatalf("created_at tag %q", created[1])
	}

	// Rejected 9002s change nothing; a valid one replaces; no t keeps; ["t",""] x2 clears.
	for _, bad := range []nostr.Tags{
		{{"name", "x"}, {"t", "Upper"}},
		{{"name", "x"}, {"t", "stream"}},
		{{"name", "x"}, {"t", ""}, {"t", "ok"}},
		{{"name", "x"}, {"t", "a"}, {"t", "b"}, {"t", "c"}, {"t", "d"}, {"t", "e"}, {"t", "f"}, {"t", "g"}, {"t", "h"}, {"t", "i"}},
	} {
		if ok := c.publish(owner.edit(t, id, bad...)); ok.OK {
			t.Fatalf("9002 %v accepted", bad)
		}
	}
	if got := c.state(kindGroupMetadata, id); got.ID != meta.ID {
		t.Fatalf("a rejected 9002 republished 39000: %v", got.Tags)
	}
	c.mustPublish(owner.edit(t, id, nostr.Tag{"t", "new"}))
	c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "renamed"}))
	if got := identitySeqOf(c.state(kindGroupMembers, id)); !slices.Equal(got, []string{"t:forum", "t:new", "P:" + owner.pk}) {
		t.Fatalf("after replace and rename: %v", got)
	}
	c.mustPublish(owner.edit(t, id, nostr.Tag{"t", ""}, nostr.Tag{"t", ""}))
	if got := identitySeqOf(c.state(kindGroupMetadata, id)); !slices.Equal(got, []string{"t:forum", "P:" + owner.pk}) {
		t.Fatalf("after clear: %v", got)
	}
	if got := c.state(kindGroupMetadata, id).Tags.Find("created_at"); got == nil || got[1] != created[1] {
		t.Fatalf("created_at tag changed: %v -> %v", created, got)
	}
}

func TestIdentitySystemReadsAndNotices(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "identity"})
	owner, member := newActor(t), newActor(t)
	co, cm := dial(t, url), dial(t, url)
	co.auth(owner)
	cm.auth(member)
	sys, stream := newChannelID(), newChannelID()
	co.mustPublish(owner.create(t, sys, nostr.Tag{"channel_type", "system"}))
	co.mustPublish(owner.create(t, stream))
	for _, id := range []string{sys, stream} {
		co.mustPublish(owner.put(t, id, member.pk, roleMember))
	}
	if !slices.ContainsFunc(co.state(kindGroupMetadata, sys).Tags, func(tag nostr.Tag) bool { return len(tag) == 1 && tag[0] == "hidden" }) {
		t.Fatal("private system channel lacks hidden")
	}
	chans := func(evs []nostr.Event) []string {
		var out []string
		for _, ev := range evs {
			out = append(out, ev.Tags.GetD())
		}
		slices.Sort(out)
		return out
	}
	mine := nostr.Filter{Kinds: []int{kindGroupMembers}, Tags: nostr.TagMap{"p": {member.pk}}}
	if got := chans(cm.query(mine)); !slices.Equal(got, []string{stream}) {
		t.Fatalf("39002 #p:[me] = %v, want only the stream", got)
	}
	if n := cm.count(mine); n != 1 {
		t.Fatalf("COUNT 39002 #p:[me] = %d", n)
	}
	mine.Tags["t"] = []string{"system"}
	if got := chans(cm.query(mine)); !slices.Equal(got, []string{sys}) {
		t.Fatalf("39002 #p:[me] #t:[system] = %v", got)
	}
	named := nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": {sys}}}
	if got := cm.query(named); len(got) != 1 {
		t.Fatalf("member naming the system channel got %d events", len(got))
	}
	named.Kinds = append(named.Kinds, kindChatMessage)
	if got := cm.query(named); len(got) != 0 {
		t.Fatalf("#d with kind 9 named the system channel: %d events", len(got))
	}

	notices := nostr.Filter{Kinds: []int{kindMemberAdded, kindMemberRemoved}, Tags: nostr.TagMap{"p": {member.pk}}}
	if got := cm.query(notices); len(got) != 1 || got[0].Tags.Find("h")[1] != stream {
		t.Fatalf("notices without #t: %v", got)
	}
	notices.Tags["t"] = []string{"stream", "system"}
	got := cm.query(notices)
	if len(got) != 2 {
		t.Fatalf("notices with #t: %d", len(got))
	}
	if other := co.query(nostr.Filter{IDs: []string{got[0].ID, got[1].ID}}); len(other) != 0 {
		t.Fatalf("the owner read the member's notices by id: %d", len(other))
	}
	// A removed member still gets the 44101 of a private channel.
	co.mustPublish(owner.remove(t, sys, member.pk))
	if got := cm.query(nostr.Filter{Kinds: []int{kindMemberRemoved}, Tags: nostr.TagMap{"p": {member.pk}, "t": {"system"}}}); len(got) != 1 {
		t.Fatalf("removed member's 44101: %d", len(got))
	}
}
