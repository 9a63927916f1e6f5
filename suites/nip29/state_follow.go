package nip29

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// clauseStateFollow is the clause every case of nip29/state-follow
// observes: the state events "should reflect the latest group state (as it
// was changed by moderation events over time)".
const clauseStateFollow = "nip29/state-follow.1"

// preCommandApplied: a row judges the state event, not the command; a
// command not applied as sent is its own case's to judge.
var preCommandApplied = framework.Precondition{ID: "command-applied", Need: "the command the row sends takes effect as sent (its own case judges whether it does)",
	Adapt: "apply the command as NIP-29 defines it"}

// followRead reads kind of group again as c until holds says the command's
// change is there; a relay that shows it within the step deadline
// follows. One that keeps serving the instance c read before the command
// (LastState) breaks clause (nip29/state-follow.1, or the sentence that
// names the update itself, as subgroups.2 does for an adoption): its state event did not follow. One that
// republished the state event without the change did follow: the event
// reflects the group's state, and the command was not applied as sent,
// which the command's own case judges (base/metadata/*, base/membership/*
// …): blocked on command-applied, never a second finding of the same
// defect here. what names the command and the change.
func followRead(t *framework.T, clause string, c *fixtures.Client, kind int, group string, holds func(*nostr.Event) bool, what string) {
	prev := t.LastState(c, kind, group)
	var last *nostr.Event
	if t.Within(func(g Gomega) {
		last = t.StateEvent(c, kind, group)
		g.Expect(last != nil && holds(last)).To(BeTrue())
	}) {
		return
	}
	tags := "none served"
	if last != nil {
		tags = framework.TagsOf(last)
	}
	if last != nil && (prev == nil || last.ID != prev.ID) {
		t.Blocked(preCommandApplied,
			fmt.Sprintf("after %s, the relay republished the kind %d of %s without the change (tags: %s): the state event follows the group's state, and the command was not applied as sent", what, kind, group, tags))
	}
	t.Violates(clause, "NIP-29 (%s): the state events should reflect the latest group state; after %s, the kind %d of %s read again is the instance served before the command (tags: %s)", clause, what, kind, group, tags)
}

// editFlag is owner's 9002 for group with its current metadata, flag set
// (on) or cleared (off): cleared by omission (NIP-29: "Omitting this tag
// indicates …") and by the opposite tag relay29 reads (public, open,
// visible, unrestricted), so that a relay reading a 9002 as a patch and one
// reading it as the whole metadata reach the same state.
func editFlag(t *framework.T, c *fixtures.Client, group, flag, opposite string, on bool) *nostr.Event {
	keep, add := opposite, flag
	if !on {
		keep, add = flag, opposite
	}
	full := t.FullEdit(c, group, nostr.Tag{add})
	var tags []nostr.Tag
	for _, tag := range full.Tags {
		if len(tag) == 0 || tag[0] == "h" || tag[0] == keep {
			continue
		}
		tags = append(tags, tag)
	}
	return fixtures.EditChannel(c.Actor(), group, tags...)
}

// flagFollows: the owner sets flag by 9002, the 39000 shows it; clears it,
// the 39000 no longer does. A refused 9002 is the relay's choice of
// flags (unsupported).
func flagFollows(t *framework.T, flag, opposite string) {
	owner := t.Connect(t.Actor("owner"))
	ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
	t.GroupMetadata(owner, ch)
	for _, on := range []bool{true, false} {
		ev := editFlag(t, owner, ch, flag, opposite, on)
		verb := "setting"
		if !on {
			verb = "clearing"
		}
		if ok := t.Publish(owner, ev); !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			t.Unsupported(fmt.Sprintf("the relay refused the owner's 9002 %s the %s flag (%s): flags are the relay's to support", verb, flag, ok))
		}
		t.Track(ev)
		followRead(t, clauseStateFollow, owner, fixtures.KindMetadata, ch, func(meta *nostr.Event) bool { return fixtures.HasFlag(meta, flag) == on },
			fmt.Sprintf("the owner's accepted 9002 %s the %s flag", verb, flag))
	}
}

// listed reports whether ev has a p tag for pubkey (holding every role of
// roles, compared as a set, when roles is not empty).
func listed(ev *nostr.Event, pubkey string, roles []string) bool {
	found, held := framework.HasP(ev, pubkey)
	return found && framework.HasRoles(held, roles)
}

