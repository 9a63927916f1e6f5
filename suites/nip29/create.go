package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// createSpecs are the cases of nip29/create: group creation: a fresh key's bare 9007, the creator's moderating role, and a 9007 over an existing group refused.
func createSpecs() []framework.Spec {
	return []framework.Spec{
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
	}
}
