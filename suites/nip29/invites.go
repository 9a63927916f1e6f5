package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// invitesSpecs are the cases of nip29/invites.
func invitesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/invites/1", framework.SHOULD,
			"After the group owner's accepted 9009 create-invite, a join request carrying that code to the closed group is accepted and the user is added.",
			"nip29/invites.1").
			WithReading("Invites are optional: a relay that refuses the owner's 9009 does not support them (unsupported). Once it accepted one, \"join requests are not honored unless they include an invite code\" and the code \"preauthorize[s] acceptance\": a refusal of the invited join fails at SHOULD."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				code := t.Unique("invite")
				if ok := t.Publish(owner, fixtures.CreateInvite(owner.Actor(), ch, code)); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refused the group owner's 9009 create-invite (" + ok.String() + "); NIP-29 invites are optional")
				}
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, code))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates("nip29/invites.1", "NIP-29 (nip29/invites.1): the relay accepted a 9009 creating code %q, but refused a join request carrying it to the closed group: %s", code, ok)
				}
				awaitMember(t, owner, ch, joiner.Actor().PubKey, true, "NIP-29 (nip29/invites.1, nip29/join.1): the invited join request was accepted, so the user must have been added")
			}},
		{Case: framework.NewCase("base/invites/2", framework.MUST,
			"A join request to a closed group carrying a code that no 9009 created is refused and the user is not added, even while the group has an invite.",
			"nip29/invites.2").
			WithReading("The owner first tries to create an invite with another code, so that a relay supporting invites has one in play; whether it accepted is noted."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				issued := t.Unique("invite")
				if ok := t.Publish(owner, fixtures.CreateInvite(owner.Actor(), ch, issued)); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the owner's 9009 create-invite: %s", ok)
				}
				joiner := t.Connect(t.Actor("joiner"))
				wrong := t.Unique("guessed")
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, wrong))
				if ok.Accepted {
					t.Violates("nip29/invites.2", "NIP-29 (nip29/invites.2): a closed group's join requests are not honoured without an invite code, and code %q was never created by a 9009; the request was accepted: %s", wrong, ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), joiner.Actor().PubKey); found {
					t.Violates("nip29/invites.2", "NIP-29 (nip29/invites.2): the refused join request with an unknown code still added the user to the closed group")
				}
				t.Note("the refusal: %s", ok)
			}},
		{Case: framework.NewCase("base/invites/3", framework.SHOULD,
			"A 9009 create-invite from a member without a privileged role is refused, and a join request carrying its code to the closed group is refused too.",
			"nip29/invites.3"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				member := t.Connect(t.ActorAs(framework.KindUnprivileged, "member"))
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, t.PutRoles(owner, ch, "member")...), "put user as member")
				code := t.Unique("member-invite")
				t.Reject(member, fixtures.CreateInvite(member.Actor(), ch, code), "", "NIP-29 (nip29/invites.3): moderation events must come from an authorized admin; a plain member's 9009 create-invite")
				friend := t.Connect(t.Actor("friend"))
				ok := t.Publish(friend, fixtures.JoinRequest(friend.Actor(), ch, code))
				if ok.Accepted {
					t.Violates("nip29/invites.3", "NIP-29 (nip29/invites.3): the plain member's 9009 was refused, yet a join request carrying its code %q to the closed group was accepted: %s", code, ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
	}
}

// containsID reports whether evs holds an event with that id.
func containsID(evs []*nostr.Event, id string) bool {
	for _, ev := range evs {
		if ev.ID == id {
			return true
		}
	}
	return false
}
