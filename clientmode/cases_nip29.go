package clientmode

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// NewHome is where an admin's kind 10009 says the group moved: a loopback
// address nothing listens on, so a client that tries it fails fast.
const NewHome = "ws://127.0.0.1:1/moved"

// InviteCode is the code the join-with-code case hands the client.
const InviteCode = "invite-7f3a9c"

// state signs a NIP-29 state event of kind for group d with sk.
func state(sk string, kind int, d string, created int64, tags ...nostr.Tag) nostr.Event {
	ev := nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(created), Tags: append(nostr.Tags{{"d", d}}, tags...)}
	ev.Sign(sk)
	return ev
}

// meta is a 39000 of GroupID named name, signed by sk.
func meta(sk string, created int64, name string, tags ...nostr.Tag) nostr.Event {
	return state(sk, 39000, GroupID, created, append([]nostr.Tag{{"name", name}}, tags...)...)
}

// moderation signs a kind 9000 (put-user) or 9001 (remove-user) for user
// in group, by the admin.
func moderation(k Keys, kind int, group, user string, created int64) nostr.Event {
	ev := nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags{{"h", group}, {"p", user}}}
	ev.Sign(k.AdminSK)
	return ev
}

// unsupportedError ends a case unsupported, not failed: the client says
// it does not read what the case judges (a read-group field it marks
// unsupported), or shows nothing the case can judge its rule on.
type unsupportedError struct{ msg string }

func (e unsupportedError) Error() string { return e.msg }

// fieldStatus is what the client knows of a read-group field in a:
// FieldShown, FieldUnknown or FieldUnsupported.
func fieldStatus(a Answer, field string) string {
	if st := a.Fields[field]; st != "" {
		return st
	}
	return FieldShown
}

// reads wraps the judgement of a case about read-group fields: when any
// answer marks one of them unsupported (the library does not read it, or
// the kind that carries it), the case ends unsupported and judges
// nothing; the adapter's evidence is in the report.
func reads(fields []string, judge func(*Judging) error) func(*Judging) error {
	return func(j *Judging) error {
		for i, a := range j.Answers {
			for _, f := range fields {
				if fieldStatus(a, f) == FieldUnsupported {
					return unsupportedError{fmt.Sprintf("answer %d: the client does not read %s (from kind %d), which this case judges (see the adapter's evidence)", i+1, f, fieldKind[f])}
				}
			}
		}
		return judge(j)
	}
}

// wantGroupName: the client knows the group and shows the name of the
// relay-signed 39000.
func wantGroupName(want string) func(*Judging) error {
	return reads([]string{"name"}, func(j *Judging) error {
		a := j.Answers[0]
		if !a.Known || a.Group == nil {
			return fmt.Errorf("client knows no group %q, expected the one the relay's self key signed (name %q)", j.Group, want)
		}
		if fieldStatus(a, "name") == FieldUnknown {
			return unsupportedError{"the client knows the group but has no name for it (name unknown), so the case cannot tell which 39000 it took"}
		}
		if a.Group.Name != want {
			return fmt.Errorf("client shows the group named %q, expected %q from the 39000 the relay's self key signed", a.Group.Name, want)
		}
		return nil
	})
}

// wantMember: the client answers am-member with a known membership.
func wantMember(want bool) func(*Judging) error {
	return func(j *Judging) error {
		a := j.Answers[0]
		if !a.Known {
			return fmt.Errorf("client does not know whether the user is a member, expected member=%v", want)
		}
		if a.Member != want {
			return fmt.Errorf("client says member=%v, expected member=%v", a.Member, want)
		}
		return nil
	}
}

// migration is the script of the 10009 cases: the primary relay is down;
// the second relay (one of the user's other relays) has the admin's 10009
// saying the group now lives at NewHome.
var migration = Script{Offline: true}

var migrationSecond = &Script{Match: true, Events: func(k Keys) []nostr.Event {
	ev := nostr.Event{Kind: 10009, CreatedAt: baseTime, Tags: nostr.Tags{{"group", GroupID, NewHome, "Build Systems"}, {"r", NewHome}}}
	ev.Sign(k.AdminSK)
	return []nostr.Event{ev}
}}

