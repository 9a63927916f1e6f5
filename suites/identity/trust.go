package identity

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// trustSpecs are the cases of identity/trust.
func trustSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/trust/1", framework.MUST,
			"Every channel-state event carrying identity tags (39000-39002, after create, label edit, membership and ownership changes) is signed by the relay key (NIP-11 self).",
			"nip29/state-events.1").
			InSection("identity/trust"), // its clauses are the client's
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				heir := t.Connect(t.Actor("heir"))
				ch := mkChannel(t, owner, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: freshLabels(t, 2)})
				steps := []func(){
					func() {},
					func() {
						t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, tTags(freshLabel(t))...), "relabel")
					},
					func() {
						t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, t.PutRoles(owner, ch, "owner")...), "add an owner")
						t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "remove the creator")
					},
				}
				for _, step := range steps {
					step()
					for _, ev := range t.Query(heir, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles}, Tags: nostr.TagMap{"d": {ch}}}) {
						t.RequireRelaySigned(ev)
					}
				}
			}},
	}
}
