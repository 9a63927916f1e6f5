package suites

import (
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// channelWithMember creates a channel owned by a fresh owner and adds a
// member with the given role. It returns both connections and the UUID.
func channelWithMember(t *T, visibility, role string) (owner, member *fixtures.Client, ch string) {
	owner = t.Connect(t.Actor("owner"))
	member = t.Connect(t.Actor(role))
	ch = t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: visibility})
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, role), "put user as "+role)
	return owner, member, ch
}

// baselineGroupSpecs: the NIP-29 prerequisites of the target contract.
func baselineGroupSpecs() []Spec {
	return []Spec{
		{Case{ID: "base/create/1", Area: "groups", Section: "nip29/create", Level: MUST,
			Requirement: "A 9007 with a fresh client-chosen UUID is accepted and yields a 39000 whose d tag is that UUID and whose name is the requested one."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				name := t.Unique("created")
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Name: name, Visibility: fixtures.Open})
				meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				Expect(tagOf(meta, "name")).To(Equal(name), "39000 name tag")
			}},
		{Case{ID: "base/create/2", Area: "groups", Section: "nip29/create", Level: MUST,
			Requirement: "The creator of a channel is listed as a member (39002) and as an admin (39001) with role owner."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				found, _ := hasP(t.MustStateEvent(c, fixtures.KindMembers, ch), c.Actor().PubKey)
				Expect(found).To(BeTrue(), "39002 lists the creator")
				found, roles := hasP(t.MustStateEvent(c, fixtures.KindAdmins, ch), c.Actor().PubKey)
				Expect(found).To(BeTrue(), "39001 lists the creator")
				Expect(roles).To(ContainElement("owner"), "creator's role in 39001")
			}},
		{Case{ID: "base/create/3", Area: "groups", Section: "nip29/create", Level: MUST,
			Requirement: "A 9007 on a UUID that already exists is rejected and changes nothing."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				name := t.Unique("first")
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Name: name, Visibility: fixtures.Open})
				other := t.Connect(t.Actor("other"))
				t.Reject(other, fixtures.CreateChannel(other.Actor(), &fixtures.ChannelSpec{ID: ch, Name: "hijack"}), "", "second create on the same UUID")
				Expect(tagOf(t.MustStateEvent(c, fixtures.KindMetadata, ch), "name")).To(Equal(name), "name unchanged")
			}},
		{Case{ID: "base/state/1", Area: "state-events", Section: "nip29/state-events", Level: MUST,
			Requirement: "39000, 39001 and 39002 of a channel are signed by the relay key with a valid id and signature."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
					t.RequireRelaySigned(t.MustStateEvent(c, k, ch))
				}
			}},
		{Case{ID: "base/state/2", Area: "state-events", Section: "nip29/state-events", Level: MUST,
			Requirement: "A replacement state event has a strictly greater created_at than the one it replaces."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				prev := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				prevMembers := t.MustStateEvent(c, fixtures.KindMembers, ch)
				for i := 0; i < 3; i++ {
					t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("rename")}), "rename")
					cur := t.MustStateEvent(c, fixtures.KindMetadata, ch)
					Expect(cur.ID).NotTo(Equal(prev.ID), "edit publishes a new 39000")
					Expect(cur.CreatedAt).To(BeNumerically(">", prev.CreatedAt), "39000 created_at strictly increases")
					prev = cur
				}
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("m").PubKey, "member"), "add member")
				cur := t.MustStateEvent(c, fixtures.KindMembers, ch)
				Expect(cur.CreatedAt).To(BeNumerically(">", prevMembers.CreatedAt), "39002 created_at strictly increases")
			}},
		{Case{ID: "base/edit/1", Area: "groups", Section: "nip29/edit", Level: MUST,
			Requirement: "An owner's 9002 changes the channel's name and about in a new 39000."},
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Visibility: fixtures.Open})
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", name}, nostr.Tag{"about", "about " + name}), "edit")
				meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				Expect(tagOf(meta, "name")).To(Equal(name))
				Expect(tagOf(meta, "about")).To(Equal("about " + name))
			}},
		{Case{ID: "base/permissions/1", Area: "permissions", Section: "nip29/permissions", Level: MUST,
			Requirement: "A plain member may not edit channel metadata; the edit is rejected and the name is unchanged."},
			func(t *T) {
				owner, member, ch := channelWithMember(t, fixtures.Open, "member")
				before, _ := fixtures.TagValue(t.MustStateEvent(owner, fixtures.KindMetadata, ch), "name")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, nostr.Tag{"name", "member-rename"}), "", "member edits metadata")
				Expect(tagOf(t.MustStateEvent(owner, fixtures.KindMetadata, ch), "name")).To(Equal(before))
			}},
		{Case{ID: "base/permissions/2", Area: "permissions", Section: "nip29/permissions", Level: MUST,
			Requirement: "A non-member may not add users to a channel."},
			func(t *T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Open})
				outsider := t.Connect(t.Actor("outsider"))
				friend := t.Actor("friend")
				t.Reject(outsider, fixtures.PutUser(outsider.Actor(), ch, friend.PubKey, "admin"), "", "outsider puts a user")
				found, _ := hasP(t.MustStateEvent(owner, fixtures.KindMembers, ch), friend.PubKey)
				Expect(found).To(BeFalse(), "the outsider's friend is not a member")
			}},
		{Case{ID: "base/membership/1", Area: "membership", Section: "nip29/membership", Level: MUST,
			Requirement: "9000 adds a user with the given role to 39002 (and admins to 39001); 9001 removes the user."},
			func(t *T) {
				owner, member, ch := channelWithMember(t, fixtures.Open, "admin")
				pk := member.Actor().PubKey
				found, _ := hasP(t.MustStateEvent(owner, fixtures.KindMembers, ch), pk)
				Expect(found).To(BeTrue(), "39002 lists the new user")
				found, roles := hasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), pk)
				Expect(found).To(BeTrue(), "39001 lists the new admin")
				Expect(roles).To(ContainElement("admin"))
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "remove user")
				found, _ = hasP(t.MustStateEvent(owner, fixtures.KindMembers, ch), pk)
				Expect(found).To(BeFalse(), "39002 no longer lists the removed user")
			}},
		{Case{ID: "base/membership/2", Area: "membership", Section: "nip29/membership", Level: MUST,
			Requirement: "The last owner of a channel cannot be removed."},
			func(t *T) {
				owner, _, ch := channelWithMember(t, fixtures.Open, "admin")
				t.Reject(owner, fixtures.RemoveUser(owner.Actor(), ch, owner.Actor().PubKey), "", "remove the only owner")
				found, roles := hasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), owner.Actor().PubKey)
				Expect(found).To(BeTrue(), "the owner is still listed")
				Expect(roles).To(ContainElement("owner"))
			}},
		{Case{ID: "base/membership/3", Area: "membership", Section: "nip29/membership", Level: MUST,
			Requirement: "Ownership can move: a second owner is added, then the first owner removed."},
			func(t *T) {
				owner, heir, ch := channelWithMember(t, fixtures.Open, "owner")
				t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "new owner removes the first owner")
				found, roles := hasP(t.MustStateEvent(heir, fixtures.KindAdmins, ch), heir.Actor().PubKey)
				Expect(found).To(BeTrue())
				Expect(roles).To(ContainElement("owner"))
			}},
		{Case{ID: "base/read/1", Area: "read-access", Section: "nip29/read-access", Level: MUST,
			Requirement: "A private channel's messages are readable by members and by nobody else."},
			func(t *T) {
				owner, member, ch := channelWithMember(t, fixtures.Private, "member")
				m := fixtures.Message(owner.Actor(), ch, "secret")
				t.Accept(owner, m, "message in the private channel")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				Expect(IDs(t.Query(member, f))).To(ConsistOf(m.ID), "a member reads the message")
				outsider := t.Connect(t.Actor("outsider"))
				Expect(t.Query(outsider, f)).To(BeEmpty(), "an outsider reads nothing by #h")
				Expect(t.Query(outsider, nostr.Filter{IDs: []string{m.ID}})).To(BeEmpty(), "an outsider reads nothing by id")
				Expect(t.Query(t.Connect(nil), f)).To(BeEmpty(), "an anonymous reader reads nothing")
			}},
		{Case{ID: "base/read/2", Area: "read-access", Section: "nip29/read-access", Level: MUST,
			Requirement: "Access rules are applied before limit: newer messages of private channels do not use up an outsider's limit."},
			func(t *T) {
				owner := t.Connect(t.Actor("owner"))
				open := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Open})
				old := owner.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", open}}, "readable")
				t.Accept(owner, old, "older message in the open channel")
				chans := []string{open}
				for i := 0; i < 5; i++ {
					priv := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Private})
					chans = append(chans, priv)
					t.Accept(owner, fixtures.Message(owner.Actor(), priv, fmt.Sprintf("secret %d", i)), "newer private message")
				}
				outsider := t.Connect(t.Actor("outsider"))
				got := t.Query(outsider, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": chans}, Limit: 1})
				Expect(IDs(got)).To(Equal([]string{old.ID}), "limit 1 returns the one message the outsider may read")
			}},
		{Case{ID: "base/read/4", Area: "read-access", Section: "nip29/read-access", Level: MUST,
			Requirement: "Access rules are applied before limit for state events: private channels do not use up an outsider's limit on 39000."},
			func(t *T) {
				owner := t.Connect(t.Actor("owner"))
				open := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Open})
				ids := []string{open}
				for i := 0; i < 5; i++ {
					ids = append(ids, t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Private}))
				}
				outsider := t.Connect(t.Actor("outsider"))
				got := t.Query(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}, Limit: 1})
				Expect(DTags(got)).To(Equal([]string{open}), "limit 1 returns the one channel the outsider may read")
			}},
		{Case{ID: "base/read/3", Area: "read-access", Section: "nip29/read-access", Level: MUST,
			Requirement: "A private channel's 39000 is readable by a member and not by an outsider."},
			func(t *T) {
				owner, member, ch := channelWithMember(t, fixtures.Private, "member")
				_ = owner
				Expect(t.StateEvent(member, fixtures.KindMetadata, ch)).NotTo(BeNil(), "a member reads the 39000")
				Expect(t.StateEvent(t.Connect(t.Actor("outsider")), fixtures.KindMetadata, ch)).To(BeNil(), "an outsider does not")
			}},
		{Case{ID: "base/delete/1", Area: "groups", Section: "nip29/delete", Level: MUST,
			Requirement: "After 9008 the channel's state events are gone and its UUID cannot be created again."},
			func(t *T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Open})
				t.Accept(owner, fixtures.DeleteChannel(owner.Actor(), ch), "delete")
				Expect(t.StateEvent(owner, fixtures.KindMetadata, ch)).To(BeNil(), "no 39000 after delete")
				t.Reject(owner, fixtures.CreateChannel(owner.Actor(), &fixtures.ChannelSpec{ID: ch}), "", "create on a deleted UUID")
				Expect(t.StateEvent(owner, fixtures.KindMetadata, ch)).To(BeNil(), "still no 39000")
			}},
		{Case{ID: "base/delete/2", Area: "groups", Section: "nip29/delete", Level: MUST,
			Requirement: "Only an owner may delete a channel."},
			func(t *T) {
				owner, admin, ch := channelWithMember(t, fixtures.Open, "member")
				t.Reject(admin, fixtures.DeleteChannel(admin.Actor(), ch), "", "member deletes the channel")
				Expect(t.StateEvent(owner, fixtures.KindMetadata, ch)).NotTo(BeNil(), "the channel still exists")
			}},
	}
}
