package identity

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// creatorSpecs are the cases of identity/creator.
func creatorSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/tags/7", framework.MUST,
			`["P", <key that signed the 9007>] is on 39000, 39001 and 39002, also after admins and members are added.`,
			"identity/creator.1", "identity/identity-tags.3"),
			Run: func(t *framework.T) {
				t.Checking("identity/creator.1")
				c := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open})
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("admin").PubKey, t.PutRoles(c, ch, "admin")...), "add an admin")
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("member").PubKey, "member"), "add a member")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/8", framework.MUST,
			"P stays the creator after ownership moves (a new owner is added, the creator removed) and the new owner edits the channel.",
			"identity/creator.3", "identity/creator.4"),
			Run: func(t *framework.T) {
				t.Checking("identity/creator.3")
				owner := t.Connect(t.Actor("creator"))
				heir := t.Connect(t.Actor("heir"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, owner, chanOpts{Type: fixtures.TypeWorkflow, Visibility: fixtures.Open, Labels: labels})
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, t.PutRoles(owner, ch, "owner")...), "add a second owner")
				t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "the heir removes the creator")
				next := freshLabels(t, 1)
				t.Accept(heir, fixtures.EditChannel(heir.Actor(), ch, append(nostr.Tags{{"name", t.Unique("heir")}}, tTags(next...)...)...), "the heir renames and relabels")
				requireIdentityAll(t, heir, ch, fixtures.TypeWorkflow, next, owner.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/9", framework.MUST,
			"A client P tag on 9007 or 9002 cannot set the creator: whether the relay refuses such a command or accepts it and ignores the tag, P stays the 9007 signer.",
			"identity/creator.2", "identity/creator.4").
			WithReading("The draft says only that no client can set P; it neither requires nor forbids refusing a command that carries one. Refusal (any NIP-01 prefix) and acceptance with the client's P ignored are both accepted and noted; a P naming the client's forged key fails either way."),
			Run: func(t *framework.T) {
				t.Checking("identity/creator.2")
				c := t.Connect(t.Actor("creator"))
				impostor := t.Actor("impostor")
				forged := nostr.Tags{{"P", impostor.PubKey}}
				ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Extra: forged})
				ok := t.Publish(c, ev)
				if ok.Accepted {
					t.Note("9007 with a client P tag accepted (tag ignored?)")
					requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
					noForgedP(t, c, ch, impostor.PubKey, "after the 9007")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a client P tag refused: %s", ok)
					noForgedP(t, c, ch, impostor.PubKey, "after the refused 9007")
					ch = mkChannel(t, c, chanOpts{Visibility: fixtures.Open})
				}
				ok = t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}, nostr.Tag{"P", impostor.PubKey}))
				if ok.Accepted {
					t.Note("9002 with a client P tag accepted")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a client P tag refused: %s", ok)
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
				noForgedP(t, c, ch, impostor.PubKey, "after the 9002")
			}},
	}
}
