package nip29

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// baselineGroupSpecs: NIP-29 group creation, state events, metadata,
// membership and moderation, each at the level of NIP-29's own sentence;
// what only the harness needs (creating groups, a moderating creator,
// deleting) is a contract case that blocks, never fails.
func baselineGroupSpecs() []framework.Spec {
	specs := []framework.Spec{
		{Case: framework.Case{ID: "base/create/1", Clauses: []string{"nip29/create.1"}, Area: "groups", Section: "nip29/create", Level: framework.MUST,
			Requirement: "A fresh key's bare 9007 creates a group whose relay-signed 39000 has d = the chosen id (harness precondition)."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				meta := t.GroupMetadata(c, ch)
				t.Expect(framework.TagOf(meta, "d")).To(Equal(ch), "39000 d tag")
			}},
		{Case: framework.Case{ID: "base/create/2", Clauses: []string{"nip29/create.2"}, Area: "groups", Section: "nip29/create", Level: framework.MUST,
			Requirement: "The creator of a group holds a role that may moderate it, shown in 39001 (harness precondition)."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				// Observed, never taken from --role-map: the map names a
				// role; this case checks the creator holds one and uses it.
				role, pre, observed := t.CreatorRole(c, ch)
				if role == "" {
					t.Blocked(pre, observed)
				}
				if m := t.Env.RoleMap["admin"]; m != "" && m != role {
					t.Note("--role-map admin=%s; the creator's 39001 entry names %q", m, role)
				}
				user := fixtures.NewActor("moderated").PubKey
				for _, ev := range []*nostr.Event{fixtures.PutUser(c.Actor(), ch, user, ""), fixtures.RemoveUser(c.Actor(), ch, user)} {
					if ok := t.Publish(c, ev); !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						t.RefusedWrite(framework.PreModerator, ok, fmt.Sprintf("the creator (39001 role %q) moderating its group with a kind %d", role, ev.Kind))
					}
				}
				t.Note("the creator's role on this relay: %q (it put and removed a user)", role)
			}},
		{Case: framework.Case{ID: "base/admins/1", Clauses: []string{"nip29/admins.1"}, Area: "groups", Section: "nip29/admins", Level: framework.MUST,
			Requirement: "Every admin a group's 39001 lists carries one or more role names in its p tag."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				admins := t.StateEvent(c, fixtures.KindAdmins, ch)
				if admins == nil {
					t.Unsupported(fmt.Sprintf("no 39001 published for #d %s: NIP-29 marks group admins optional, so there is no admin entry to check", ch))
				}
				entries := 0
				for _, tg := range admins.Tags {
					if len(tg) < 2 || tg[0] != "p" {
						continue
					}
					entries++
					if !slices.ContainsFunc(tg[2:], func(r string) bool { return r != "" }) {
						framework.Failf("NIP-29 (nip29/admins.1): each admin in 39001 is listed with one or more roles; expected a role name after the pubkey, got %q in the 39001 of %s: %s", []string(tg), ch, framework.TagsOf(admins))
					}
				}
				if entries == 0 {
					t.Blocked(framework.PreModerator, fmt.Sprintf("the 39001 of %s lists no admin at all, not even the creator: %s", ch, framework.TagsOf(admins)))
				}
				t.Note("39001 of a fresh group: %d admin entr%s, each with a role", entries, map[bool]string{true: "y", false: "ies"}[entries == 1])
			}},
		{Case: framework.Case{ID: "base/create/3", Clauses: []string{"nip01/ok-prefix.1", "nip29/create.3"}, Area: "groups", Section: "nip29/create", Level: framework.SHOULD,
			Requirement: "A 9007 from a key with no role in an existing group with that id is refused and the group is untouched."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				name := t.Unique("first")
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Name: name})
				other := t.Connect(t.Actor("other"))
				t.Reject(other, fixtures.CreateGroup(other.Actor(), ch), "", "an outsider's 9007 on the existing group's id")
				t.Expect(framework.TagOf(t.GroupMetadata(c, ch), "name")).To(Equal(name), "the group's name after the outsider's 9007")
				if found, _ := framework.HasP(t.StateEvent(c, fixtures.KindAdmins, ch), other.Actor().PubKey); found {
					framework.Failf("NIP-29 (nip29/create.3): the outsider's refused 9007 made it an admin of the existing group")
				}
			}},
		{Case: framework.Case{ID: "base/state/1", Clauses: []string{"labels/events.1", "nip11/document.3", "nip29/state-events.1"}, Area: "state-events", Section: "nip29/state-events", Level: framework.MUST,
			Requirement: "The group state events the relay publishes (39000-39003) are signed by the NIP-11 self key with a valid id and signature."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				t.GroupMetadata(c, ch)
				var seen []int
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles} {
					if ev := t.StateEvent(c, k, ch); ev != nil {
						t.RequireRelaySigned(ev)
						seen = append(seen, k)
					}
				}
				t.Note("state kinds the relay published for the group: %v", seen)
			}},
		{Case: framework.Case{ID: "base/state/2", Clauses: []string{"nip29/state-events.2"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "A replacement 39000 has a greater created_at than the one it replaces, even for edits in the same second."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				prev := t.GroupMetadata(c, ch)
				for i := 0; i < 3; i++ {
					name := t.Unique("rename")
					t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name}), "rename")
					cur := t.GroupMetadata(c, ch)
					if framework.TagOf(cur, "name") != name {
						t.Note("the 39000 did not take the new name %q (see base/edit/1)", name)
						return
					}
					if cur.CreatedAt <= prev.CreatedAt {
						framework.Failf("NIP-29 with NIP-01 addressable events (nip29/state-events.2): the 39000 naming %q has created_at %d, not greater than the %d of the one it replaces, so a client may keep the older", name, cur.CreatedAt, prev.CreatedAt)
					}
					prev = cur
				}
			}},
		{Case: framework.Case{ID: "base/state/3", Clauses: []string{"nip29/state-events.3"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "After edits, a #d read of a group's 39000 returns a single head, not superseded ones."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				for i := 0; i < 2; i++ {
					t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("edit")}), "edit")
				}
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				if len(got) != 1 {
					framework.Failf("NIP-29 (nip29/state-events.3): a single 39000 should exist per group; #d read returned %d: %v", len(got), framework.IDs(got))
				}
			}},
		{Case: framework.Case{ID: "base/state/4", Clauses: []string{"nip29/state-events.4"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "A 39000 REQ over three groups with limit 2 returns at most two events."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				var ids []string
				for i := 0; i < 3; i++ {
					ids = append(ids, t.CreateChannel(c, fixtures.ChannelSpec{}))
				}
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}, Limit: 2})
				if len(got) > 2 {
					framework.Failf("NIP-01 limit (nip29/state-events.4): a 39000 REQ with limit 2 returned %d events", len(got))
				}
				if len(got) == 0 {
					framework.Failf("a 39000 REQ by #d over the creator's three groups with limit 2 returned nothing")
				}
			}},
		{Case: framework.Case{ID: "base/edit/1", Clauses: []string{"nip29/metadata.1"}, Area: "groups", Section: "nip29/metadata", Level: framework.SHOULD,
			Requirement: "After the creator's 9002 with name, about and picture, the 39000 carries all three."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				m := fixtures.GroupMetadata{Name: t.Unique("renamed"), About: "about " + t.Unique("a"), Picture: "https://example.invalid/" + t.Unique("p") + ".png"}
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, m), "edit with every field")
				meta := t.GroupMetadata(c, ch)
				for _, f := range [][2]string{{"name", m.Name}, {"about", m.About}, {"picture", m.Picture}} {
					if got := framework.TagOf(meta, f[0]); got != f[1] {
						framework.Failf("NIP-29 (nip29/metadata.1): the 39000 should reflect the 9002: %s is %q, want %q (39000 tags: %s)", f[0], got, f[1], framework.TagsOf(meta))
					}
				}
			}},
		{Case: framework.Case{ID: "base/edit/2", Clauses: []string{"nip29/metadata.1"}, Area: "groups", Section: "nip29/metadata", Level: framework.SHOULD,
			Requirement: "After a 9002 carrying only a new name, the 39000 has that name, and the about and picture set before are kept or cleared, never replaced.",
			Reading:     "edit-metadata carries \"all the fields of group-metadata\": a 9002 may be a patch (what it leaves out is kept) or the whole new metadata (what it leaves out is cleared, flags unset). Both pass, noted as reading nip29-edit-metadata=patch or replace; a relay that keeps some and clears others passes with a note."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				full := fixtures.GroupMetadata{Name: t.Unique("full"), About: "about " + t.Unique("a"), Picture: "https://example.invalid/" + t.Unique("p") + ".png",
					Flags: []string{fixtures.FlagClosed}}
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, full), "edit with every field and the closed flag")
				before := t.RequireFlags(c, ch, fixtures.FlagClosed)
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name}), "edit with the name only")
				meta := t.GroupMetadata(c, ch)
				if got := framework.TagOf(meta, "name"); got != name {
					framework.Failf("NIP-29 (nip29/metadata.1): the 39000 should reflect the 9002's name: it is %q, want %q (39000 tags: %s)", got, name, framework.TagsOf(meta))
				}
				kept := map[string]bool{}
				for _, f := range []string{"about", "picture"} {
					if framework.TagOf(before, f) != "" {
						kept[f] = framework.TagOf(meta, f) == framework.TagOf(before, f)
						if v := framework.TagOf(meta, f); v != "" && !kept[f] {
							framework.Failf("NIP-29 (nip29/metadata.1): the name-only 9002 changed %s to %q (was %q); it may keep or clear it, not replace it", f, v, framework.TagOf(before, f))
						}
					}
				}
				kept["closed"] = fixtures.HasFlag(meta, fixtures.FlagClosed)
				all, none := true, true
				for _, k := range kept {
					all, none = all && k, none && !k
				}
				switch {
				case all:
					t.Reading(clause.ReadingNIP29EditMetadata, "patch")
				case none:
					t.Reading(clause.ReadingNIP29EditMetadata, "replace")
				default:
					t.Note("the name-only 9002 kept some fields and cleared others: %v", kept)
				}
			}},
		{Case: framework.Case{ID: "base/permissions/1", Clauses: []string{"nip29/permissions.2"}, Area: "permissions", Section: "nip29/permissions", Level: framework.SHOULD,
			Requirement: "A 9002 from a member without a role is refused and the name stays."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				before := framework.TagOf(t.GroupMetadata(owner, ch), "name")
				t.Reject(member, fixtures.EditGroup(member.Actor(), ch, fixtures.GroupMetadata{Name: "member-rename"}), "", "a member without a role edits metadata")
				t.Expect(framework.TagOf(t.GroupMetadata(owner, ch), "name")).To(Equal(before), "the name after the refused edit")
			}},
		{Case: framework.Case{ID: "base/permissions/2", Clauses: []string{"nip29/permissions.1"}, Area: "permissions", Section: "nip29/permissions", Level: framework.MUST,
			Requirement: "A 9000 from a key with no role in the group is refused and the named user does not become a member."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				outsider := t.Connect(t.Actor("outsider"))
				friend := t.Actor("friend")
				t.Reject(outsider, fixtures.PutUser(outsider.Actor(), ch, friend.PubKey, t.PutRole(owner, ch, "admin")), "", "an outsider puts a user")
				for _, k := range []int{fixtures.KindMembers, fixtures.KindAdmins} {
					if found, _ := framework.HasP(t.StateEvent(owner, k, ch), friend.PubKey); found {
						framework.Failf("NIP-29 (nip29/permissions.1): the outsider's refused 9000 still added its friend to kind %d", k)
					}
				}
			}},
		{Case: framework.Case{ID: "base/membership/1", Clauses: []string{"nip29/membership.1", "nip29/membership.2"}, Area: "membership", Section: "nip29/membership", Level: framework.SHOULD,
			Requirement: "9000 adds a user to 39002 and 9001 takes the user out again."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				// The precondition, judged by its own read: the relay publishes 39002.
				t.MustStateEvent(owner, fixtures.KindMembers, ch)
				framework.AwaitListed(t, owner, ch, pk, true, "NIP-29 (nip29/membership.1): the user put by the 9000")
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, pk), "remove user")
				// After the step nothing blocks: a lost removal is a failure.
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/membership.2): the user removed by the 9001")
			}},
		{Case: framework.Case{ID: "base/membership/4", Clauses: []string{"nip29/membership.3"}, Area: "membership", Section: "nip29/membership", Level: framework.MUST,
			Requirement: "A 9000 naming an existing member with a role updates the member's roles: 39001 then lists the role."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				role := t.PutRole(owner, ch, "admin")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, role), "put the existing member again with role "+role)
				found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), member.Actor().PubKey)
				if !found || !slices.Contains(roles, role) {
					framework.Failf("NIP-29 (nip29/membership.3): a 9000 on an existing member must update its roles; 39001 entry after giving %q: found=%v roles=%q", role, found, roles)
				}
			}},
		{Case: framework.Case{ID: "base/membership/5", Clauses: []string{"nip29/membership.4"}, Area: "membership", Section: "nip29/membership", Level: framework.SHOULD,
			Requirement: "A user given the moderating role by 9000 is listed in 39001 with that role."},
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				role := t.PutRole(owner, ch, "admin")
				found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), admin.Actor().PubKey)
				if !found || !slices.Contains(roles, role) {
					framework.Failf("NIP-29 (nip29/membership.4): the new %q is not listed in 39001 with that role (found=%v roles=%q)", role, found, roles)
				}
			}},
		{Case: framework.Case{ID: "base/membership/6", Clauses: []string{"nip29/membership.5"}, Area: "membership", Section: "nip29/membership", Level: framework.SHOULD,
			Requirement: "A 9000 without roles naming an existing member who holds the moderating role leaves the user a member; its role is either kept or cleared.",
			Reading:     "NIP-29: on an existing member \"the user roles must just be updated\"; a 9000 with no roles may keep them (nothing to update) or reset them to none. Both pass, noted as reading nip29-roleless-put-user=keep or reset. A relay may also refuse the no-op 9000; the user must then be unchanged."},
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				pk := admin.Actor().PubKey
				role := t.PutRole(owner, ch, "admin")
				if found, roles := framework.HasP(t.MustStateEvent(owner, fixtures.KindAdmins, ch), pk); !found || !slices.Contains(roles, role) {
					t.Blocked(framework.PreModerator, fmt.Sprintf("the user put with role %q is not listed with it in 39001 (found=%v roles=%q; see base/membership/5)", role, found, roles))
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
					framework.Failf("NIP-29 (nip29/membership.5): the 39001 listing %s before the role-less 9000 is gone after it", pk)
				}
				found, roles := framework.HasP(admins, pk)
				switch {
				case found && slices.Contains(roles, role):
					if ok.Accepted {
						t.Reading(clause.ReadingNIP29RolelessPut, "keep")
					}
				case !ok.Accepted:
					framework.Failf("NIP-29 (nip29/membership.5): the refused 9000 still changed the user's roles: 39001 found=%v roles=%q, was %q", found, roles, role)
				case !found || len(roles) == 0:
					t.Reading(clause.ReadingNIP29RolelessPut, "reset")
				default:
					t.Note("the role-less 9000 changed the user's roles from %q to %q", role, roles)
				}
			}},
		{Case: framework.Case{ID: "base/roles/1", Clauses: []string{"nip29/roles.1"}, Area: "membership", Section: "nip29/roles", Level: framework.SHOULD,
			Requirement: "Every role 39001 lists is one the relay advertises in its 39003, when it publishes one."},
			Run: func(t *framework.T) {
				owner, _, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				roles := t.StateEvent(owner, fixtures.KindRoles, ch)
				if roles == nil {
					t.Unsupported("the relay publishes no 39003 for the group (NIP-29: a relay MAY publish it)")
				}
				var advertised []string
				for _, tg := range roles.Tags {
					if len(tg) >= 2 && tg[0] == "role" {
						advertised = append(advertised, tg[1])
					}
				}
				for _, tg := range t.MustStateEvent(owner, fixtures.KindAdmins, ch).Tags {
					if len(tg) < 3 || tg[0] != "p" {
						continue
					}
					for _, r := range tg[2:] {
						if !slices.Contains(advertised, r) {
							framework.Failf("NIP-29 (nip29/roles.1): 39001 gives %s the role %q, which the 39003 does not list (%v)", tg[1], r, advertised)
						}
					}
				}
			}},
		{Case: framework.Case{ID: "base/delete/1", Clauses: []string{"labels/scope.10", "nip29/delete.1"}, Area: "groups", Section: "nip29/delete", Level: framework.MUST,
			Requirement: "The creator's 9008 is accepted and the group's 39000 is no longer served (harness precondition: safe mode cleans up with it)."},
			Run: func(t *framework.T) {
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
		{Case: framework.Case{ID: "base/delete/2", Clauses: []string{"nip29/delete.2"}, Area: "groups", Section: "nip29/delete", Level: framework.SHOULD,
			Requirement: "A 9008 from a member without a role is refused and the group stays."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				t.Reject(member, fixtures.DeleteChannel(member.Actor(), ch), "", "a member without a role deletes the group")
				t.Expect(t.StateEvent(owner, fixtures.KindMetadata, ch)).NotTo(BeNil(), "the group's 39000 after the refused 9008")
			}},
	}
	return append(specs, flagSpecs()...)
}