// plainRole is the role name a 9000 gives to make an existing member a
// plain member again: --role-map member, else the profile's member role,
// else a role named "member" in the group's 39003. "" when none is known:
// a 9000 without roles on a member who has one may keep the role or reset
// it (reading nip29-roleless-put-user), so it demotes nobody for sure.
func plainRole(t *framework.T, c *fixtures.Client, group string, moderator []string) string {
	if r := t.PutRoles(c, group, "member"); len(r) == 1 && !slices.Equal(r, moderator) {
		return r[0]
	}
	roles := t.StateEvent(c, fixtures.KindRoles, group)
	if roles == nil {
		return ""
	}
	for _, tag := range roles.Tags {
		if len(tag) >= 2 && tag[0] == "role" && strings.EqualFold(tag[1], "member") && !slices.Equal([]string{tag[1]}, moderator) {
			return tag[1]
		}
	}
	return ""
}

// roleFollows: the owner puts a user as a plain member, then a 9000 gives
// it the moderating role — the 39001 lists it with the role — then takes
// the role away: by a 9000 with the plain member role (demote), the 39001
// read again no longer lists it with the role and the 39002 (when the
// relay publishes one) still lists it as a member; or by a 9001 (remove),
// neither the 39001 nor the 39002 (when it listed the user) lists it any
// more.
func roleFollows(t *framework.T, demote bool) {
	owner := t.Connect(t.Actor("owner"))
	ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
	t.MustStateEvent(owner, fixtures.KindAdmins, ch)
	pk := t.Actor("admin").PubKey
	role := t.PutRoles(owner, ch, "admin")
	plain := ""
	if demote {
		if plain = plainRole(t, owner, ch, role); plain == "" {
			t.Unsupported("no plain-member role name is known (no --role-map member, no \"member\" role in the group's 39003): a 9000 without roles on an admin may keep or reset its role (reading nip29-roleless-put-user), so no 9000 takes the role away for sure")
		}
	}
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, pk, t.PutRoles(owner, ch, "member")...), "the owner's 9000 putting the user as a member")
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, pk, role...), "the owner's 9000 giving the member roles "+framework.RoleSet(role))
	followRead(t, clauseStateFollow, owner, fixtures.KindAdmins, ch, func(ev *nostr.Event) bool { return listed(ev, pk, role) }, "the owner's accepted 9000 changing "+pk+"'s roles to "+framework.RoleSet(role))
	if demote {
		put := fixtures.PutUser(owner.Actor(), ch, pk, plain)
		if ok := t.Publish(owner, put); !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			t.Blocked(preCommandApplied, fmt.Sprintf("the owner's 9000 changing the admin's role back to %q was refused (%s): NIP-29 updates an existing member's roles by 9000 (base/membership/* judge it)", plain, ok))
		}
		t.Track(put)
		followRead(t, clauseStateFollow, owner, fixtures.KindAdmins, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, role) }, "the owner's accepted 9000 changing "+pk+"'s roles from "+framework.RoleSet(role)+" back to "+plain)
		// The 39002 is optional (NIP-29: a relay MAY publish it): read
		// only when the relay publishes one.
		if t.StateEvent(owner, fixtures.KindMembers, ch) != nil {
			followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return listed(ev, pk, nil) }, "the owner's accepted 9000 changing "+pk+"'s role back to "+plain+" (still a member)")
		}
		return
	}
	members := t.StateEvent(owner, fixtures.KindMembers, ch)
	t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "the owner's 9001 removing the admin")
	followRead(t, clauseStateFollow, owner, fixtures.KindAdmins, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the owner's accepted 9001 removing the admin "+pk)
	if members != nil && listed(members, pk, nil) {
		followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the owner's accepted 9001 removing the admin "+pk+" (the 39002 listed it)")
	}
}

