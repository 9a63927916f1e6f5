package nip29

import (
	"fmt"
	"slices"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// adminsSpecs are the cases of nip29/admins: the 39001 admin list: every admin listed with its roles.
func adminsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/admins/1", framework.MUST,
			"Every admin a group's 39001 lists carries one or more role names in its p tag.",
			"nip29/admins.1").
			WithReading("Level: \"Each admin is listed along with one or more roles\" has no keyword. It is held at MUST as the definition of the 39001 entry: publishing 39001 is optional (\"(or none)\", so no 39001 is unsupported), but a 39001 the relay does publish is the NIP's event only in the NIP's form, and an entry without a role tells clients nothing the NIP defines it to tell. The next sentence's SHOULD (roles corresponding to 39003) is not judged here."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				admins := t.StateEvent(c, fixtures.KindAdmins, ch)
				if admins == nil && t.Env.StatePublished[fixtures.KindAdmins] == capability.Yes {
					// The relay published one for the probe's group (NIP-29
					// allows none for a while): a change of admins makes it
					// publish this group's again.
					roles := t.Env.ProbedCreatorRoles
					if len(roles) == 0 {
						roles = []string{"admin"}
					}
					second := t.Actor("admin")
					t.Accept(c, fixtures.PutUser(c.Actor(), ch, second.PubKey, roles...), "put a second admin, so the relay publishes the group's 39001")
					admins = t.StateEvent(c, fixtures.KindAdmins, ch)
				}
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
						t.Violates("nip29/admins.1", "NIP-29 (nip29/admins.1): each admin in 39001 is listed with one or more roles; expected a role name after the pubkey, got %q in the 39001 of %s: %s", []string(tg), ch, framework.TagsOf(admins))
					}
				}
				if entries == 0 {
					t.Blocked(framework.PreModerator, fmt.Sprintf("the 39001 of %s lists no admin at all, not even the creator: %s", ch, framework.TagsOf(admins)))
				}
				t.Note("39001 of a fresh group: %d admin entr%s, each with a role", entries, map[bool]string{true: "y", false: "ies"}[entries == 1])
			}},
	}
}