// nip29Cases are the client cases of NIP-29's client sentences
// (nip29/clients), run through the v2 intents.
var nip29Cases = []Case{
	{ID: "client/nip29/state-self-not-pubkey", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "NIP-11 names an operator pubkey different from self: the client takes group state from the self key, not from the pubkey contact.",
		Script: Script{NIP11: NIP11Split, Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"), meta(k.OperatorSK, baseTime+10, "Operator copy")}
		}},
		Ops: []string{OpReadGroup}, Judge: wantGroupName("Build Systems")},
	{ID: "client/nip29/state-self-only", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "NIP-11 names self and no pubkey: the client finds the group state the self key signed.",
		Script: Script{NIP11: NIP11SelfOnly, Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems")}
		}},
		Ops: []string{OpReadGroup}, Judge: wantGroupName("Build Systems")},
	{ID: "client/nip29/state-pubkey-only", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "NIP-11 names a pubkey and no self: whatever the client makes of that, it does not take a stranger-signed newer 39000 as the group.",
		Reading:     "NIP-29 names only self as the state key; with no self a client may show no verified state, or take pubkey as standing in for it; both are accepted and the report says which was seen",
		Script: Script{NIP11: NIP11PubkeyOnly, Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"), meta(k.StrangerSK, baseTime+10, "Stranger copy")}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"name"}, func(j *Judging) error {
			a := j.Answers[0]
			switch {
			case !a.Known || a.Group == nil:
				j.Saw("no self key: no verified group state")
			case a.Group.Name == "Build Systems":
				j.Saw("no self key: the NIP-11 pubkey stands in for it")
			default:
				return fmt.Errorf("client shows the group named %q, from a 39000 signed by neither self (absent) nor pubkey; expected no group or %q", a.Group.Name, "Build Systems")
			}
			return nil
		})},
	{ID: "client/nip29/state-foreign-signer", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "A newer 39000 validly signed by a stranger does not replace the one the relay's self key signed.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"), meta(k.StrangerSK, baseTime+10, "Stranger copy")}
		}},
		Ops: []string{OpReadGroup}, Judge: wantGroupName("Build Systems")},
	{ID: "client/nip29/state-user-signed", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "A newer 39000 signed by the user's own key does not replace the one the relay's self key signed.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"), meta(k.UserSK, baseTime+10, "My copy")}
		}},
		Ops: []string{OpReadGroup}, Judge: wantGroupName("Build Systems")},
	{ID: "client/nip29/admins-foreign-signer", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "Admins come from the 39001 the relay's self key signed; a newer stranger-signed 39001 naming the stranger is not relied on.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"),
				state(k.RelaySK, 39001, GroupID, baseTime, nostr.Tag{"p", k.AdminPK, "admin"}),
				state(k.StrangerSK, 39001, GroupID, baseTime+10, nostr.Tag{"p", k.Stranger, "admin"}),
				state(k.RelaySK, 39003, GroupID, baseTime, nostr.Tag{"role", "admin"}, nostr.Tag{"role", "moderator"})}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"admins"}, func(j *Judging) error {
			a := j.Answers[0]
			if !a.Known || a.Group == nil {
				j.Saw("the client knows no group: it took no admin list")
				return nil
			}
			if fieldStatus(a, "admins") == FieldUnknown {
				j.Saw("admins unknown: the client took no admin list")
				return nil
			}
			var got []string
			for _, ad := range a.Group.Admins {
				got = append(got, ad.Pubkey)
			}
			if slices.ContainsFunc(got, func(pk string) bool { return pk != j.Keys.AdminPK }) {
				return fmt.Errorf("client shows admins %v, expected only %s (the relay-signed 39001; %s signed the newer one)", got, j.Keys.AdminPK, j.Keys.Stranger)
			}
			if len(got) == 0 {
				j.Saw("the client shows no admins: it took neither 39001")
			} else if !slices.Contains(a.Group.Admins[0].Roles, "admin") && fieldStatus(a, "admin-roles") == FieldShown {
				j.Saw(fmt.Sprintf("admin roles shown: %v (the 39001 gives [admin])", a.Group.Admins[0].Roles))
			}
			return nil
		})},
	{ID: "client/nip29/members-foreign-signer", Profile: "nip29", Clause: "nip29/clients.1", Level: "MUST",
		Requirement: "Members come from the 39002 the relay's self key signed; a newer stranger-signed 39002 is not relied on.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"),
				state(k.RelaySK, 39002, GroupID, baseTime, nostr.Tag{"p", k.AdminPK}, nostr.Tag{"p", k.UserPK}),
				state(k.StrangerSK, 39002, GroupID, baseTime+10, nostr.Tag{"p", k.Stranger})}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"members"}, func(j *Judging) error {
			a := j.Answers[0]
			if !a.Known || a.Group == nil || fieldStatus(a, "members") == FieldUnknown {
				j.Saw("the client shows no member list")
				return nil
			}
			if slices.Contains(a.Group.Members, j.Keys.Stranger) {
				return fmt.Errorf("client shows members %v, which include %s from the 39002 a stranger signed; expected %v from the relay-signed 39002", a.Group.Members, j.Keys.Stranger, []string{j.Keys.AdminPK, j.Keys.UserPK})
			}
			got := slices.Sorted(slices.Values(a.Group.Members))
			want := slices.Sorted(slices.Values([]string{j.Keys.AdminPK, j.Keys.UserPK}))
			if !slices.Equal(got, want) {
				j.Saw(fmt.Sprintf("members shown: %v (the relay-signed 39002 lists %v)", got, want))
			}
			return nil
		})},
	{ID: "client/nip29/flags-dropped-mean-open", Profile: "nip29", Clause: "nip29/clients.2", Level: "MUST",
		Requirement: "Read once the relay-signed 39000 is private and closed; read again only a newer one without those tags is served: the group is now public and open.",
		Script: Script{Match: true, Rounds: []func(Keys) []nostr.Event{
			func(k Keys) []nostr.Event {
				return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems", nostr.Tag{"private"}, nostr.Tag{"closed"})}
			},
			func(k Keys) []nostr.Event { return []nostr.Event{meta(k.RelaySK, baseTime+10, "Build Systems")} },
		}},
		Ops: []string{OpReadGroup, OpReadGroup}, Judge: reads([]string{"private", "closed"}, func(j *Judging) error {
			for i, a := range j.Answers {
				if !a.Known || a.Group == nil {
					return fmt.Errorf("read %d: client knows no group, expected the relay-signed 39000", i+1)
				}
				if fieldStatus(a, "private") == FieldUnknown || fieldStatus(a, "closed") == FieldUnknown {
					return unsupportedError{fmt.Sprintf("read %d: the client holds no value for private or closed (unknown), so the case cannot tell what it makes of their absence", i+1)}
				}
			}
			if g := j.Answers[0].Group; !g.Private || !g.Closed {
				return unsupportedError{fmt.Sprintf("read 1: client shows private=%v closed=%v for a 39000 carrying both tags: it does not show these flags as the tags say, so the case cannot tell what it makes of their absence (not a nip29/clients.2 failure)", g.Private, g.Closed)}
			}
			if g := j.Answers[1].Group; g.Private || g.Closed {
				return fmt.Errorf("read 2: the current 39000 omits private and closed (public, join requests honored) but the client shows private=%v closed=%v", g.Private, g.Closed)
			}
			return nil
		})},
	{ID: "client/nip29/membership-latest-removal", Profile: "nip29", Clause: "nip29/clients.3", Level: "SHOULD",
		Requirement: "A put-user (9000) then a later remove-user (9001) for the user: the client says the user is not a member.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{moderation(k, 9001, GroupID, k.UserPK, baseTime+10), moderation(k, 9000, GroupID, k.UserPK, baseTime)}
		}},
		Ops: []string{OpMember}, Judge: wantMember(false)},
	{ID: "client/nip29/membership-latest-added", Profile: "nip29", Clause: "nip29/clients.3", Level: "SHOULD",
		Requirement: "A remove-user (9001) then a later put-user (9000), and no 39002 at all: the client says the user is a member.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{moderation(k, 9000, GroupID, k.UserPK, baseTime+10), moderation(k, 9001, GroupID, k.UserPK, baseTime)}
		}},
		Ops: []string{OpMember}, Judge: wantMember(true)},
	{ID: "client/nip29/previous-unknown-reference", Profile: "nip29", Clause: "nip29/clients.4", Level: "SHOULD",
		Requirement: "A message whose previous tag references an event the relay never had is flagged or hidden; one whose references are all on the relay is shown as ordinary.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			m1, good, bad := timeline(k)
			return []nostr.Event{bad, good, m1}
		}},
		Ops: []string{OpReadMessages}, Judge: func(j *Judging) error {
			m1, good, bad := timeline(j.Keys)
			a := j.Answers[0]
			if !slices.Contains(a.Messages, good.ID) || slices.Contains(a.Flagged, good.ID) {
				return fmt.Errorf("client does not show message %s as ordinary although its previous reference %s is on the relay (shown %v, flagged %v)", good.ID, m1.ID[:8], a.Messages, a.Flagged)
			}
			if slices.Contains(a.Messages, bad.ID) && !slices.Contains(a.Flagged, bad.ID) {
				return fmt.Errorf("client shows message %s as ordinary although its previous reference deadbeef is no event the relay has", bad.ID)
			}
			return nil
		}},
	{ID: "client/nip29/migration-10009-checked", Profile: "nip29", Clause: "nip29/clients.5", Level: "MUST",
		Requirement: "The group's primary relay is unreachable: the client reads the kind 10009 of the group's admin on the user's other relay.",
		Script:      migration, Second: migrationSecond,
		Ops: []string{OpLocateGroup}, Judge: func(j *Judging) error {
			for _, raw := range j.SecondFilters {
				var f nostr.Filter
				if json.Unmarshal(raw, &f) == nil && slices.Contains(f.Kinds, 10009) && (len(f.Authors) == 0 || slices.Contains(f.Authors, j.Keys.AdminPK)) {
					return nil
				}
			}
			return fmt.Errorf("the primary relay was unreachable and the client asked the user's other relay (%s) for no kind 10009 of the admin %s (%d REQ filter(s) there)", j.SecondURL, j.Keys.AdminPK, len(j.SecondFilters))
		}},
	{ID: "client/nip29/migration-moved-reported", Profile: "nip29", Clause: "nip29/clients.6", Level: "SHOULD",
		Requirement: "The admin's kind 10009 points the group to another relay: the client reports that relay as where the group may now be.",
		Script:      migration, Second: migrationSecond,
		Ops: []string{OpLocateGroup}, Judge: func(j *Judging) error {
			if got := j.Answers[0].Relay; got != NewHome {
				return fmt.Errorf("client locates the group at %q, expected %s from the admin's kind 10009", got, NewHome)
			}
			return nil
		}},
	{ID: "client/nip29/subgroup-membership-not-inherited", Profile: "nip29", Clause: "nip29/clients.7", Level: "MUST",
		Requirement: "The user is a member of the parent group (a 9000 there) and has no 9000 in the subgroup: the client says the user is not a member of the subgroup.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{state(k.RelaySK, 39000, "tech", baseTime, nostr.Tag{"name", "Tech"}, nostr.Tag{"child", GroupID}),
				meta(k.RelaySK, baseTime, "Build Systems", nostr.Tag{"parent", "tech"}),
				moderation(k, 9000, "tech", k.UserPK, baseTime)}
		}},
		Ops: []string{OpMember}, Judge: func(j *Judging) error {
			if !j.Answers[0].Known {
				j.Saw("the client does not know whether the user is a member of the subgroup: it assumed nothing")
				return nil
			}
			if j.Answers[0].Member {
				return fmt.Errorf("client says the user is a member of the subgroup, where no kind 9000 names them (only the parent has one)")
			}
			return nil
		}},
	{ID: "client/nip29/subgroup-tree-from-parent", Profile: "nip29", Clause: "nip29/clients.8", Level: "MUST",
		Requirement: "The group's children are the groups whose 39000 names it as parent (two here), though its own child list names only one; its parent is its parent tag.",
		Reading:     "the relay's child list is stale on purpose (it lists ci only); NIP-29 tells clients to assemble the tree from parent tags",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{state(k.RelaySK, 39000, "tech", baseTime, nostr.Tag{"name", "Tech"}, nostr.Tag{"child", GroupID}),
				meta(k.RelaySK, baseTime, "Build Systems", nostr.Tag{"parent", "tech"}, nostr.Tag{"child", "ci"}),
				state(k.RelaySK, 39000, "ci", baseTime, nostr.Tag{"name", "CI"}, nostr.Tag{"parent", GroupID}),
				state(k.RelaySK, 39000, "release", baseTime, nostr.Tag{"name", "Release"}, nostr.Tag{"parent", GroupID})}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"parent", "children"}, func(j *Judging) error {
			a := j.Answers[0]
			if !a.Known || a.Group == nil {
				return fmt.Errorf("client knows no group, expected the relay-signed 39000")
			}
			if fieldStatus(a, "parent") == FieldUnknown || fieldStatus(a, "children") == FieldUnknown {
				return fmt.Errorf("client holds no parent or children for the group (unknown), though the relay's 39000 events give both")
			}
			if a.Group.Parent != "tech" {
				return fmt.Errorf("client shows parent %q, expected tech (the group's parent tag)", a.Group.Parent)
			}
			if !slices.Contains(a.Group.Children, "ci") || !slices.Contains(a.Group.Children, "release") {
				return fmt.Errorf("client shows children %v, expected ci and release (both name the group in their parent tag)", a.Group.Children)
			}
			return nil
		})},
	{ID: "client/nip29/join-with-code", Profile: "nip29", Clause: "nip29/clients.9", Level: "SHOULD",
		Requirement: "Joining with an invite code, the client's kind 9021 carries it in a code tag.",
		Code:        InviteCode, Script: Script{Match: true},
		Ops: []string{OpJoin}, Judge: func(j *Judging) error {
			for _, raw := range j.Events {
				var ev nostr.Event
				if json.Unmarshal(raw, &ev) == nil && ev.Kind == 9021 {
					if t := ev.Tags.Find("code"); len(t) > 1 && t[1] == InviteCode {
						return nil
					}
					return fmt.Errorf("the kind 9021 carries no [code %s] tag: %s", InviteCode, raw)
				}
			}
			return fmt.Errorf("client sent no kind 9021 join request (%d event(s) on the wire)", len(j.Events))
		}},

	{ID: "client/nip29/members-shrink-after-leave", Profile: "nip29", Clause: "nip29/clients.18", Level: "SHOULD",
		Requirement: "Read once the relay-signed 39002 lists a third member; then that member leaves (their 9022) and the relay serves only a newer 39002 without them: the client no longer lists them.",
		Script: Script{Match: true, Rounds: shrinking(func(k Keys) nostr.Event {
			ev := nostr.Event{Kind: 9022, CreatedAt: baseTime + 5, Tags: nostr.Tags{{"h", GroupID}}}
			ev.Sign(k.StrangerSK)
			return ev
		})},
		Ops: []string{OpReadGroup, OpReadGroup}, Judge: reads([]string{"members"}, judgeShrink("left (kind 9022)"))},
	{ID: "client/nip29/members-shrink-after-removal", Profile: "nip29", Clause: "nip29/clients.18", Level: "SHOULD",
		Requirement: "Read once the relay-signed 39002 lists a third member; then an admin removes them (9001) and the relay serves only a newer 39002 without them: the client no longer lists them.",
		Script:      Script{Match: true, Rounds: shrinking(func(k Keys) nostr.Event { return moderation(k, 9001, GroupID, k.Stranger, baseTime+5) })},
		Ops:         []string{OpReadGroup, OpReadGroup}, Judge: reads([]string{"members"}, judgeShrink("was removed (kind 9001)"))},
	{ID: "client/nip29/admins-several-roles", Profile: "nip29", Clause: "nip29/clients.19", Level: "MUST",
		Requirement: "NIP-29's own 39001 example: one admin with one role (ceo), another with two (secretary, gardener): the client shows both admins, the second with both roles.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"),
				state(k.RelaySK, 39001, GroupID, baseTime, nostr.Tag{"p", k.OperatorPK, "ceo"}, nostr.Tag{"p", k.AdminPK, "secretary", "gardener"}),
				state(k.RelaySK, 39003, GroupID, baseTime, nostr.Tag{"role", "ceo"}, nostr.Tag{"role", "secretary"}, nostr.Tag{"role", "gardener"})}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"admins"}, func(j *Judging) error {
			a := j.Answers[0]
			if !a.Known || a.Group == nil {
				return fmt.Errorf("client knows no group, expected the relay-signed 39000 and its 39001")
			}
			if fieldStatus(a, "admins") == FieldUnknown {
				return fmt.Errorf("client holds no admin list (admins unknown) for a relay-signed 39001 in NIP-29's own shape: an admin with two roles on one p tag (see the adapter's evidence)")
			}
			var admin *AdminView
			var got []string
			for i, ad := range a.Group.Admins {
				got = append(got, ad.Pubkey)
				if ad.Pubkey == j.Keys.AdminPK {
					admin = &a.Group.Admins[i]
				}
			}
			if admin == nil || !slices.Contains(got, j.Keys.OperatorPK) {
				return fmt.Errorf("client shows admins %v, expected %s (ceo) and %s (secretary, gardener) from the relay-signed 39001", got, j.Keys.OperatorPK, j.Keys.AdminPK)
			}
			switch fieldStatus(a, "admin-roles") {
			case FieldUnsupported:
				j.Saw("the client does not read admin roles: only the admin list is judged")
			case FieldUnknown:
				return fmt.Errorf("client holds no roles for the admin with two roles (admin-roles unknown)")
			default:
				if !slices.Contains(admin.Roles, "secretary") || !slices.Contains(admin.Roles, "gardener") {
					return fmt.Errorf("client shows roles %v for %s, whose p tag gives [secretary gardener]", admin.Roles, j.Keys.AdminPK)
				}
			}
			return nil
		})},
	{ID: "client/nip29/roles-unknown-names", Profile: "nip29", Clause: "nip29/clients.19", Level: "MUST",
		Requirement: "The relay's 39003 names roles the client never heard of (ceo, secretary with a description, gardener): the client shows all three.",
		Script: Script{Match: true, Events: func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"),
				state(k.RelaySK, 39003, GroupID, baseTime, nostr.Tag{"role", "ceo"}, nostr.Tag{"role", "secretary", "keeps the minutes"}, nostr.Tag{"role", "gardener"})}
		}},
		Ops: []string{OpReadGroup}, Judge: reads([]string{"roles"}, func(j *Judging) error {
			a := j.Answers[0]
			if !a.Known || a.Group == nil {
				return fmt.Errorf("client knows no group, expected the relay-signed 39000 and its 39003")
			}
			if fieldStatus(a, "roles") == FieldUnknown {
				return fmt.Errorf("client holds no roles (unknown) for a relay-signed 39003 naming ceo, secretary and gardener")
			}
			for _, r := range []string{"ceo", "secretary", "gardener"} {
				if !slices.Contains(a.Group.Roles, r) {
					return fmt.Errorf("client shows roles %v, expected ceo, secretary and gardener from the relay-signed 39003", a.Group.Roles)
				}
			}
			return nil
		})},
	{ID: "client/nip29/join-ok-dropped", Profile: "nip29", Clause: "nip29/clients.20", Level: "MUST",
		Requirement: "Every join request (9021) is dropped before an OK (the connection closes): the client does not report it accepted; the outcome is unknown.",
		Script:      Script{Match: true, Replies: replies(Reply{Drop: true})},
		Ops:         []string{OpJoin}, Judge: all(wantKind(9021), wantOutcome(Unknown))},
	{ID: "client/nip29/leave-ok-dropped", Profile: "nip29", Clause: "nip29/clients.20", Level: "MUST",
		Requirement: "Every leave request (9022) is dropped before an OK (the connection closes): the client does not report it accepted; the outcome is unknown.",
		Script:      Script{Match: true, Replies: replies(Reply{Drop: true})},
		Ops:         []string{OpLeave}, Judge: all(wantKind(9022), wantOutcome(Unknown))},
	{ID: "client/nip29/create-group-ok-false", Profile: "nip29", Clause: "nip29/clients.20", Level: "MUST",
		Requirement: "The create-group command (9007) is answered OK false (blocked: …): the client reports it rejected.",
		Script:      Script{Match: true, Replies: replies(Reply{Msg: "blocked: this group id is taken"})},
		Ops:         []string{OpCreateGroup}, Judge: all(wantKind(9007), wantOutcome(Rejected))},
	{ID: "client/nip29/post-ok-duplicate", Profile: "nip29", Clause: "nip29/clients.20", Level: "MUST", Runs: 5,
		Requirement: "A chat message (kind 9) is answered OK true, then a second OK false for the same event, then the connection closes: the client reports it accepted (the first OK answered the EVENT). Runs five times: the rule is about a race.",
		Script:      Script{Match: true, Replies: replies(Reply{OK: true, Then: &Reply{Msg: "invalid: rejected after all"}})},
		Ops:         []string{OpPost}, Judge: all(wantKind(9), wantOutcome(Committed))},
	{ID: "client/nip29/remove-user-ok-delayed-false", Profile: "nip29", Clause: "nip29/clients.20", Level: "MUST",
		Requirement: "A moderation command (remove-user, 9001) is answered OK false after a second's wait: the client does not report it accepted (rejected once the OK came, unknown if it stopped waiting).",
		Script:      Script{Match: true, Replies: replies(Reply{Delay: time.Second, Msg: "restricted: you are not an admin here"})},
		Ops:         []string{OpRemoveUser}, Judge: all(wantKind(9001), func(j *Judging) error {
			if got := j.Answers[0].Outcome; got != Rejected && got != Unknown {
				return fmt.Errorf("client reported %q for a command the relay answered OK false (after a second)", got)
			}
			return nil
		})},
	{ID: "client/nip29/auth-challenge-per-connection", Profile: "nip29", Clause: "nip42/auth.4", Level: "SHOULD",
		Requirement: "Each connection gets its own AUTH challenge; the first command's connection is closed before an OK, so the client connects again for the next: every AUTH it sends carries this connection's challenge, a relay tag naming the relay and a current created_at.",
		Script:      Script{Match: true, Replies: replies(Reply{Drop: true}, Reply{OK: true})},
		Ops:         []string{OpJoin, OpPost}, Judge: func(j *Judging) error {
			conns := map[int]bool{}
			for _, a := range j.Auths {
				conns[a.Conn] = true
				if a.Refused != "" {
					return fmt.Errorf("AUTH on connection %d refused: %s: %s", a.Conn, a.Refused, a.Event)
				}
			}
			switch {
			case len(j.Auths) == 0:
				j.Saw("the client sent no AUTH (nothing to judge)")
			case len(conns) < 2:
				j.Saw("the client authenticated on one connection only")
			}
			return nil
		}},
}

