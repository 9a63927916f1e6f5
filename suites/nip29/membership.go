package nip29

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// membershipSpecs are the cases of nip29/membership.
func membershipSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/ties/2", framework.SHOULD,
			"A 9001 in the same second as the 9000 that put the user takes the user out when its id sorts first; when its id sorts after, either outcome passes and the reading is noted.",
			"nip29/membership.6").
			WithReading("NIP-29's \"latest of either kind:9000 or kind:9001\" with equal created_at: arrival order or NIP-01's lowest-id rule. Both pass where they disagree; the report notes which the relay showed."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				// Both readings agree: the removal is later and has the lower id.
				a := t.Actor("removed").PubKey
				at := t.SameSecond(ch)
				put := signTie(owner.Actor(), t.Timeline(owner, fixtures.PutUser(owner.Actor(), ch, a, "")), at, "", false)
				rm := signTie(owner.Actor(), t.Timeline(owner, fixtures.RemoveUser(owner.Actor(), ch, a)), at, put.ID, true)
				t.Accept(owner, put, "put the user (the removal follows in the same second)")
				framework.RequireListed(t, owner, ch, a)
				t.Note("%s", tieNote("put then removal", put, rm))
				t.Accept(owner, rm, "remove the user in the same second, its id sorting first")
				framework.AwaitListed(t, owner, ch, a, false, "NIP-29 (nip29/membership.6): the user whose same-second 9001 is the latest by arrival and by id")

				// The readings disagree: the removal is later, the put has the lower id.
				b := t.Actor("contested").PubKey
				at = t.SameSecond(ch)
				put = signTie(owner.Actor(), t.Timeline(owner, fixtures.PutUser(owner.Actor(), ch, b, "")), at, "", false)
				rm = signTie(owner.Actor(), t.Timeline(owner, fixtures.RemoveUser(owner.Actor(), ch, b)), at, put.ID, false)
				t.Accept(owner, put, "put a second user (its removal follows in the same second)")
				framework.RequireListed(t, owner, ch, b)
				t.Note("%s", tieNote("put then removal", put, rm))
				ok := t.Publish(owner, rm)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the same-second removal whose id sorts after the put's: %s (NIP-01's tie rule makes the put the latest)", ok)
				}
				if listed := framework.ListedNow(t, owner, ch, b); listed {
					t.Note("reading seen: %s — the user is still listed at the first read after the removal", tieReadingLowID)
				} else {
					t.Note("reading seen: %s", tieReadingArrival)
				}
			}},
		{Case: framework.NewCase("base/membership/1", framework.SHOULD,
			"9000 adds a user to 39002 and 9001 takes the user out again.",
			"nip29/membership.1", "nip29/membership.2"),
			Run: func(t *framework.T) {
				t.Checking("nip29/membership.1")
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				// The precondition, judged by its own read: the relay publishes 39002.
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				framework.AwaitListed(t, owner, ch, pk, true, "NIP-29 (nip29/membership.1): the user put by the 9000")
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "remove user")
				// After the step nothing blocks: a lost removal is a failure.
				t.Checking("nip29/membership.2")
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/membership.2): the user removed by the 9001")
			}},
		{Case: framework.NewCase("base/membership/4", framework.MUST,
			"A 9000 naming an existing member with a role updates the member's roles: 39001 then lists the role.",
			"nip29/membership.3"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				put := t.PutRoles(owner, ch, "admin")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, put...), "put the existing member again with roles "+framework.RoleSet(put))
				found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), member.Actor().PubKey)
				if !found || !framework.HasRoles(roles, put) {
					t.Violates("nip29/membership.3", "NIP-29 (nip29/membership.3): a 9000 on an existing member must update its roles; 39001 entry after giving %s: found=%v roles=%q", framework.RoleSet(put), found, roles)
				}
			}},
		{Case: framework.NewCase("base/membership/5", framework.SHOULD,
			"A user given the moderating role by 9000 is listed in 39001 with that role.",
			"nip29/membership.4"),
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				put := t.PutRoles(owner, ch, "admin")
				found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), admin.Actor().PubKey)
				if !found || !framework.HasRoles(roles, put) {
					t.Violates("nip29/membership.4", "NIP-29 (nip29/membership.4): the user put with roles %s is not listed in 39001 with them (found=%v roles=%q)", framework.RoleSet(put), found, roles)
				}
			}},
		{Case: framework.NewCase("base/membership/6", framework.SHOULD,
			"A 9000 without roles naming an existing member who holds the moderating role leaves the user a member; its role is either kept or cleared.",
			"nip29/membership.5").
			WithReading("NIP-29: on an existing member \"the user roles must just be updated\"; a 9000 with no roles may keep them (nothing to update) or reset them to none. Both pass, noted as reading nip29-roleless-put-user=keep or reset. A relay may also refuse the no-op 9000; the user must then be unchanged."),
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				pk := admin.Actor().PubKey
				put := t.PutRoles(owner, ch, "admin")
				role := framework.RoleSet(put)
				if found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), pk); !found || !framework.HasRoles(roles, put) {
					t.Blocked(framework.PreModerator, fmt.Sprintf("the user put with roles %s is not listed with them in 39001 (found=%v roles=%q; see base/membership/5)", role, found, roles))
				}
				// Preconditions judged before the step: 39001 (above) and 39002.
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				ok := t.Publish(owner, fixtures.PutUser(owner.Actor(), ch, pk, ""))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the role-less 9000 on an existing member was refused: %s", ok)
				}
				framework.AwaitListed(t, owner, ch, pk, true, "NIP-29 (nip29/membership.5): the existing member named by a role-less 9000")
				admins := t.StateEvent(owner, fixtures.KindAdmins, ch)
				if admins == nil {
					// NIP-29: "a single instance of each (or none)": none is lawful.
					t.Unsupported(fmt.Sprintf("the 39001 listing %s before the role-less 9000 is gone after it (NIP-29 allows none), so whether the role was kept or cleared cannot be read", pk))
				}
				found, roles := framework.HasP(admins, pk)
				switch {
				case found && framework.HasRoles(roles, put):
					if ok.Accepted {
						t.Reading(clause.ReadingNIP29RolelessPut, "keep")
					}
				case !ok.Accepted:
					t.Violates("nip29/membership.5", "NIP-29 (nip29/membership.5): the refused 9000 still changed the user's roles: 39001 found=%v roles=%q, was %s", found, roles, role)
				case !found || len(roles) == 0:
					t.Reading(clause.ReadingNIP29RolelessPut, "reset")
				default:
					t.Note("the role-less 9000 changed the user's roles from %s to %q", role, roles)
				}
			}},
	}
}

// awaitMember waits, within the step deadline, until the group's 39002 (as
// read by reader) lists pubkey (want true) or no longer does (want false).
// A relay that publishes no 39002 blocks the case; a CLOSED read is never
// "not listed" (see framework.AwaitListed).
func awaitMember(t *framework.T, reader *fixtures.Client, ch, pubkey string, want bool, what string) {
	t.MustStateEvent(reader, fixtures.KindMembers, ch)
	framework.AwaitListed(t, reader, ch, pubkey, want, what)
}
