package identity

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// systemChannelsSpecs are the cases of identity/system-channels.
func systemChannelsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/system/4", framework.MUST,
			`A private system channel made open by its creator's 9002 loses the ["hidden"] tag from its 39000 (and the private flag); made private again, its 39000 carries ["hidden"] again.`,
			"identity/system-channels.3").
			WithReading(`"While a system channel is private, its kind:39000 carries the NIP-29 hidden tag": hidden follows the visibility. The 9002 sends both NIP-29's flag tag (public or private) and the draft's visibility tag, never hidden itself; a relay that refuses to change a system channel's visibility leaves nothing to follow (unsupported).`),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, owner, chanOpts{Type: fixtures.TypeSystem})
				meta := t.MustStateEvent(owner, fixtures.KindMetadata, ch)
				if !fixtures.HasTag(meta, "private") || !fixtures.HasTag(meta, "hidden") {
					t.Blocked(framework.Precondition{ID: "private-system-channel", Need: "a new system channel is private and hidden (identity/system/2, /3 judge it)", Adapt: "create system channels private and hidden"}, framework.TagsOf(meta))
				}
				for _, open := range []bool{true, false} {
					ev := visibilityEdit(t, owner, ch, open)
					what := "making the private system channel open"
					if !open {
						what = "making the system channel private again"
					}
					if ok := t.Publish(owner, ev); !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						t.Unsupported(fmt.Sprintf("the creator's 9002 %s was refused (%s): the relay does not change a system channel's visibility", what, ok))
					}
					t.Track(ev)
					var last *nostr.Event
					if !t.Within(func(g Gomega) {
						last = t.StateEvent(owner, fixtures.KindMetadata, ch)
						g.Expect(last).NotTo(BeNil())
						g.Expect(fixtures.HasTag(last, "private")).To(Equal(!open))
					}) {
						t.Blocked(framework.Precondition{ID: "visibility-edit", Need: "a 9002 with public/private and visibility changes the channel's private flag", Adapt: "apply the visibility of an accepted 9002"}, fmt.Sprintf("after the accepted 9002 %s: %s", what, framework.TagsOf(last)))
					}
					if fixtures.HasTag(last, "hidden") == open {
						t.Violates("identity/system-channels.3", "identity draft (identity/system-channels.3): while a system channel is private its 39000 carries hidden, and only then; after the accepted 9002 %s, the 39000 (private: %v) has hidden: %v (%s)", what, !open, fixtures.HasTag(last, "hidden"), framework.TagsOf(last))
					}
				}
			}},
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
				t.Accept(o, fixtures.PutUser(o.Actor(), ch, admin.Actor().PubKey, t.PutRoles(o, ch, "admin")...), "add an admin")
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

// visibilityEdit is c's 9002 for ch with its current metadata, made open
// (["public"], ["visibility","open"]) or private (["private"],
// ["visibility","private"]): the NIP-29 flag tag relay29 reads and the
// draft's own visibility tag. The hidden tag is never sent: it is the
// relay's to set on a private system channel.
func visibilityEdit(t *framework.T, c *fixtures.Client, ch string, open bool) *nostr.Event {
	set, drop, vis := "private", "public", "private"
	if open {
		set, drop, vis = "public", "private", "open"
	}
	full := t.FullEdit(c, ch, nostr.Tag{set})
	var tags []nostr.Tag
	for _, tag := range full.Tags {
		if len(tag) == 0 || tag[0] == "h" || tag[0] == drop || tag[0] == "hidden" || tag[0] == "visible" || tag[0] == "visibility" {
			continue
		}
		tags = append(tags, tag)
	}
	return fixtures.EditChannel(c.Actor(), ch, append(tags, nostr.Tag{"visibility", vis})...)
}
