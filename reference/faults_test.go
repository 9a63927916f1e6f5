package reference

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// faultProbe reports whether the behaviour a fault breaks is broken on a
// running relay. Each probe runs twice: fault off (must be false) and fault
// on (must be true).
type faultProbe func(t *testing.T, r *Relay, url string) bool

var faultProbes = map[FaultName]faultProbe{
	faultLimitBeforeAccess: func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		open := newChannelID()
		co.mustPublish(owner.create(t, open))
		co.mustPublish(owner.msg(t, open, "old", -500))
		priv := newChannelID()
		co.mustPublish(owner.create(t, priv, nostr.Tag{"visibility", "private"}))
		for i := 0; i < 3; i++ {
			co.mustPublish(owner.msg(t, priv, "new", int64(-10+i)))
		}
		return len(cx.query(nostr.Filter{Kinds: []int{9}, Limit: 1})) != 1
	},
	faultStateSignedByOtherKey: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		meta := c.state(kindGroupMetadata, id)
		ok, _ := meta.CheckSignature()
		return !ok || meta.PubKey != r.PubKey()
	},
	faultPrivateMessagesReadable: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		co, anon := dial(t, url), dial(t, url)
		co.auth(owner)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		co.mustPublish(owner.msg(t, id, "secret", 0))
		return len(anon.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}})) > 0
	},
	faultNoSignatureCheck: func(t *testing.T, r *Relay, url string) bool {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		ev := a.event(t, 1, nil, "x", 0)
		ev.Sig = strings.Repeat("1", 128)
		return c.publish(ev).OK
	},
	faultStaleReplacementTimestmp: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		before := c.state(kindGroupMetadata, id).CreatedAt
		c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "other"}))
		return c.state(kindGroupMetadata, id).CreatedAt <= before
	},
	faultAdminsWithoutRoles: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		for _, tg := range c.state(kindGroupAdmins, id).Tags {
			if len(tg) == 2 && tg[0] == "p" {
				return true
			}
		}
		return false
	},
	faultMemberCanEdit: func(t *testing.T, r *Relay, url string) bool {
		owner, member := newActor(t), newActor(t)
		co, cm := dial(t, url), dial(t, url)
		co.auth(owner)
		cm.auth(member)
		id := newChannelID()
		co.mustPublish(owner.create(t, id))
		co.mustPublish(owner.put(t, id, member.pk, roleMember))
		return cm.publish(member.edit(t, id, nostr.Tag{"name", "mine"})).OK
	},
	faultOKWithoutPrefix: func(t *testing.T, r *Relay, url string) bool {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		ev := a.create(t, newChannelID())
		ev.Content = "tampered after signing"
		ok := c.publish(ev)
		return !ok.OK && !strings.Contains(ok.Reason, ":")
	},
	faultCountIgnoresAccess: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		co, anon := dial(t, url), dial(t, url)
		co.auth(owner)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		co.mustPublish(owner.msg(t, id, "secret", 0))
		return anon.count(nostr.Filter{Tags: nostr.TagMap{"h": {id}}}) > 0
	},
	faultLimitBeforeFilter: func(t *testing.T, r *Relay, url string) bool {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		c.mustPublish(a.event(t, 1, nostr.Tags{{"t", "needle"}}, "old", -300))
		for i := 0; i < 3; i++ {
			c.mustPublish(a.event(t, 1, nostr.Tags{{"t", "hay"}}, "new", int64(-10+i)))
		}
		return len(c.query(nostr.Filter{Tags: nostr.TagMap{"t": {"needle"}}, Limit: 1})) != 1
	},
	faultClosedFlagInverted: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.bare(t, id))
		c.mustPublish(owner.edit(t, id, nostr.Tag{"closed"}))
		return !hasFlag(c.state(kindGroupMetadata, id), "closed")
	},
	faultMetadataFieldDropped: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.bare(t, id))
		c.mustPublish(owner.edit(t, id, nostr.Tag{"about", "pizza"}, nostr.Tag{"picture", "https://pizza.example/p.png"}))
		meta := c.state(kindGroupMetadata, id)
		return tagValue(meta, "about") != "pizza" || tagValue(meta, "picture") != "https://pizza.example/p.png"
	},
	faultJoinMemberNotDuplicate: func(t *testing.T, r *Relay, url string) bool {
		owner, member := newActor(t), newActor(t)
		co, cm := dial(t, url), dial(t, url)
		co.auth(owner)
		cm.auth(member)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		co.mustPublish(owner.put(t, id, member.pk, ""))
		ok := cm.publish(member.join(t, id))
		return ok.OK || !strings.HasPrefix(ok.Reason, "duplicate: ")
	},
	faultJoinAcceptedNotAdmitted: func(t *testing.T, r *Relay, url string) bool {
		owner, joiner := newActor(t), newActor(t)
		co, cj := dial(t, url), dial(t, url)
		co.auth(owner)
		cj.auth(joiner)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		co.mustPublish(owner.edit(t, id, nostr.Tag{"closed"}))
		ok := cj.publish(joiner.join(t, id))
		return ok.OK && !hasPTag(co.state(kindGroupMembers, id), joiner.pk, roleMember)
	},
	faultLeaveIgnored: func(t *testing.T, r *Relay, url string) bool {
		owner, member := newActor(t), newActor(t)
		co, cm := dial(t, url), dial(t, url)
		co.auth(owner)
		cm.auth(member)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		co.mustPublish(owner.put(t, id, member.pk, ""))
		cm.mustPublish(member.leave(t, id))
		return hasPTag(co.state(kindGroupMembers, id), member.pk, roleMember)
	},
	faultHiddenMetadataServed: func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		co.mustPublish(owner.edit(t, id, nostr.Tag{"hidden"}))
		return cx.state(kindGroupMetadata, id) != nil
	},
	faultRestrictedWritesAccepted: func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.bare(t, id))
		co.mustPublish(owner.edit(t, id, nostr.Tag{"restricted"}))
		return cx.publish(outsider.msg(t, id, "not a member", 0)).OK
	},
	faultAuthEventBroadcast: func(t *testing.T, r *Relay, url string) bool {
		return authEventDelivered(t, url)
	},
	faultRolesNotRelaySigned: func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.bare(t, id))
		roles := c.state(kindGroupRoles, id)
		if roles == nil {
			t.Fatal("no 39003")
		}
		ok, _ := roles.CheckSignature()
		return !ok || roles.PubKey != r.PubKey()
	},
}

func TestEveryFaultToggles(t *testing.T) {
	for _, f := range Faults() {
		probe, ok := faultProbes[FaultName(f.Name)]
		if !ok {
			if f.Profile == "" {
				t.Errorf("core fault %s has no probe", f.Name)
			} else {
				t.Logf("profile fault %s has no probe here (covered by the kill test)", f.Name)
			}
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			profile := f.Profile
			if profile == "" {
				profile = "none"
			}
			for _, on := range []bool{false, true} {
				cfg := Config{Profile: profile}
				if on {
					cfg.Faults = []string{f.Name}
				}
				r, url := startRelay(t, cfg)
				if broken := probe(t, r, url); broken != on {
					t.Fatalf("fault on=%v: behaviour broken=%v", on, broken)
				}
			}
		})
	}
}
