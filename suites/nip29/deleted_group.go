package nip29

import (
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
		{Case: framework.NewCase("base/deleted/1", framework.SHOULD,
			"After the creator's accepted 9008, no 39001 or 39002 of the group still lists its owner or its member; a member's message to the deleted group and the 39000 are noted.",
			"nip29/deleted-group.1").
			WithReading(readingDeletedGroup + " The state events \"should reflect the latest group state\", and \"a single instance of each (or none)\" exists: a deleted group has no admins or members to list."),
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
						g.Expect(last == nil || (!listed(last, owner.Actor().PubKey, nil) && !listed(last, member.Actor().PubKey, nil))).To(BeTrue())
					})
					if !gone {
						t.Violates("nip29/deleted-group.1", "NIP-29 (nip29/deleted-group.1): the state events should reflect the latest group state; after the accepted 9008 of %s, its kind %d still lists the group's owner or member: %s", ch, k, framework.TagsOf(last))
					}
				}
				okMsg := t.Publish(member, fixtures.Message(member.Actor(), ch, t.Unique("after the delete")))
				meta := t.QueryResult(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				t.Note("after the accepted 9008 of %s: a former member's message got %s (no sentence governs it); 39000 by #d: %d event(s)", ch, okMsg, len(meta.Events))
			}},
	}
}
