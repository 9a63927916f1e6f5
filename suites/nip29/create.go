package nip29

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// createSpecs are the cases of nip29/create: group creation: a fresh key's bare 9007, the creator's moderating role, and a 9007 over an existing group refused.
func createSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/create/1", framework.MUST,
			"A fresh key's bare 9007 creates a group whose relay-signed 39000 has d = the chosen id (harness precondition).",
			"nip29/create.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				meta := t.GroupMetadata(c, ch)
				t.Expect(framework.TagOf(meta, "d")).To(Equal(ch), "39000 d tag")
			}},
		{Case: framework.NewCase("base/create/2", framework.MUST,
			"The creator of a group holds a role that may moderate it, shown in 39001 (harness precondition).",
			"nip29/create.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				// Observed, never taken from --role-map: the map names a
				// role; this case checks the creator holds one and uses it.
				roles, pre, observed := t.CreatorRoles(c, ch)
				if len(roles) == 0 {
					t.Blocked(pre, observed)
				}
				role := framework.RoleSet(roles)
				if m := t.Env.RoleMap["admin"]; m != "" && !slices.Contains(roles, m) {
					t.Note("--role-map admin=%s; the creator's 39001 entry names %s", m, role)
				}
				user := fixtures.NewActor("moderated").PubKey
				for _, ev := range []*nostr.Event{fixtures.PutUser(c.Actor(), ch, user, ""), fixtures.RemoveUser(c.Actor(), ch, user)} {
					if ok := t.Publish(c, ev); !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						t.RefusedWrite(framework.PreModerator, ok, fmt.Sprintf("the creator (39001 roles %s) moderating its group with a kind %d", role, ev.Kind))
					}
				}
				t.Note("the creator's roles on this relay: %s (it put and removed a user)", role)
			}},
		{Case: framework.NewCase("base/create/3", framework.SHOULD,
			"A 9007 from a key with no role in an existing group with that id is refused and the group is untouched.",
			"nip29/create.3", "nip01/ok-prefix.1"),
			Run: func(t *framework.T) {
				t.Checking("nip29/create.3")
				c := t.Connect(t.Actor("owner"))
				name := t.Unique("first")
				ch := t.CreateChannel(c, fixtures.ChannelSpec{Name: name})
				other := t.Connect(t.Actor("other"))
				t.Reject(other, fixtures.CreateGroup(other.Actor(), ch), "", "an outsider's 9007 on the existing group's id")
				t.Expect(framework.TagOf(t.GroupMetadata(c, ch), "name")).To(Equal(name), "the group's name after the outsider's 9007")
				if found, _ := framework.HasP(t.StateEvent(c, fixtures.KindAdmins, ch), other.Actor().PubKey); found {
					t.Violates("nip29/create.3", "NIP-29 (nip29/create.3): the outsider's refused 9007 made it an admin of the existing group")
				}
			}},
		{Case: framework.NewCase("base/create/5", framework.SHOULD,
			"An outsider's bare 9007 on an existing private group (closed too, where the relay shows the flag) that the relay accepts leaves the group untouched: the name, the flags and the member stay, and the outsider is no admin.",
			"nip29/create.3").
			WithReading("Follow-through on an accepted unauthorized command: the acceptance alone is base/create/3's finding; this case reads what the accepted 9007 did (the outsider reading the private message is base/create/4's, at MUST)."),
			Run: func(t *framework.T) {
				w := takeOver(t)
				switch {
				case len(w.damage) > 0 && w.ok.Accepted:
					t.Violates("nip29/create.3", "NIP-29 (nip29/create.3): the outsider's 9007 on the existing group was accepted (%s) and changed it: %s", w.ok, strings.Join(w.damage, "; "))
				case w.ok.Accepted:
					t.Note("the outsider's 9007 on the existing group was accepted (%s; base/create/3 judges that), and nothing about the group changed", w.ok)
				}
			}},
	}
}

// takenOver is what an outsider's 9007 on an existing group did.
type takenOver struct {
	ok     fixtures.OK
	secret string   // the group's private message
	reads  bool     // the outsider reads it afterwards
	damage []string // what changed about the group
}

// takeOver makes a private group (closed too, where the relay shows the
// flag) with a member and a private message, sends an outsider's bare 9007 on its id, and reads back the
// group's metadata, admins and members as its creator.
func takeOver(t *framework.T) takenOver {
	owner := t.Connect(t.Actor("owner"))
	name := t.Unique("taken")
	ch := t.CreateChannel(owner, fixtures.ChannelSpec{Name: name, Visibility: fixtures.Private, Flags: []string{fixtures.FlagClosed}})
	before := t.RequireFlags(owner, ch, fixtures.FlagPrivate)
	flags := []string{fixtures.FlagPrivate}
	if fixtures.HasFlag(before, fixtures.FlagClosed) {
		flags = append(flags, fixtures.FlagClosed) // closed is checked where the relay shows it
	}
	member := t.Actor("member")
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.PubKey, ""), "add a member")
	secret := fixtures.Message(owner.Actor(), ch, t.Unique("secret"))
	t.Accept(owner, secret, "a message in the private group")
	listed, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), member.PubKey)

	outsider := t.Connect(t.Actor("outsider"))
	w := takenOver{ok: t.Publish(outsider, fixtures.CreateGroup(outsider.Actor(), ch)), secret: secret.ID}
	if !w.ok.Accepted {
		framework.CheckPrefix("OK", w.ok.Reason)
	}
	r := t.QueryResult(outsider, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
	w.reads = slices.Contains(framework.IDs(r.Events), secret.ID)
	meta := t.StateEvent(owner, fixtures.KindMetadata, ch)
	switch {
	case meta == nil:
		w.damage = append(w.damage, "the group's 39000 is gone")
	default:
		if got := framework.TagOf(meta, "name"); got != name {
			w.damage = append(w.damage, fmt.Sprintf("the name is %q, was %q", got, name))
		}
		for _, f := range flags {
			if !fixtures.HasFlag(meta, f) {
				w.damage = append(w.damage, "the "+f+" flag is gone")
			}
		}
	}
	if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindAdmins, ch), outsider.Actor().PubKey); found {
		w.damage = append(w.damage, "the 39001 lists the outsider")
	}
	if listed {
		if still, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), member.PubKey); !still {
			w.damage = append(w.damage, "the 39002 no longer lists the member")
		}
	}
	return w
}
