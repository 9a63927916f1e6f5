package nip29

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// joinSpecs are the cases of nip29/join.
func joinSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/deleted/2", framework.MUST,
			"A join request to a group deleted by an accepted 9008 is rejected, or, if accepted, it added the user (the group's 39002 or a relay-signed 9000 names it).",
			"nip29/join.1").
			WithReading(readingDeletedGroup + " NIP-29: relays MUST reject a join request if the user has not been added to the group; whether a relay re-opens a deleted id to joins is its own, so an accepted join is judged by whether it added the user."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				deletedGroup(t, owner, ch)
				joiner := t.Connect(t.Actor("joiner"))
				pk := joiner.Actor().PubKey
				join := fixtures.JoinRequest(joiner.Actor(), ch, "")
				ok := t.Publish(joiner, join)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the join request to the deleted group was refused: %s", ok)
					return
				}
				t.Track(join)
				added := t.Within(func(g Gomega) {
					if members := t.StateEvent(joiner, fixtures.KindMembers, ch); members != nil && listed(members, pk, nil) {
						return
					}
					puts := t.QueryResult(joiner, nostr.Filter{Kinds: []int{fixtures.KindPutUser}, Tags: nostr.TagMap{"h": {ch}, "p": {pk}}})
					g.Expect(puts.Events).NotTo(BeEmpty())
				})
				if !added {
					t.Violates("nip29/join.1", "NIP-29 (nip29/join.1): relays MUST reject a join request if the user has not been added to the group; the join request to %s, deleted by an accepted 9008, was accepted (%s), yet no 39002 lists %s and no 9000 names it", ch, ok, pk)
				}
				t.Note("the join request to the deleted group was accepted and added the user: the relay re-opened the id")
			}},
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
			"nip29/join.3").
			WithReading("Level: MUST, from the 9021 sentence \"Relays MUST reject the request if the user has not been added to the group\". \"closed indicates that join requests are ignored\" is a definition without a keyword; it only tells that the request does not add the user, and the MUST of the 9021 sentence then requires the rejection. The case judges only after the group's 39000 shows closed (else blocked on flag-closed)."),
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
