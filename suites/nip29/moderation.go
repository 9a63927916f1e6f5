package nip29

import (
	"crypto/rand"
	"encoding/hex"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// NIP-29 moderation kinds beyond those fixtures names.
const (
	kindDeleteEvent   = 9005
	kindCreateInvite  = 9009
	kindUpdatePinList = 9010
	kindParticipants  = 39004
	kindPinned        = 39005
)

// moderationSpecs are the cases of nip29/moderation: NIP-29's moderation
// table with an unauthorized attempt per kind. Roles are relay policy, so
// the unauthorized actor is always a key with no role in the group, and
// what the creator may do is observed (a refused optional kind is
// unsupported, never a failure).
func moderationSpecs() []framework.Spec {
	specs := []framework.Spec{
		{Case: framework.NewCase("base/moderation/1", framework.MUST,
			"A 9001 remove-user from a key with no role in the group is refused and the member stays.",
			"nip29/moderation.1").
			WithReading(outsiderModerationReading),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				outsider := t.Connect(t.Actor("outsider"))
				pk := member.Actor().PubKey
				awaitMember(t, owner, ch, pk, true, "the member put by the creator")
				t.Reject(outsider, fixtures.RemoveUser(outsider.Actor(), ch, pk), "", "NIP-29 (nip29/moderation.1): an outsider's 9001 removing a member")
				if found, _ := framework.HasP(t.MustStateEvent(owner, fixtures.KindMembers, ch), pk); !found {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): the outsider's refused 9001 still removed the member %s from 39002", pk)
				}
			}},
		{Case: framework.NewCase("base/moderation/2", framework.MUST,
			"A 9002 edit-metadata from a key with no role in the group is refused and the name stays.",
			"nip29/moderation.1").
			WithReading(outsiderModerationReading),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				before := framework.TagOf(t.GroupMetadata(owner, ch), "name")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.EditGroup(outsider.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("outsider-rename")}), "", "NIP-29 (nip29/moderation.1): an outsider's 9002")
				if got := framework.TagOf(t.GroupMetadata(owner, ch), "name"); got != before {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): the outsider's refused 9002 still renamed the group from %q to %q", before, got)
				}
			}},
		{Case: framework.NewCase("base/moderation/3", framework.MUST,
			"A 9005 delete-event from a key with no role in the group is refused and the event it names is still served.",
			"nip29/moderation.1").
			WithReading(outsiderModerationReading),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				msg := fixtures.Message(owner.Actor(), ch, "keep "+t.Unique("m"))
				t.Accept(owner, msg, "the creator's message")
				requireServed(t, owner, msg, "the creator's message before the outsider's 9005")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, deleteEvent(outsider.Actor(), ch, msg.ID), "", "NIP-29 (nip29/moderation.1): an outsider's 9005 naming the creator's message")
				if len(t.Query(owner, nostr.Filter{IDs: []string{msg.ID}})) == 0 {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): the outsider's refused 9005 still deleted %s: a read by id returns nothing", msg.ID)
				}
			}},
		{Case: framework.NewCase("base/moderation/4", framework.MUST,
			"A 9008 delete-group from a key with no role in the group is refused and the group stays.",
			"nip29/moderation.1").
			WithReading(outsiderModerationReading),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.DeleteChannel(outsider.Actor(), ch), "", "NIP-29 (nip29/moderation.1): an outsider's 9008")
				if t.StateEvent(owner, fixtures.KindMetadata, ch) == nil {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): the outsider's refused 9008 still deleted the group: its 39000 is no longer served")
				}
			}},
		{Case: framework.NewCase("base/moderation/5", framework.MUST,
			"A 9009 create-invite from a key with no role in a closed group is refused, and its code admits nobody.",
			"nip29/moderation.1").
			WithReading("NIP-29 gives an invite code no effect of its own beyond \"may be used by the relay to preauthorize acceptance\"; the refused code's effect is observed as a join request carrying it. When a join request with a code nobody issued is honoured too, the code's effect cannot be told apart and the case is unsupported, with a note (see base/join). " + outsiderModerationReading),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				outsider := t.Connect(t.Actor("outsider"))
				code := t.Unique("code")
				t.Reject(outsider, outsider.Actor().Event(kindCreateInvite, nostr.Tags{{"h", ch}, {"code", code}}, ""), "", "NIP-29 (nip29/moderation.1): an outsider's 9009")
				control := t.Connect(t.Actor("control"))
				if ok := t.Publish(control, fixtures.JoinRequest(control.Actor(), ch, t.Unique("never-issued"))); ok.Accepted {
					t.Unsupported("the closed group honours a join request with a code nobody issued, so whether the refused code admits cannot be observed: " + ok.String())
				}
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, code))
				if ok.Accepted {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): a join request carrying the outsider's refused invite code was accepted (%s), while one with a code nobody issued was refused", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.NewCase("base/moderation/6", framework.SHOULD,
			"A 9010 update-pin-list from a key with no role in the group is refused and the 39005, when published, does not pin the event.",
			"nip29/moderation.1").
			WithReading("Level: the refusal rests on \"relays should reject them if they don't come from an authorized admin\" (lowercase should). The lowercase \"Relays must check if the pubkey sending the event is capable of performing the given action based on its role and the relay's internal policy\" requires the check, but which keys may pin is the relay's policy (\"What each role is capable of not defined in this NIP\"), pins are optional, and the capability probe saw this key refused a 9000, not a 9010; a relay without pins may also store a 9010 as an ordinary group event (\"Groups may accept any event kind\"). Held at SHOULD, as base/pins/3 holds the same refusal for a plain member."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				msg := fixtures.Message(owner.Actor(), ch, "pin me "+t.Unique("m"))
				t.Accept(owner, msg, "the creator's message")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, outsider.Actor().Event(kindUpdatePinList, nostr.Tags{{"h", ch}, {"e", msg.ID}}, ""), "", "NIP-29 (nip29/moderation.1): an outsider's 9010 pinning the creator's message")
				pins := t.StateEvent(owner, kindPinned, ch)
				if pins == nil {
					t.Note("the relay publishes no 39005 for the group: the refusal is the whole observation")
					return
				}
				if slices.Contains(fixtures.TagValues(pins, "e"), msg.ID) {
					t.Violates("nip29/moderation.1", "NIP-29 (nip29/moderation.1): the outsider's refused 9010 still pinned %s (39005 tags: %s)", msg.ID, framework.TagsOf(pins))
				}
			}},
		{Case: framework.NewCase("base/moderation/7", framework.SHOULD,
			"The creator's accepted 9000 and 9002 stay readable by #h and by id, so the group state can be reconstructed from them.",
			"nip29/moderation.2"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				put := fixtures.PutUser(owner.Actor(), ch, t.Actor("member").PubKey, t.PutRoles(owner, ch, "member")...)
				t.Accept(owner, put, "the creator puts a member")
				edit := fixtures.EditGroup(owner.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("renamed")})
				t.Accept(owner, edit, "the creator renames the group")
				want := []string{put.ID, edit.ID}
				for _, f := range []nostr.Filter{
					{Kinds: []int{fixtures.KindPutUser, fixtures.KindEditMetadata}, Tags: nostr.TagMap{"h": {ch}}},
					{IDs: want},
				} {
					got := framework.IDs(t.Query(owner, f))
					for _, id := range want {
						if !slices.Contains(got, id) {
							t.Violates("nip29/moderation.2", "NIP-29 (nip29/moderation.2): the group state should be reconstructable from its moderation events, but REQ %s does not return the accepted %s (got %v)", framework.FilterString([]nostr.Filter{f}), id, got)
						}
					}
				}
			}},
	}
	return specs
}

