package nip29

import (
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// permissionsSpecs are the cases of nip29/permissions: a key without a role may neither edit a group's metadata nor put users in it.
func permissionsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/permissions/1", framework.SHOULD,
			"A 9002 from a member without a role is refused and the name stays.",
			"nip29/permissions.2"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMemberKind(t, fixtures.Open, "member", framework.KindUnprivileged)
				before := framework.TagOf(t.GroupMetadata(owner, ch), "name")
				t.Reject(member, fixtures.EditGroup(member.Actor(), ch, fixtures.GroupMetadata{Name: "member-rename"}), "", "a member without a role edits metadata")
				t.Expect(framework.TagOf(t.GroupMetadata(owner, ch), "name")).To(Equal(before), "the name after the refused edit")
			}},
		{Case: framework.NewCase("base/permissions/2", framework.MUST,
			"A 9000 from a key with no role in the group is refused and the named user does not become a member.",
			"nip29/permissions.1").
			WithReading(outsiderModerationReading),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				outsider := t.Connect(t.Actor("outsider"))
				friend := t.Actor("friend")
				t.Reject(outsider, fixtures.PutUser(outsider.Actor(), ch, friend.PubKey, t.PutRoles(owner, ch, "admin")...), "", "an outsider puts a user")
				for _, k := range []int{fixtures.KindMembers, fixtures.KindAdmins} {
					if found, _ := framework.HasP(t.StateEvent(owner, k, ch), friend.PubKey); found {
						t.Violates("nip29/permissions.1", "NIP-29 (nip29/permissions.1): the outsider's refused 9000 still added its friend to kind %d", k)
					}
				}
			}},
	}
}
