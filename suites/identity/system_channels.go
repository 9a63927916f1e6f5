package identity

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// systemChannelsSpecs are the cases of identity/system-channels.
func systemChannelsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/system/1", framework.MUST,
			`A 9007 with ["channel_type","system"] creates a channel whose 39000-39002 start with ["t","system"]; members read it by #d, post in it, and roles and labels work like in any channel.`,
			"identity/system-channels.1", "identity/system-channels.4"),
			Run: func(t *framework.T) {
				t.Checking("identity/system-channels.1")
				o, m := t.Connect(t.Actor("creator")), t.Connect(t.Actor("member"))
				labels := freshLabels(t, 1)
				ch := mkChannel(t, o, chanOpts{Type: fixtures.TypeSystem, Labels: labels})
				t.Accept(o, fixtures.PutUser(o.Actor(), ch, m.Actor().PubKey, "member"), "add a member")
				requireIdentityAll(t, m, ch, fixtures.TypeSystem, labels, o.Actor().PubKey)
				msg := fixtures.Message(m.Actor(), ch, "config")
				t.Accept(m, msg, "a member posts in the system channel")
				t.Expect(framework.IDs(t.Query(m, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}))).To(Equal([]string{msg.ID}), "the member reads it by #h")
				// Roles work as usual: an admin adds a member and changes the labels.
				admin := t.Connect(t.Actor("admin"))
				t.Accept(o, fixtures.PutUser(o.Actor(), ch, admin.Actor().PubKey, "admin"), "add an admin")
				t.Accept(admin, fixtures.PutUser(admin.Actor(), ch, t.Actor("late").PubKey, "member"), "the admin adds a member")
				next := freshLabels(t, 2)
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, tTags(next...)...), "the admin relabels")
				requireIdentityAll(t, m, ch, fixtures.TypeSystem, next, o.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/system/2", framework.MUST,
			"A system channel created without a visibility tag is private: an outsider reads neither its 39000-39002 (by #d) nor its messages (by #h or id).",
			"identity/system-channels.2", "identity/naming.4"),
			Run: func(t *framework.T) {
				t.Checking("identity/system-channels.2")
				w := newSysWorld(t)
				for _, c := range []*fixtures.Client{w.X, t.Connect(nil)} {
					who := framework.ActorName(c)
					t.Note("%s by #d: %s", who, t.QueryAbsent(c, "outsider by #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"d": {w.Sys}}}))
					t.Note("%s by #h: %s", who, t.QueryAbsent(c, "outsider by #h", nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Sys}}}))
					t.Note("%s by id: %s", who, t.QueryAbsent(c, "outsider by id", nostr.Filter{IDs: []string{w.Msg[w.Sys].ID}}))
				}
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.M, fixtures.KindMetadata, w.Sys), "private")).To(BeTrue(), "39000 of the private system channel is marked private")
			}},
		{Case: framework.NewCase("identity/system/3", framework.MUST,
			`A private system channel's 39000 carries the NIP-29 ["hidden"] tag; an open system channel's does not.`,
			"identity/system-channels.3"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.M, fixtures.KindMetadata, w.Sys), "hidden")).To(BeTrue(), "private system channel: hidden")
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.X, fixtures.KindMetadata, w.SysOpen), "hidden")).To(BeFalse(), "open system channel: no hidden")
			}},
	}
}
