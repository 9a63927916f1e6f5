package nip29

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"

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

// baselineModerationSpecs: NIP-29's moderation table with an unauthorized
// attempt per kind, 9005 delete-event by every read path, the state events'
// content, signer and uniqueness, and timeline references. Roles are relay
// policy, so the unauthorized actor is always a key with no role in the
// group, and what the creator may do is observed (a refused optional kind
// is unsupported, never a failure).
func baselineModerationSpecs() []framework.Spec {
	specs := []framework.Spec{
		{Case: framework.Case{ID: "base/moderation/1", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9001 remove-user from a key with no role in the group is refused and the member stays."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				outsider := t.Connect(t.Actor("outsider"))
				pk := member.Actor().PubKey
				awaitMember(t, owner, ch, pk, true, "the member put by the creator")
				t.Reject(outsider, fixtures.RemoveUser(outsider.Actor(), ch, pk), "", "NIP-29 (nip29/moderation.1): an outsider's 9001 removing a member")
				if found, _ := framework.HasP(t.MustStateEvent(owner, fixtures.KindMembers, ch), pk); !found {
					framework.Failf("NIP-29 (nip29/moderation.1): the outsider's refused 9001 still removed the member %s from 39002", pk)
				}
			}},
		{Case: framework.Case{ID: "base/moderation/2", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9002 edit-metadata from a key with no role in the group is refused and the name stays."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				before := framework.TagOf(t.GroupMetadata(owner, ch), "name")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.EditGroup(outsider.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("outsider-rename")}), "", "NIP-29 (nip29/moderation.1): an outsider's 9002")
				if got := framework.TagOf(t.GroupMetadata(owner, ch), "name"); got != before {
					framework.Failf("NIP-29 (nip29/moderation.1): the outsider's refused 9002 still renamed the group from %q to %q", before, got)
				}
			}},
		{Case: framework.Case{ID: "base/moderation/3", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9005 delete-event from a key with no role in the group is refused and the event it names is still served."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				msg := fixtures.Message(owner.Actor(), ch, "keep "+t.Unique("m"))
				t.Accept(owner, msg, "the creator's message")
				requireServed(t, owner, msg, "the creator's message before the outsider's 9005")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, deleteEvent(outsider.Actor(), ch, msg.ID), "", "NIP-29 (nip29/moderation.1): an outsider's 9005 naming the creator's message")
				if len(t.Query(owner, nostr.Filter{IDs: []string{msg.ID}})) == 0 {
					framework.Failf("NIP-29 (nip29/moderation.1): the outsider's refused 9005 still deleted %s: a read by id returns nothing", msg.ID)
				}
			}},
		{Case: framework.Case{ID: "base/moderation/4", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9008 delete-group from a key with no role in the group is refused and the group stays."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.DeleteChannel(outsider.Actor(), ch), "", "NIP-29 (nip29/moderation.1): an outsider's 9008")
				if t.StateEvent(owner, fixtures.KindMetadata, ch) == nil {
					framework.Failf("NIP-29 (nip29/moderation.1): the outsider's refused 9008 still deleted the group: its 39000 is no longer served")
				}
			}},
		{Case: framework.Case{ID: "base/moderation/5", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9009 create-invite from a key with no role in a closed group is refused, and its code admits nobody.",
			Reading:     "NIP-29 gives an invite code no effect of its own beyond \"may be used by the relay to preauthorize acceptance\"; the refused code's effect is observed as a join request carrying it. When a join request with a code nobody issued is honoured too, the code's effect cannot be told apart and the case is unsupported, with a note (see base/join)."},
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
					framework.Failf("NIP-29 (nip29/moderation.1): a join request carrying the outsider's refused invite code was accepted (%s), while one with a code nobody issued was refused", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
		{Case: framework.Case{ID: "base/moderation/6", Clauses: []string{"nip29/moderation.1"}, Area: "moderation", Section: "nip29/moderation", Level: framework.MUST,
			Requirement: "A 9010 update-pin-list from a key with no role in the group is refused and the 39005, when published, does not pin the event."},
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
					framework.Failf("NIP-29 (nip29/moderation.1): the outsider's refused 9010 still pinned %s (39005 tags: %s)", msg.ID, framework.TagsOf(pins))
				}
			}},
		{Case: framework.Case{ID: "base/moderation/7", Clauses: []string{"nip29/moderation.2"}, Area: "moderation", Section: "nip29/moderation", Level: framework.SHOULD,
			Requirement: "The creator's accepted 9000 and 9002 stay readable by #h and by id, so the group state can be reconstructed from them."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				put := fixtures.PutUser(owner.Actor(), ch, t.Actor("member").PubKey, t.PutRole(owner, ch, "member"))
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
							framework.Failf("NIP-29 (nip29/moderation.2): the group state should be reconstructable from its moderation events, but REQ %s does not return the accepted %s (got %v)", framework.FilterString([]nostr.Filter{f}), id, got)
						}
					}
				}
			}},

		{Case: framework.Case{ID: "base/delete-event/1", Clauses: []string{"nip29/delete-event.1"}, Area: "moderation", Section: "nip29/delete-event", Level: framework.MUST,
			Requirement: "After the creator's accepted 9005, the event is served by no read: #h, ids, authors, kinds, nor a subscription opened afterwards; the group's other messages still are.",
			Reading:     "9005 is optional (moderation events are): a refused 9005 from the creator makes the case unsupported, quoting the refusal."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				gone := fixtures.Message(owner.Actor(), ch, "delete me "+t.Unique("m"))
				kept := fixtures.Message(owner.Actor(), ch, "keep me "+t.Unique("m"))
				t.Accept(owner, gone, "the message to delete")
				t.Accept(owner, kept, "a message that stays")
				requireServed(t, owner, gone, "the message before the 9005")
				ok := t.Publish(owner, deleteEvent(owner.Actor(), ch, gone.ID))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the creator's 9005 delete-event was refused (moderation events are optional): " + ok.String())
				}
				reader := t.Connect(t.Actor("reader"))
				paths := []nostr.Filter{
					{IDs: []string{gone.ID}},
					{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}},
					{Authors: []string{owner.Actor().PubKey}, Kinds: []int{fixtures.KindMessage}},
					{Kinds: []int{fixtures.KindMessage}, Since: &gone.CreatedAt},
				}
				for _, c := range []*fixtures.Client{owner, reader} {
					t.Eventually(func(g Gomega) {
						for _, f := range paths {
							r, err := c.Query(t.Ctx(), f)
							g.Expect(err).NotTo(HaveOccurred())
							g.Expect(framework.IDs(r.Events)).NotTo(ContainElement(gone.ID), "REQ %s as %s still serves the deleted %s", framework.FilterString([]nostr.Filter{f}), framework.ActorName(c), gone.ID)
						}
					}, "NIP-29 (nip29/delete-event.1): the event named by the accepted 9005 is no longer served")
				}
				sub := t.Subscribe(reader, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				stored := framework.IDs(sub.Stored())
				if slices.Contains(stored, gone.ID) {
					framework.Failf("NIP-29 (nip29/delete-event.1): a subscription opened after the 9005 still receives the deleted %s", gone.ID)
				}
				if !slices.Contains(stored, kept.ID) {
					framework.Failf("the group's other message %s is not served after the 9005 either (stored part: %v), so the deletion cannot be told from an empty read", kept.ID, stored)
				}
			}},

		{Case: framework.Case{ID: "base/state/5", Clauses: []string{"nip29/state-events.5"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "After the creator's 9002 with name, picture, banner and about, the 39000 carries all four."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				fields := [][2]string{
					{"name", t.Unique("name")},
					{"picture", "https://example.invalid/" + t.Unique("p") + ".png"},
					{"banner", "https://example.invalid/" + t.Unique("b") + ".png"},
					{"about", "about " + t.Unique("a")},
				}
				var tags nostr.Tags
				for _, f := range fields {
					tags = append(tags, nostr.Tag{f[0], f[1]})
				}
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, tags...), "the creator's 9002 with every display field")
				meta := t.GroupMetadata(owner, ch)
				for _, f := range fields {
					if got := framework.TagOf(meta, f[0]); got != f[1] {
						framework.Failf("NIP-29 (nip29/state-events.5): the 39000 should reflect the latest group state: %s is %q, want %q (39000 tags: %s)", f[0], got, f[1], framework.TagsOf(meta))
					}
				}
			}},
		{Case: framework.Case{ID: "base/state/6", Clauses: []string{"nip29/state-events.6"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "A 39000 for the group signed by a user key is refused and not served."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				before := framework.TagOf(t.GroupMetadata(owner, ch), "name")
				forger := t.Connect(t.Actor("forger"))
				forged := forger.Actor().Event(fixtures.KindMetadata, nostr.Tags{{"d", ch}, {"name", t.Unique("forged")}}, "")
				t.Reject(forger, forged, "", "NIP-29 (nip29/state-events.6): a user-signed 39000 for the group")
				t.QueryAbsent(owner, "NIP-29 (nip29/state-events.6): the refused user-signed 39000", nostr.Filter{IDs: []string{forged.ID}})
				for _, ev := range t.StateHeads(owner, fixtures.KindMetadata, ch) {
					if ev.PubKey == forger.Actor().PubKey {
						framework.Failf("NIP-29 (nip29/state-events.6): a #d read of the group's 39000 serves the user-signed %s", ev.ID)
					}
				}
				if got := framework.TagOf(t.GroupMetadata(owner, ch), "name"); got != before {
					framework.Failf("NIP-29 (nip29/state-events.6): the group's name changed from %q to %q after a refused user-signed 39000", before, got)
				}
			}},
		{Case: framework.Case{ID: "base/state/7", Clauses: []string{"nip29/state-events.3"}, Area: "state-events", Section: "nip29/state-events", Level: framework.SHOULD,
			Requirement: "After moderation events that leave the state as it was (the same 9002 and 9000 again, in the same second), each state kind still has a single instance per group."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				role := t.PutRole(owner, ch, "member")
				m := fixtures.GroupMetadata{Name: t.Unique("same")}
				for i := 0; i < 2; i++ {
					t.Accept(owner, fixtures.EditGroup(owner.Actor(), ch, m), fmt.Sprintf("the same 9002, time %d", i+1))
					again := fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, role)
					again.Content = t.Unique("again") // a new event with the same effect
					t.Accept(owner, owner.Actor().Sign(again), fmt.Sprintf("the same 9000, time %d", i+1))
				}
				var seen []string
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles} {
					heads := t.StateHeads(owner, k, ch)
					if len(heads) > 1 {
						framework.Failf("NIP-29 (nip29/state-events.3): a single instance of each state event should exist per group; after regenerations that changed nothing, a #d read of kind %d returns %d: %s", k, len(heads), strings.Join(framework.IDs(heads), ", "))
					}
					if len(heads) == 1 {
						seen = append(seen, fmt.Sprint(k))
					}
				}
				t.Note("state kinds published for the group: %v", seen)
			}},
		{Case: framework.Case{ID: "base/state/8", Clauses: []string{"nip29/state-events.7"}, Area: "state-events", Section: "nip29/state-events", Level: framework.MUST,
			Requirement: "Every 39004 the relay publishes names participants only in participant tags, as 64-character lowercase hex, and is signed by the relay.",
			Reading:     "39004 is optional and tied to live AV rooms: where the relay offers AV (204 at /.well-known/nip29/livekit), the case first takes a LiveKit token for a fresh group as its owner, then reads the relay's 39004 events (the group's, waited for after a token, and up to 20 of any group); none makes it unsupported."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				own := nostr.Filter{Kinds: []int{kindParticipants}, Tags: nostr.TagMap{"d": {ch}}}
				// The case creates the condition it checks where it can: a
				// relay running AV rooms may publish the participants of a
				// room someone took a token for.
				if st := livekitStatus(t); st.status == http.StatusNoContent {
					if a := livekitToken(t, owner, ch); ok2xx(a) {
						t.Note("took a LiveKit token for the group (HTTP %d)", a.status)
						if !t.Within(func(g Gomega) { g.Expect(t.Query(owner, own)).NotTo(BeEmpty()) }) {
							t.Note("no 39004 for the group within %s of the token", t.Env.StepTimeout)
						}
					}
				}
				evs := t.Query(owner, own)
				// The relay-wide read is a wider look only: a relay may
				// refuse a REQ that names no group (relay29 does).
				wide := t.QueryResult(owner, nostr.Filter{Kinds: []int{kindParticipants}, Limit: 20})
				if wide.Closed {
					framework.CheckPrefix("CLOSED", wide.ClosedReason)
					t.Note("the relay-wide 39004 read was refused (CLOSED %q); only the group's own was read", wide.ClosedReason)
				}
				evs = append(evs, wide.Events...)
				if len(evs) == 0 {
					t.Unsupported("the relay publishes no 39004 (NIP-29: a relay MAY publish it)")
				}
				for _, ev := range evs {
					t.RequireRelaySigned(ev)
					for _, tg := range ev.Tags {
						if len(tg) >= 1 && tg[0] == "participant" && (len(tg) < 2 || len(tg[1]) != 64 || !isLowerHex(tg[1])) {
							framework.Failf("NIP-29 (nip29/state-events.7): 39004 %s has the participant tag %q, not a 64-character lowercase hex public key", ev.ID, tg)
						}
					}
				}
				t.Note("39004 events read: %d", len(evs))
			}},

		{Case: framework.Case{ID: "base/timeline/1", Clauses: []string{"nip29/timeline.1"}, Area: "timeline", Section: "nip29/timeline", Level: framework.SHOULD,
			Requirement: "A group message whose previous tag adds a reference matching no event of the relay to three valid ones is refused.",
			Reading:     timelineReading},
			Run: func(t *framework.T) {
				owner, refs, ch := timelineSetup(t)
				valid := fixtures.Message(owner.Actor(), ch, "in context "+t.Unique("m"))
				valid.Tags = append(valid.Tags, append(nostr.Tag{"previous"}, refs...))
				if ok := t.Publish(owner, owner.Actor().Sign(valid)); !ok.Accepted {
					framework.Failf("NIP-29 (nip29/timeline.2): a message whose three previous references name the member's messages was refused (%s), so the refusal of an unknown reference would prove nothing", ok)
				}
				unknown := unknownPrefix()
				bad := fixtures.Message(owner.Actor(), ch, "out of context "+t.Unique("m"))
				bad.Tags = append(bad.Tags, append(nostr.Tag{"previous"}, append(slices.Clone(refs), unknown)...))
				ok := t.Publish(owner, owner.Actor().Sign(bad))
				if ok.Accepted {
					framework.Failf("NIP-29 (nip29/timeline.1): relays are expected to reject events with timeline references to events not found in their database, but a message referencing %s (which names no event the harness sent; random 4 bytes) was accepted", unknown)
				}
				framework.CheckPrefix("OK", ok.Reason)
				t.Note("the unknown reference was refused: %s", ok)
			}},
		{Case: framework.Case{ID: "base/timeline/2", Clauses: []string{"nip29/timeline.2"}, Area: "timeline", Section: "nip29/timeline", Level: framework.MUST,
			Requirement: "A group message whose previous tag names three of other members' recent messages (first 8 hex digits) is accepted and served.",
			Reading:     timelineReading},
			Run: func(t *framework.T) {
				owner, refs, ch := timelineSetup(t)
				ev := fixtures.Message(owner.Actor(), ch, "in context "+t.Unique("m"))
				ev.Tags = append(ev.Tags, append(nostr.Tag{"previous"}, refs...))
				ev = owner.Actor().Sign(ev)
				if ok := t.Publish(owner, ev); !ok.Accepted {
					framework.Failf("NIP-29 (nip29/timeline.2): events sent to groups may contain previous references; one whose references name the member's three messages was refused: %s", ok)
				}
				requireServed(t, owner, ev, "the message with timeline references")
			}},
	}
	return specs
}

// timelineReading is the reading both timeline cases take.
const timelineReading = "\"Relays are expected to reject any events that contain timeline references to events not found in their own database\" has no RFC 2119 keyword; \"expected\" is read as SHOULD. " +
	"References are checked against the whole database, so the unknown reference names no event at all. The valid ones are the first 8 hex digits of three messages another member posted just before, " +
	"sent as one [\"previous\", ...] tag, so a relay that enforces the recommended minimum of three, or the window of the last 50 events not by the author, accepts them too."

// timelineSetup creates an open group whose member posts three messages and
// returns the creator's connection, the messages' 8-digit prefixes and the
// group id.
func timelineSetup(t *framework.T) (*fixtures.Client, []string, string) {
	owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
	var refs []string
	for i := 0; i < 3; i++ {
		m := fixtures.Message(member.Actor(), ch, fmt.Sprintf("context %d %s", i, t.Unique("m")))
		t.Accept(member, m, "a member's message to reference")
		refs = append(refs, m.ID[:8])
	}
	return owner, refs, ch
}

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