// stateFollowSpecs are the cases of nip29/state-follow: one row per command
// pair that changes a state event and undoes the change, the state event
// read again after each.
func stateFollowSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/follow/1", framework.SHOULD,
			"After a 9002 setting private the 39000 carries private; after a 9002 clearing it, the 39000 read again no longer does.",
			clauseStateFollow),
			Run: func(t *framework.T) { flagFollows(t, fixtures.FlagPrivate, "public") }},
		{Case: framework.NewCase("base/follow/2", framework.SHOULD,
			"After a 9002 setting closed the 39000 carries closed; after a 9002 clearing it, the 39000 read again no longer does.",
			clauseStateFollow),
			Run: func(t *framework.T) { flagFollows(t, fixtures.FlagClosed, "open") }},
		{Case: framework.NewCase("base/follow/3", framework.SHOULD,
			"After a 9002 setting restricted the 39000 carries restricted; after a 9002 clearing it, the 39000 read again no longer does.",
			clauseStateFollow),
			Run: func(t *framework.T) { flagFollows(t, fixtures.FlagRestricted, "unrestricted") }},
		{Case: framework.NewCase("base/follow/4", framework.SHOULD,
			"After a 9002 setting hidden the 39000 (read by the owner, a member) carries hidden; after a 9002 clearing it, the 39000 read again no longer does.",
			clauseStateFollow),
			Run: func(t *framework.T) { flagFollows(t, fixtures.FlagHidden, "visible") }},
		{Case: framework.NewCase("base/follow/5", framework.SHOULD,
			"After a 9000 putting a user the 39002 lists it; after a 9001 removing it, the 39002 read again no longer does.",
			clauseStateFollow),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				pk := t.Actor("member").PubKey
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, pk, t.PutRoles(owner, ch, "member")...), "the owner's 9000 putting the user")
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return listed(ev, pk, nil) }, "the owner's accepted 9000 putting "+pk)
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "the owner's 9001 removing the user")
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the owner's accepted 9001 removing "+pk)
			}},
		{Case: framework.NewCase("base/follow/6", framework.SHOULD,
			"After a 9000 giving a user the moderating role the 39001 lists it with the role; after a 9001 removing the user, the 39001 read again no longer lists it.",
			clauseStateFollow),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				t.MustStateEvent(owner, fixtures.KindAdmins, ch)
				pk := t.Actor("admin").PubKey
				role := t.PutRoles(owner, ch, "admin")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, pk, role...), "the owner's 9000 giving the user roles "+framework.RoleSet(role))
				followRead(t, clauseStateFollow, owner, fixtures.KindAdmins, ch, func(ev *nostr.Event) bool { return listed(ev, pk, role) }, "the owner's accepted 9000 giving "+pk+" roles "+framework.RoleSet(role))
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "the owner's 9001 removing the admin")
				followRead(t, clauseStateFollow, owner, fixtures.KindAdmins, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the owner's accepted 9001 removing the admin "+pk)
			}},
		{Case: framework.NewCase("base/follow/7", framework.SHOULD,
			"After an accepted 9021 join request to an open group the 39002 lists the user; after its 9022 leave request, the 39002 read again no longer does.",
			clauseStateFollow).
			WithReading("A relay may defer joins to an administrator (reading nip29-join-open=review): a refused join leaves nothing to follow (unsupported)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				joiner := t.Connect(t.Actor("joiner"))
				pk := joiner.Actor().PubKey
				if ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, "")); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the join request to the open group was refused (" + ok.String() + "): the relay defers joins, so there is no join to follow")
				}
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return listed(ev, pk, nil) }, "the accepted 9021 join request of "+pk)
				leave := fixtures.LeaveRequest(joiner.Actor(), ch)
				t.Accept(joiner, leave, "the member's 9022 leave request")
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the accepted 9022 leave request of "+pk)
			}},
		{Case: framework.NewCase("base/follow/8", framework.SHOULD,
			"After an accepted join request carrying a 9009 invite code to a closed group the 39002 lists the user; after the owner's 9001 removing it, the 39002 read again no longer does.",
			clauseStateFollow).
			WithReading("Invites are optional: a refused 9009, or a refused invited join, leaves nothing to follow (unsupported; base/invites/1 judges the join)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				code := t.Unique("invite")
				if ok := t.Publish(owner, fixtures.CreateInvite(owner.Actor(), ch, code)); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refused the owner's 9009 create-invite (" + ok.String() + "); invites are optional")
				}
				joiner := t.Connect(t.Actor("joiner"))
				pk := joiner.Actor().PubKey
				if ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, code)); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the invited join request was refused (" + ok.String() + "): nothing to follow (base/invites/1 judges it)")
				}
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return listed(ev, pk, nil) }, "the accepted invited 9021 of "+pk)
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "the owner's 9001 removing the invited member")
				followRead(t, clauseStateFollow, owner, fixtures.KindMembers, ch, func(ev *nostr.Event) bool { return !listed(ev, pk, nil) }, "the owner's accepted 9001 removing the invited member "+pk)
			}},
		{Case: framework.NewCase("base/follow/9", framework.SHOULD,
			"After a 9002 making a group the child of another, the child's 39000 carries the parent and the parent's the child; after a 9002 detaching it (no parent tag), both 39000s read again carry neither.",
			clauseStateFollow, "nip29/subgroups.2").
			WithReading("Subgroups are optional: without positive evidence of them (NIP-11 or the relay's own child tag) the case is unsupported."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("parent")})
				child := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("child")})
				adoptOrSkip(t, owner, child, parent)
				followRead(t, "nip29/subgroups.2", owner, fixtures.KindMetadata, child, func(ev *nostr.Event) bool { return slices.Equal(parentsOf(ev), []string{parent}) }, "the accepted 9002 making "+child+" a child of "+parent+" (the child's parent tag)")
				followRead(t, clauseStateFollow, owner, fixtures.KindMetadata, parent, func(ev *nostr.Event) bool { return slices.Contains(childrenOf(ev), child) }, "the accepted 9002 making "+child+" a child of "+parent+" (the parent's child tag)")
				detach := t.FullEdit(owner, child)
				if ok := t.Publish(owner, detach); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates(clauseStateFollow, "NIP-29 (%s): promotion to root is a 9002 with no parent tag from an authorized admin; the owner's was refused: %s", clauseStateFollow, ok)
				}
				t.Track(detach)
				followRead(t, clauseStateFollow, owner, fixtures.KindMetadata, child, func(ev *nostr.Event) bool { return len(parentsOf(ev)) == 0 }, "the accepted 9002 detaching "+child+" (no parent tag)")
				followRead(t, clauseStateFollow, owner, fixtures.KindMetadata, parent, func(ev *nostr.Event) bool { return !slices.Contains(childrenOf(ev), child) }, "the accepted 9002 detaching "+child+" from "+parent+" (the parent's child tag)")
			}},
		{Case: framework.NewCase("base/follow/10", framework.SHOULD,
			"After a 9010 pinning a message the 39005 lists it; after a 9010 with an empty list, the 39005 read again lists nothing.",
			clauseStateFollow).
			WithReading("Pins are optional: a refused 9010, or no 39005 after an accepted one, leaves nothing to follow (unsupported; base/pins/* judge them)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				m := fixtures.Message(owner.Actor(), ch, "pin me")
				t.Accept(owner, m, "the owner's message")
				pin := pinList(owner.Actor(), ch, nostr.Tag{"e", m.ID})
				if ok := t.Publish(owner, pin); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refused the owner's 9010 update-pin-list (" + ok.String() + "); pinned events (39005) are optional")
				}
				t.Track(pin)
				if !t.Within(func(g Gomega) { g.Expect(t.StateEvent(owner, kindGroupPins, ch)).NotTo(BeNil()) }) {
					t.Unsupported("no 39005 after the accepted 9010: the relay stores 9010 as a group event but publishes no pinned list")
				}
				followRead(t, clauseStateFollow, owner, kindGroupPins, ch, func(ev *nostr.Event) bool { return slices.Equal(pinRefs(ev), []string{m.ID}) }, "the accepted 9010 pinning "+m.ID)
				clear := pinList(owner.Actor(), ch)
				t.Accept(owner, clear, "the owner's 9010 with an empty list")
				followRead(t, clauseStateFollow, owner, kindGroupPins, ch, func(ev *nostr.Event) bool { return len(pinRefs(ev)) == 0 }, "the accepted 9010 with an empty list")
			}},
		{Case: framework.NewCase("base/follow/11", framework.SHOULD,
			"After a 9000 changing a member's role to the moderating role the 39001 lists it with the role; after a 9000 changing it back to the plain member role, the 39001 read again no longer lists it with that role, and the 39002 still lists it.",
			clauseStateFollow).
			WithReading("NIP-29: on an existing member a 9000's \"user roles must just be updated\". The role is taken back by a 9000 naming the plain member role (--role-map member, or \"member\" in the 39003): without one, a role-less 9000 may keep or reset the role (reading nip29-roleless-put-user), so the row is unsupported."),
			Run: func(t *framework.T) { roleFollows(t, true) }},
		{Case: framework.NewCase("base/follow/12", framework.SHOULD,
			"After a 9000 changing a member's role to the moderating role the 39001 lists it; after a 9001 removing the user, neither the 39001 nor the 39002 (which listed it) read again lists it.",
			clauseStateFollow),
			Run: func(t *framework.T) { roleFollows(t, false) }},
	}
}
