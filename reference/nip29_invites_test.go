package reference

import (
	"maps"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func init() { maps.Copy(faultProbes, nip29GroupProbes) }

// closedGroup creates a closed group owned by owner on c and returns its id.
func closedGroup(t *testing.T, c *client, owner actor) string {
	t.Helper()
	id := "closed-" + newChannelID()[:8]
	c.mustPublish(owner.bare(t, id))
	c.mustPublish(owner.edit(t, id, nostr.Tag{"closed"}))
	return id
}

// invite builds a 9009 create-invite with one code.
func (a actor) invite(t *testing.T, id, code string) *nostr.Event {
	return a.event(t, kindCreateInvite, nostr.Tags{{"h", id}, {"code", code}}, "", 0)
}

// nip29GroupProbes are the fault probes of nip29_invites.go's faults.
var nip29GroupProbes = map[FaultName]faultProbe{
	faultGroupIDUUIDOnly: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		return !c.publish(owner.bare(t, "pizza-lovers")).OK
	},
	faultInviteCodeIgnored: func(t *testing.T, r *Relay, url string) bool {
		owner, joiner := newActor(t), newActor(t)
		co, cj := dial(t, url), dial(t, url)
		co.auth(owner)
		cj.auth(joiner)
		id := closedGroup(t, co, owner)
		co.mustPublish(owner.invite(t, id, "welcome"))
		return !cj.publish(joiner.join(t, id, nostr.Tag{"code", "welcome"})).OK
	},
	faultJoinAnyCodeAdmits: func(t *testing.T, r *Relay, url string) bool {
		owner, joiner := newActor(t), newActor(t)
		co, cj := dial(t, url), dial(t, url)
		co.auth(owner)
		cj.auth(joiner)
		id := closedGroup(t, co, owner)
		co.mustPublish(owner.invite(t, id, "welcome"))
		return cj.publish(joiner.join(t, id, nostr.Tag{"code", "guessed"})).OK
	},
	faultMemberCanInvite: func(t *testing.T, r *Relay, url string) bool {
		owner, member := newActor(t), newActor(t)
		co, cm := dial(t, url), dial(t, url)
		co.auth(owner)
		cm.auth(member)
		id := closedGroup(t, co, owner)
		co.mustPublish(owner.put(t, id, member.pk, ""))
		return cm.publish(member.invite(t, id, "friends")).OK
	},
	faultClosedRestrictsWrites: func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := closedGroup(t, co, owner)
		return !cx.publish(outsider.msg(t, id, "hello", 0)).OK
	},
}

// TestInvites: a 9009's code admits to a closed group (user added, relay
// 9000 issued); no code or another code is refused and adds nobody; only
// owners and admins create invites; a closed group takes non-members'
// messages.
func TestInvites(t *testing.T) {
	r, url := startRelay(t, Config{Profile: "nip29"})
	owner, member, joiner, stranger := newActor(t), newActor(t), newActor(t), newActor(t)
	co, cm, cj, cs := dial(t, url), dial(t, url), dial(t, url), dial(t, url)
	co.auth(owner)
	cm.auth(member)
	cj.auth(joiner)
	cs.auth(stranger)
	id := closedGroup(t, co, owner)
	co.mustPublish(owner.put(t, id, member.pk, ""))

	for _, tc := range []struct {
		name string
		c    *client
		ev   *nostr.Event
		want string
	}{
		{"member invites", cm, member.invite(t, id, "x"), "restricted:"},
		{"no code tag", co, owner.event(t, kindCreateInvite, nostr.Tags{{"h", id}}, "", 0), "invalid:"},
		{"empty code", co, owner.invite(t, id, ""), "invalid:"},
		{"join without code", cs, stranger.join(t, id), "restricted:"},
		{"join with unknown code", cs, stranger.join(t, id, nostr.Tag{"code", "welcome"}), "restricted:"},
	} {
		ok := tc.c.publish(tc.ev)
		if ok.OK || !strings.HasPrefix(ok.Reason, tc.want) {
			t.Errorf("%s: %v %q, want false %q", tc.name, ok.OK, ok.Reason, tc.want)
		}
	}
	co.mustPublish(owner.invite(t, id, "welcome"))
	cj.mustPublish(joiner.join(t, id, nostr.Tag{"code", "welcome"}))
	if !hasPTag(co.state(kindGroupMembers, id), joiner.pk, roleMember) {
		t.Fatal("the invited joiner is not in 39002")
	}
	puts := co.query(nostr.Filter{Kinds: []int{kindPutUser}, Tags: nostr.TagMap{"h": {id}, "p": {joiner.pk}}})
	if len(puts) != 1 || puts[0].PubKey != r.PubKey() {
		t.Fatalf("relay-signed 9000 for the invited joiner: %d events %v", len(puts), puts)
	}
	if hasPTag(co.state(kindGroupMembers, id), stranger.pk, roleMember) {
		t.Fatal("a refused join added the stranger")
	}
	// closed is not restricted: a non-member writes.
	cs.mustPublish(stranger.msg(t, id, "hello from outside", 0))
}
