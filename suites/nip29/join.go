package nip29

import (
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// joinSpecs are the cases of nip29/join.
func joinSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/join/1", framework.MUST,
			"A join request to an open group is either refused (OK false) or accepted with the user added to the group.",
			"nip29/join.1").
			WithReading("An accepted 9021 means admission; the relay may add the user in the same step or publish the 9000 a moment later, so the 39002 is awaited within the step deadline. NIP-29 lets the relay admit at once or defer every request to an administrator (a refusal then): both pass, noted as reading nip29-join-open-group=admit or review."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, ""))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the join request: %s (NIP-29 allows review or refusal)", ok)
					t.Reading(clause.ReadingNIP29JoinOpen, "review")
					return
				}
				awaitMember(t, owner, ch, joiner.Actor().PubKey, true, "NIP-29 (nip29/join.1): the join request was accepted, so the user must have been added")
				t.Reading(clause.ReadingNIP29JoinOpen, "admit")
			}},
		{Case: framework.NewCase("base/join/2", framework.MUST,
			"A join request from a current member is refused with the duplicate: prefix.",
			"nip29/join.2", "nip01/ok-prefix.1"),
			Run: func(t *framework.T) {
				t.Checking("nip29/join.2")
				_, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				t.Reject(member, fixtures.JoinRequest(member.Actor(), ch, ""), "duplicate:", "NIP-29 (nip29/join.2): a member's join request")
			}},
		{Case: framework.NewCase("base/join/3", framework.MUST,
			"A join request without an invite code to a closed group is refused and the user is not added.",
			"nip29/join.3"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, ""))
				if ok.Accepted {
					t.Violates("nip29/join.3", "NIP-29 (nip29/join.3): join requests to a closed group are not honoured, and a request that does not add the user must be rejected; it was accepted: %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), joiner.Actor().PubKey); found {
					t.Violates("nip29/join.3", "NIP-29 (nip29/join.3): the refused join request to the closed group still added the user")
				}
			}},
	}
}
