package nip29

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// baselineGroupIDInviteSpecs: NIP-29 group ids ("a random string of any
// length"), invites (9009 create-invite and the code of a 9021 join request
// to a closed group) and what the closed flag does not do (restrict writes).
func baselineGroupIDInviteSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/group-ids/1", Clauses: []string{"nip29/group-ids.1"}, Area: "group-ids", Section: "nip29/group-ids", Level: framework.SHOULD,
			Requirement: "A group with an ordinary, non-UUID id is created by a bare 9007, and its creator's message to it is accepted and served by #h.",
			Reading:     "NIP-29 gives group ids no format (\"a random string of any length\") and no duty to create groups: a relay that creates groups for UUID ids but refuses an ordinary id narrows the id space the NIP defines; the case runs at SHOULD. The labels draft requires UUIDs for its h-tagged creation, so under --profile labels the case is unsupported."},
			Run: func(t *framework.T) {
				if t.Env.Profile == framework.ProfileLabels {
					t.Unsupported("the labels profile requires a UUID for every h-tagged 9007 (nip-cl-labels.md), so an ordinary group id is checked in the nip29 and identity profiles")
				}
				c := t.Connect(t.Actor("owner"))
				id := t.Unique("pizza-lovers")
				ok := t.Publish(c, fixtures.CreateGroup(c.Actor(), id))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					// Observe whether the relay creates groups at all:
					// the same bare 9007 with a UUID id.
					probe := t.Publish(c, fixtures.CreateGroup(c.Actor(), fixtures.NewChannelID()))
					if !probe.Accepted {
						t.RefusedWrite(framework.PreCreateGroup, probe, "bare 9007 create-group with a UUID id")
					}
					framework.Failf("NIP-29 (nip29/group-ids.1): groups are identified by a random string of any length; the relay created a group with a UUID id but refused the id %q: %s", id, ok)
				}
				meta := t.GroupMetadata(c, id)
				if d := framework.TagOf(meta, "d"); d != id {
					framework.Failf("NIP-29 (nip29/group-ids.1): the 39000 of group %q has d = %q", id, d)
				}
				msg := fixtures.Message(c.Actor(), id, "hello "+id)
				t.Accept(c, msg, "the creator's message to the group with id "+id)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {id}}})
				if !containsID(got, msg.ID) {
					framework.Failf("NIP-29 (nip29/group-ids.1): the accepted message to group %q is not served by #h (got %v)", id, framework.IDs(got))
				}
			}},
		{Case: framework.Case{ID: "base/invites/1", Clauses: []string{"nip29/invites.1"}, Area: "invites", Section: "nip29/invites", Level: framework.SHOULD,
			Requirement: "After the group owner's accepted 9009 create-invite, a join request carrying that code to the closed group is accepted and the user is added.",
			Reading:     "Invites are optional: a relay that refuses the owner's 9009 does not support them (unsupported). Once it accepted one, \"join requests are not honored unless they include an invite code\" and the code \"preauthorize[s] acceptance\": a refusal of the invited join fails at SHOULD."},
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
					framework.Failf("NIP-29 (nip29/invites.1): the relay accepted a 9009 creating code %q, but refused a join request carrying it to the closed group: %s", code, ok)
				}
				awaitMember(t, owner, ch, joiner.Actor().PubKey, true, "NIP-29 (nip29/invites.1, nip29/join.1): the invited join request was accepted, so the user must have been added")
			}},
		{Case: framework.Case{ID: "base/invites/2", Clauses: []string{"nip29/invites.2"}, Area: "invites", Section: "nip29/invites", Level: framework.MUST,
			Requirement: "A join request to a closed group carrying a code that no 9009 created is refused and the user is not added, even while the group has an invite.",
			Reading:     "The owner first tries to create an invite with another code, so that a relay supporting invites has one in play; whether it accepted is noted."},
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
					framework.Failf("NIP-29 (nip29/invites.2): a closed group's join requests are not honoured without an invite code, and code %q was never created by a 9009; the request was accepted: %s", wrong, ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), joiner.Actor().PubKey); found {
					framework.Failf("NIP-29 (nip29/invites.2): the refused join request with an unknown code still added the user to the closed group")
				}
				t.Note("the refusal: %s", ok)
			}},
		{Case: framework.Case{ID: "base/invites/3", Clauses: []string{"nip29/invites.3"}, Area: "invites", Section: "nip29/invites", Level: framework.SHOULD,
			Requirement: "A 9009 create-invite from a member without a privileged role is refused, and a join request carrying its code to the closed group is refused too."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				member := t.Connect(t.Actor("member"))
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, t.PutRole(owner, ch, "member")), "put user as member")
				code := t.Unique("member-invite")
				t.Reject(member, fixtures.CreateInvite(member.Actor(), ch, code), "", "NIP-29 (nip29/invites.3): moderation events must come from an authorized admin; a plain member's 9009 create-invite")
				friend := t.Connect(t.Actor("friend"))
				ok := t.Publish(friend, fixtures.JoinRequest(friend.Actor(), ch, code))
				if ok.Accepted {
					framework.Failf("NIP-29 (nip29/invites.3): the plain member's 9009 was refused, yet a join request carrying its code %q to the closed group was accepted: %s", code, ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.Case{ID: "base/restricted/2", Clauses: []string{"nip29/restricted.2"}, Area: "read-access", Section: "nip29/restricted", Level: framework.MUST,
			Requirement: "A non-member's message to a closed group that is neither restricted nor private is accepted, as it is in a group without flags.",
			Reading:     "\"restricted indicates that only members can write ... Omitting this tag indicates that anyone can send messages\"; closed only says join requests are ignored. The same non-member first writes to a group without flags: when even that is refused, the relay's refusal is not about closed and the case is unsupported."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				plain := t.CreateChannel(owner, fixtures.ChannelSpec{})
				closed := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				meta := t.RequireFlags(owner, closed, fixtures.FlagClosed)
				if fixtures.HasFlag(meta, fixtures.FlagRestricted) || fixtures.HasFlag(meta, fixtures.FlagPrivate) {
					framework.Failf("NIP-29 (nip29/metadata.2): the group set only closed also shows restricted or private (39000 tags: %s)", framework.TagsOf(meta))
				}
				outsider := t.Connect(t.Actor("outsider"))
				if ok := t.Publish(outsider, fixtures.Message(outsider.Actor(), plain, "to a group without flags")); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refuses a non-member's message even to a group without flags (" + ok.String() + "), so what closed does to writes cannot be told apart")
				}
				ok := t.Publish(outsider, fixtures.Message(outsider.Actor(), closed, "to a closed group"))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					framework.Failf("NIP-29 (nip29/restricted.2): only restricted limits writing to members (\"Omitting this tag indicates that anyone can send messages\"); closed limits joining. The non-member's message to the closed, unrestricted group was refused (while one to a group without flags was accepted): %s", ok)
				}
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