// outsiderModerationReading is the level reading of the cases that judge
// an outsider's moderation event refused (base/moderation/1-5,
// base/permissions/2).
const outsiderModerationReading = "Level: \"Relays must check if the pubkey sending the event is capable of performing the given action based on its role and the relay's internal policy\" (lowercase must, MUST) with \"relays should reject them if they don't come from an authorized admin\". The outsider has no role in the group, and the capability probe saw the relay's policy refuse this key moderation of groups it does not administer (a key it saw moderate is never handed out as an outsider), so neither its role nor the relay's observed policy gives it the power: held at MUST. On a relay where every key moderates, the case is blocked (unprivileged-key), never failed."

// unknownPrefix returns 8 random hex digits: a reference that names no event
// the harness knows of (a collision with any stored event is a 1 in 2^32
// chance per event).
func unknownPrefix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// deleteEvent builds a signed 9005 delete-event naming id.
func deleteEvent(a *fixtures.Actor, ch, id string) *nostr.Event {
	return a.Event(kindDeleteEvent, nostr.Tags{{"h", ch}, {"e", id}}, "")
}

// requireServed waits until the event is served by id to c: the read every
// later absence is compared with.
func requireServed(t *framework.T, c *fixtures.Client, ev *nostr.Event, what string) {
	t.Eventually(func(g Gomega) {
		r, err := c.Query(t.Ctx(), nostr.Filter{IDs: []string{ev.ID}})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(r.Closed).To(BeFalse(), "REQ by id answered CLOSED %q", r.ClosedReason)
		g.Expect(framework.IDs(r.Events)).To(ContainElement(ev.ID), "%s (%s) is not served by id", what, ev.ID)
	}, what+" is served")
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