// shrinking is the script of the members-shrink cases: read 1 serves a
// relay-signed 39002 listing the admin, the user and a third member (the
// stranger); read 2 serves what made the third member go (gone) and only
// a newer 39002 without them, as a relay keeps only the latest.
func shrinking(gone func(Keys) nostr.Event) []func(Keys) []nostr.Event {
	return []func(Keys) []nostr.Event{
		func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"),
				state(k.RelaySK, 39002, GroupID, baseTime, nostr.Tag{"p", k.AdminPK}, nostr.Tag{"p", k.UserPK}, nostr.Tag{"p", k.Stranger})}
		},
		func(k Keys) []nostr.Event {
			return []nostr.Event{meta(k.RelaySK, baseTime, "Build Systems"), gone(k),
				state(k.RelaySK, 39002, GroupID, baseTime+10, nostr.Tag{"p", k.AdminPK}, nostr.Tag{"p", k.UserPK})}
		},
	}
}

// judgeShrink judges the members-shrink cases: read 1 lists the third
// member (else the case cannot tell), read 2 does not.
func judgeShrink(how string) func(*Judging) error {
	return func(j *Judging) error {
		a1, a2 := j.Answers[0], j.Answers[1]
		if !a1.Known || a1.Group == nil || fieldStatus(a1, "members") == FieldUnknown || !slices.Contains(a1.Group.Members, j.Keys.Stranger) {
			return unsupportedError{fmt.Sprintf("read 1: the client does not list %s from the relay-signed 39002, so the case cannot tell whether it drops them later", j.Keys.Stranger)}
		}
		if !a2.Known || a2.Group == nil || fieldStatus(a2, "members") == FieldUnknown {
			j.Saw("read 2: the client shows no member list")
			return nil
		}
		if slices.Contains(a2.Group.Members, j.Keys.Stranger) {
			return fmt.Errorf("read 2: client still lists %s, who %s and whom the newest relay-signed 39002 no longer lists (members shown: %v)", j.Keys.Stranger, how, a2.Group.Members)
		}
		return nil
	}
}

// timeline is the messages of the previous-reference case: m1 has no
// references, good references m1, bad references m1 and deadbeef (no
// event the relay has).
func timeline(k Keys) (m1, good, bad nostr.Event) {
	m1 = nostr.Event{Kind: 9, CreatedAt: baseTime, Content: "first", Tags: nostr.Tags{{"h", GroupID}}}
	m1.Sign(k.StrangerSK)
	good = nostr.Event{Kind: 9, CreatedAt: baseTime + 10, Content: "second", Tags: nostr.Tags{{"h", GroupID}, {"previous", m1.ID[:8]}}}
	good.Sign(k.AdminSK)
	bad = nostr.Event{Kind: 9, CreatedAt: baseTime + 20, Content: "out of context", Tags: nostr.Tags{{"h", GroupID}, {"previous", m1.ID[:8]}, {"previous", "deadbeef"}}}
	bad.Sign(k.StrangerSK)
	return m1, good, bad
}
