package nip29

import (
	"slices"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// rolesSpecs are the cases of nip29/roles: the roles 39001 lists are those the relay advertises in 39003.
func rolesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/roles/1", framework.SHOULD,
			"Every role 39001 lists is one the relay advertises in its 39003, when it publishes one.",
			"nip29/roles.1"),
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
							t.Violates("nip29/roles.1", "NIP-29 (nip29/roles.1): 39001 gives %s the role %q, which the 39003 does not list (%v)", tg[1], r, advertised)
						}
					}
				}
			}},
	}
}
