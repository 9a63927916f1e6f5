package nip29

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// readingDeletedGroup is the reading every nip29/deleted-group case takes.
const readingDeletedGroup = "NIP-29 defines 9008 only by its name, delete-group, in the moderation table. The harness reads an accepted 9008 as ending the group: its latest state is a group that is gone. Only sentences that still bind what is left are judged, each at its own level; what no sentence governs (a former member's message to the deleted group, an open group's old messages) is noted."

// deletedGroup has owner delete ch by 9008; a refusal blocks the case
// (delete-group is the harness's contract point, base/delete/1).
func deletedGroup(t *framework.T, owner *fixtures.Client, ch string) {
	del := fixtures.DeleteChannel(owner.Actor(), ch)
	if ok := t.Publish(owner, del); !ok.Accepted {
		t.RefusedWrite(framework.PreDeleteGroup, ok, "the creator's 9008")
	}
	t.Track(del)
}

// deletedGroupSpecs are the cases of nip29/deleted-group.
func deletedGroupSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/deleted/1", Clauses: []string{"nip29/deleted-group.1"}, Area: "groups", Section: "nip29/deleted-group", Level: framework.SHOULD,
			Requirement: "After the creator's accepted 9008, no 39001 or 39002 of the group still lists its owner or its member; a member's message to the deleted group and the 39000 are noted.",
			Reading:     readingDeletedGroup + " The state events \"should reflect the latest group state\", and \"a single instance of each (or none)\" exists: a deleted group has no admins or members to list."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				kinds := t.StateKinds(fixtures.KindAdmins, fixtures.KindMembers)
				for _, k := range kinds {
					t.MustStateEvent(owner, k, ch)
				}
				deletedGroup(t, owner, ch)
				for _, k := range kinds {
					var last *nostr.Event
					gone := t.Within(func(g Gomega) {
						last = t.StateEvent(owner, k, ch)
						g.Expect(last == nil || (!listed(last, owner.Actor().PubKey, "") && !listed(last, member.Actor().PubKey, ""))).To(BeTrue())
					})
					if !gone {
						t.Violates("nip29/deleted-group.1", "NIP-29 (nip29/deleted-group.1): the state events should reflect the latest group state; after the accepted 9008 of %s, its kind %d still lists the group's owner or member: %s", ch, k, framework.TagsOf(last))
					}
				}
				okMsg := t.Publish(member, fixtures.Message(member.Actor(), ch, t.Unique("after the delete")))
				meta := t.QueryResult(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				t.Note("after the accepted 9008 of %s: a former member's message got %s (no sentence governs it); 39000 by #d: %d event(s)", ch, okMsg, len(meta.Events))
			}},
		{Case: framework.Case{ID: "base/deleted/2", Clauses: []string{"nip29/join.1"}, Area: "groups", Section: "nip29/deleted-group", Level: framework.MUST,
			Requirement: "A join request to a group deleted by an accepted 9008 is rejected, or, if accepted, it added the user (the group's 39002 or a relay-signed 9000 names it).",
			Reading:     readingDeletedGroup + " NIP-29: relays MUST reject a join request if the user has not been added to the group; whether a relay re-opens a deleted id to joins is its own, so an accepted join is judged by whether it added the user."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				deletedGroup(t, owner, ch)
				joiner := t.Connect(t.Actor("joiner"))
				pk := joiner.Actor().PubKey
				join := fixtures.JoinRequest(joiner.Actor(), ch, "")
				ok := t.Publish(joiner, join)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the join request to the deleted group was refused: %s", ok)
					return
				}
				t.Track(join)
				added := t.Within(func(g Gomega) {
					if members := t.StateEvent(joiner, fixtures.KindMembers, ch); members != nil && listed(members, pk, "") {
						return
					}
					puts := t.QueryResult(joiner, nostr.Filter{Kinds: []int{fixtures.KindPutUser}, Tags: nostr.TagMap{"h": {ch}, "p": {pk}}})
					g.Expect(puts.Events).NotTo(BeEmpty())
				})
				if !added {
					t.Violates("nip29/join.1", "NIP-29 (nip29/join.1): relays MUST reject a join request if the user has not been added to the group; the join request to %s, deleted by an accepted 9008, was accepted (%s), yet no 39002 lists %s and no 9000 names it", ch, ok, pk)
				}
				t.Note("the join request to the deleted group was accepted and added the user: the relay re-opened the id")
			}},
		{Case: framework.Case{ID: "base/deleted/3", Clauses: []string{"nip29/read-access.1"}, Area: "read-access", Section: "nip29/deleted-group", Level: framework.MUST,
			Requirement: "Deleting a private group admits no reader: after its accepted 9008, its message (read by the member before) reaches no outsider or anonymous reader, by #h or by id.",
			Reading:     readingDeletedGroup + " \"private indicates that only members can read group messages\": a group that is gone has no members to add, so its messages reach nobody new; whether its members still read them is noted."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Private, "member")
				t.RequireFlags(owner, ch, fixtures.FlagPrivate)
				m := fixtures.Message(owner.Actor(), ch, "secret")
				t.Accept(owner, m, "message in the private group")
				byH := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				// The positive control: the message is served, to a member.
				if r := t.QueryResult(member, byH); r.Closed || !slices.Contains(framework.IDs(r.Events), m.ID) {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("the member's REQ %s did not return the group's message before the delete (got %v, CLOSED %q)", byH, framework.IDs(r.Events), r.ClosedReason))
				}
				deletedGroup(t, owner, ch)
				byID := nostr.Filter{IDs: []string{m.ID}}
				for _, reader := range []struct {
					who string
					c   *fixtures.Client
				}{{"an outsider", t.Connect(t.Actor("outsider"))}, {"an anonymous reader", t.Connect(nil)}} {
					for _, f := range []nostr.Filter{byH, byID} {
						r := t.QueryResult(reader.c, f)
						if slices.Contains(framework.IDs(r.Events), m.ID) {
							t.Violates("nip29/read-access.1", "NIP-29 (nip29/read-access.1): only members can read a private group's messages; after the group's accepted 9008, %s got its message %s by %s", reader.who, m.ID, f)
						}
					}
				}
				after := t.QueryResult(member, byID)
				t.Note("after the 9008, the member's REQ by id returned the message: %v", slices.Contains(framework.IDs(after.Events), m.ID))
			}},
	}
}
