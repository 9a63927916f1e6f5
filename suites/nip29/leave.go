package nip29

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// leaveSpecs are the cases of nip29/leave.
func leaveSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/ties/1", framework.MUST,
			"A member's leave request in the same second as the 9000 that added the member, its id sorting first, removes the member.",
			"nip29/leave.3").
			WithReading("With equal created_at the leave is the latest both by arrival and by NIP-01's lowest-id rule; no careful reading lets the earlier put win."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				member := t.Connect(t.Actor("member"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				pk := member.Actor().PubKey
				at := t.SameSecond(ch)
				put := signTie(owner.Actor(), t.Timeline(owner, fixtures.PutUser(owner.Actor(), ch, pk, "")), at, "", false)
				t.Accept(owner, put, "put the member (the leave follows in the same second)")
				framework.RequireListed(t, owner, ch, pk)
				// Signed once the put is stored: timeline references, where
				// the relay enforces them, may then name it.
				leave := signTie(member.Actor(), t.Timeline(member, fixtures.LeaveRequest(member.Actor(), ch)), at, put.ID, true)
				t.Note("%s", tieNote("put then leave", put, leave))
				ok := t.Publish(member, leave)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates("nip29/leave.3", "NIP-29 (nip29/leave.3): any member can send a leave request to be removed, and the 39002 listed this member; the same-second leave was refused: %s", ok)
				}
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/leave.3): the member whose same-second leave was accepted")
			}},
		{Case: framework.NewCase("base/leave/1", framework.MUST,
			"A member's leave request removes the member from the group.",
			"nip29/leave.1").
			WithReading("Level: \"Any user can send one of these events to the relay in order to be automatically removed from the group\" has no keyword; it defines what 9022 does, as the moderation table defines 9000 and 9001, and \"automatically\" leaves no admin's decision between the request and the removal (unlike 9021, where the text lets the relay defer). Held at MUST: a member's refused leave, or an accepted one that leaves the member listed, denies the event its only defined effect. Whether the relay removes the member through its own 9001 (\"The relay will automatically issue a kind:9001\") is base/leave/2's point. The member needs no particular power (\"Any user\"), so any admitted key plays it."),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				// The precondition, judged before the step: 39002 lists the member.
				framework.RequireListed(t, owner, ch, pk)
				ok := t.Publish(member, fixtures.LeaveRequest(member.Actor(), ch))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates("nip29/leave.1", "NIP-29 (nip29/leave.1): any member can send a leave request to be removed; it was refused: %s", ok)
				}
				// After the step nothing blocks: a lost leave is a failure.
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/leave.1): the member who asked to leave")
			}},
		{Case: framework.NewCase("base/leave/2", framework.SHOULD,
			"The relay answers an honoured leave request with a 9001 removing the user.",
			"nip29/leave.2"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				t.Accept(member, fixtures.LeaveRequest(member.Actor(), ch), "leave request")
				f := nostr.Filter{Kinds: []int{fixtures.KindRemoveUser}, Tags: nostr.TagMap{"h": {ch}, "p": {pk}}}
				t.Eventually(func(g Gomega) {
					r, err := owner.Query(t.Ctx(), f)
					g.Expect(err).NotTo(HaveOccurred())
					g.Expect(r.Closed).To(BeFalse(), "REQ %s answered CLOSED %q", f, r.ClosedReason)
					t.Checking("nip29/leave.2")
					g.Expect(r.Events).NotTo(BeEmpty(), "NIP-29 (nip29/leave.2): no 9001 removing the user who left")
				}, "the relay's 9001 after the leave request")
			}},
	}
}
