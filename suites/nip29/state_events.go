package nip29

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// stateEventsSpecs are the cases of nip29/state-events: the relay-signed state events (39000-39004): served by #d, signed by the relay, one per group, their content.
func stateEventsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/state/1", framework.MUST,
			"The group state events the relay publishes (39000-39003) are signed by the NIP-11 self key with a valid id and signature.",
			"nip29/state-events.1", "labels/events.1", "nip11/document.3"),
			Run: func(t *framework.T) {
				t.Checking("nip29/state-events.1")
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				t.GroupMetadata(c, ch)
				var seen []int
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles} {
					if ev := t.StateEvent(c, k, ch); ev != nil {
						t.RequireRelaySigned(ev)
						seen = append(seen, k)
					}
				}
				t.Note("state kinds the relay published for the group: %v", seen)
			}},
		{Case: framework.NewCase("base/state/2", framework.SHOULD,
			"A replacement 39000 has a greater created_at than the one it replaces, even for edits in the same second.",
			"nip29/state-events.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				prev := t.GroupMetadata(c, ch)
				for i := 0; i < 3; i++ {
					name := t.Unique("rename")
					t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name}), "rename")
					cur := t.GroupMetadata(c, ch)
					if framework.TagOf(cur, "name") != name {
						t.Note("the 39000 did not take the new name %q (see base/edit/1)", name)
						return
					}
					if cur.CreatedAt <= prev.CreatedAt {
						t.Violates("nip29/state-events.2", "NIP-29 with NIP-01 addressable events (nip29/state-events.2): the 39000 naming %q has created_at %d, not greater than the %d of the one it replaces, so a client may keep the older", name, cur.CreatedAt, prev.CreatedAt)
					}
					prev = cur
				}
			}},
		{Case: framework.NewCase("base/state/3", framework.SHOULD,
			"After edits, a #d read of a group's 39000 returns a single head, not superseded ones.",
			"nip29/state-events.3"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				for i := 0; i < 2; i++ {
					t.Accept(c, fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("edit")}), "edit")
				}
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				if len(got) != 1 {
					t.Violates("nip29/state-events.3", "NIP-29 (nip29/state-events.3): a single 39000 should exist per group; #d read returned %d: %v", len(got), framework.IDs(got))
				}
			}},
		{Case: framework.NewCase("base/state/4", framework.SHOULD,
			"A 39000 REQ over three groups with limit 2 returns at most two events.",
			"nip29/state-events.4"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				var ids []string
				for i := 0; i < 3; i++ {
					ids = append(ids, t.CreateChannel(c, fixtures.ChannelSpec{}))
				}
				// Each group first, second and last: NIP-01 matches a list by
				// any of its values, so every order has three matches to cut
				// to two. NIP-01 finds fewer than the limit acceptable, so one
				// is enough; more than two is not.
				for _, fs := range readmatrix.Orders([]nostr.Filter{{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}, Limit: 2}}) {
					got := t.Query(c, fs...)
					if len(got) > 2 {
						t.Violates("nip29/state-events.4", "NIP-01 limit (nip29/state-events.4): the 39000 REQ %s with limit 2 returned %d events", framework.FilterString(fs), len(got))
					}
					if len(got) == 0 {
						framework.Failf("the 39000 REQ %s over the creator's three groups with limit 2 returned nothing", framework.FilterString(fs))
					}
				}
			}},
		{Case: framework.NewCase("base/state/5", framework.SHOULD,
			"After the creator's 9002 with name, picture, banner and about, the 39000 carries all four.",
			"nip29/state-events.5"),
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
						t.Violates("nip29/state-events.5", "NIP-29 (nip29/state-events.5): the 39000 should reflect the latest group state: %s is %q, want %q (39000 tags: %s)", f[0], got, f[1], framework.TagsOf(meta))
					}
				}
			}},
		{Case: framework.NewCase("base/state/6", framework.SHOULD,
			"A 39000 for the group signed by a user key is refused and not served.",
			"nip29/state-events.6"),
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
						t.Violates("nip29/state-events.6", "NIP-29 (nip29/state-events.6): a #d read of the group's 39000 serves the user-signed %s", ev.ID)
					}
				}
				if got := framework.TagOf(t.GroupMetadata(owner, ch), "name"); got != before {
					t.Violates("nip29/state-events.6", "NIP-29 (nip29/state-events.6): the group's name changed from %q to %q after a refused user-signed 39000", before, got)
				}
			}},
		{Case: framework.NewCase("base/state/7", framework.SHOULD,
			"After moderation events that leave the state as it was (the same 9002 and 9000 again, in the same second), each state kind still has a single instance per group.",
			"nip29/state-events.3"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				roles := t.PutRoles(owner, ch, "member")
				m := fixtures.GroupMetadata{Name: t.Unique("same")}
				for i := 0; i < 2; i++ {
					t.Accept(owner, fixtures.EditGroup(owner.Actor(), ch, m), fmt.Sprintf("the same 9002, time %d", i+1))
					again := fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, roles...)
					again.Content = t.Unique("again") // a new event with the same effect
					t.Accept(owner, owner.Actor().Sign(again), fmt.Sprintf("the same 9000, time %d", i+1))
				}
				var seen []string
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles} {
					heads := t.StateHeads(owner, k, ch)
					if len(heads) > 1 {
						t.Violates("nip29/state-events.3", "NIP-29 (nip29/state-events.3): a single instance of each state event should exist per group; after regenerations that changed nothing, a #d read of kind %d returns %d: %s", k, len(heads), strings.Join(framework.IDs(heads), ", "))
					}
					if len(heads) == 1 {
						seen = append(seen, fmt.Sprint(k))
					}
				}
				t.Note("state kinds published for the group: %v", seen)
			}},
		{Case: framework.NewCase("base/state/8", framework.MUST,
			"Every 39004 the relay publishes names participants only in participant tags, as 64-character lowercase hex, and is signed by the relay.",
			"nip29/state-events.7").
			WithReading("39004 is optional and tied to live AV rooms: where the relay offers AV (204 at /.well-known/nip29/livekit), the case first takes a LiveKit token for a fresh group as its owner, then reads the relay's 39004 events (the group's, waited for after a token, and up to 20 of any group); none makes it unsupported."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				own := nostr.Filter{Kinds: []int{kindParticipants}, Tags: nostr.TagMap{"d": {ch}}}
				// The case creates the condition it checks where it can: a
				// relay running AV rooms may publish the participants of a
				// room someone took a token for.
				if st := livekitStatus(t); st.status == http.StatusNoContent {
					if a := livekitToken(t, owner, ch); tokenIssued(a) {
						t.Note("took a LiveKit token for the group (HTTP %d, a JWT)", a.status)
						if !t.Within(func(g Gomega) { g.Expect(t.Query(owner, own)).NotTo(BeEmpty()) }) {
							t.Note("no 39004 for the group after the token (%s)", t.LastSettle())
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
							t.Violates("nip29/state-events.7", "NIP-29 (nip29/state-events.7): 39004 %s has the participant tag %q, not a 64-character lowercase hex public key", ev.ID, tg)
						}
					}
				}
				t.Note("39004 events read: %d", len(evs))
			}},
	}
}
