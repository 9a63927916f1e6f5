package reference

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestOrdinaryGroupIDs: NIP-29 identifies groups by "a random string of any
// length", so in the nip29 profile a group with an ordinary id can be
// created, joined and posted to; the labels profile keeps its draft's UUID
// rule for h-tagged creation.
func TestOrdinaryGroupIDs(t *testing.T) {
	ids := []string{"pizza", "a", "Tech_Group-1", "nostr.dev/general", "00000000-0000-0000-0000-000000000000", strings.ToUpper(newChannelID())}
	_, url := startRelay(t, Config{Profile: "nip29"})
	owner, joiner := newActor(t), newActor(t)
	co, cj := dial(t, url), dial(t, url)
	co.auth(owner)
	cj.auth(joiner)
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			co.mustPublish(owner.event(t, kindCreateGroup, nostr.Tags{{"h", id}}, "", 0))
			if meta := co.state(kindGroupMetadata, id); meta == nil {
				t.Fatalf("no 39000 for group %q", id)
			}
			cj.mustPublish(joiner.event(t, kindJoinRequest, nostr.Tags{{"h", id}}, "", 0))
			if mem := co.state(kindGroupMembers, id); mem == nil || !hasPTag(mem, joiner.pk, roleMember) {
				t.Fatalf("39002 of %q after the join = %v", id, mem)
			}
			cj.mustPublish(joiner.msg(t, id, "hello "+id, 0))
			if got := co.query(nostr.Filter{Kinds: []int{kindChatMessage}, Tags: nostr.TagMap{"h": {id}}}); len(got) != 1 {
				t.Fatalf("messages of %q: %d, want 1", id, len(got))
			}
		})
	}

	_, lurl := startRelay(t, Config{Profile: "labels"})
	cl := dial(t, lurl)
	cl.auth(owner)
	ok := cl.publish(owner.event(t, kindCreateGroup, nostr.Tags{{"h", "pizza"}}, "", 0))
	if ok.OK || !strings.HasPrefix(ok.Reason, "invalid:") {
		t.Fatalf("labels profile, 9007 with h pizza: %v %q, want invalid:", ok.OK, ok.Reason)
	}
}