// groupFlags are NIP-29's 39000 flags a 9002 sets, one case each.
var groupFlags = []struct {
	id      string
	clauses []string
	flag    string
}{{"base/flags/1", []string{"nip29/metadata.2"}, fixtures.FlagPrivate}, {"base/flags/2", []string{"nip29/metadata.2"}, fixtures.FlagClosed}, {"base/flags/3", []string{"nip29/metadata.2"}, fixtures.FlagHidden}, {"base/flags/4", []string{"nip29/metadata.2"}, fixtures.FlagRestricted}}

// flagSpecs: a 9002 carrying a flag makes the 39000 carry it.
func flagSpecs() []framework.Spec {
	var out []framework.Spec
	for _, f := range groupFlags {
		flag := f.flag
		out = append(out, framework.Spec{Case: framework.Case{ID: f.id, Clauses: f.clauses, Area: "groups", Section: "nip29/metadata", Level: framework.SHOULD,
			Requirement: fmt.Sprintf("After the creator's 9002 with every field and the %s flag, the 39000 carries %s.", flag, flag)},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Flags: []string{flag}})
				meta := t.GroupMetadata(c, ch)
				if !fixtures.HasFlag(meta, flag) {
					framework.Failf("NIP-29 (nip29/metadata.2): the 39000 should reflect the 9002's [%q] flag; its tags: %s", flag, framework.TagsOf(meta))
				}
			}})
	}
	return out
}
