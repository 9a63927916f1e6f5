package nip29

import (
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// deleteSpecs are the cases of nip29/delete: 9008 delete-group: the creator's delete removes the group's 39000; a member without a role may not delete it.
func deleteSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/delete/1", framework.MUST,
			"The creator's 9008 is accepted and the group's 39000 is no longer served (harness precondition: safe mode cleans up with it).",
			"nip29/delete.1", "labels/scope.10"),
			Run: func(t *framework.T) {
				t.Checking("nip29/delete.1")
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				ok := t.Publish(owner, fixtures.DeleteChannel(owner.Actor(), ch))
				if !ok.Accepted {
					t.RefusedWrite(framework.PreDeleteGroup, ok, "the creator's 9008")
				}
				t.Track(fixtures.DeleteChannel(owner.Actor(), ch))
				if meta := t.StateEvent(owner, fixtures.KindMetadata, ch); meta != nil {
					t.Blocked(framework.PreDeleteGroup, "the 39000 is still served after an accepted 9008: "+framework.TagsOf(meta))
				}
			}},
		{Case: framework.NewCase("base/delete/2", framework.SHOULD,
			"A 9008 from a member without a role is refused and the group stays.",
			"nip29/delete.2"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMemberKind(t, fixtures.Open, "member", framework.KindUnprivileged)
				t.Reject(member, fixtures.DeleteChannel(member.Actor(), ch), "", "a member without a role deletes the group")
				t.Expect(t.StateEvent(owner, fixtures.KindMetadata, ch)).NotTo(BeNil(), "the group's 39000 after the refused 9008")
			}},
	}
}
