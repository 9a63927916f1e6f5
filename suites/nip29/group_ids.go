package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// groupIdsSpecs are the cases of nip29/group-ids.
func groupIdsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/group-ids/1", framework.SHOULD,
			"A group with an ordinary, non-UUID id is created by a bare 9007, and its creator's message to it is accepted and served by #h.",
			"nip29/group-ids.1").
			WithReading("NIP-29 gives group ids no format (\"a random string of any length\") and no duty to create groups: a relay that creates groups for UUID ids but refuses an ordinary id narrows the id space the NIP defines; the case runs at SHOULD. The labels draft requires UUIDs for its h-tagged creation, so under --profile labels the case is unsupported."),
			Run: func(t *framework.T) {
				if t.Env.Profile == framework.ProfileLabels {
					t.Unsupported("the labels profile requires a UUID for every h-tagged 9007 (nip-cl-labels.md), so an ordinary group id is checked in the nip29 and identity profiles")
				}
				c := t.Connect(t.Actor("owner"))
				id := t.Unique("pizza-lovers")
				ok := t.Publish(c, fixtures.CreateGroup(c.Actor(), id))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					// Observe whether the relay creates groups at all:
					// the same bare 9007 with a UUID id.
					probe := t.Publish(c, fixtures.CreateGroup(c.Actor(), fixtures.NewChannelID()))
					if !probe.Accepted {
						t.RefusedWrite(framework.PreCreateGroup, probe, "bare 9007 create-group with a UUID id")
					}
					t.Violates("nip29/group-ids.1", "NIP-29 (nip29/group-ids.1): groups are identified by a random string of any length; the relay created a group with a UUID id but refused the id %q: %s", id, ok)
				}
				meta := t.GroupMetadata(c, id)
				if d := framework.TagOf(meta, "d"); d != id {
					t.Violates("nip29/group-ids.1", "NIP-29 (nip29/group-ids.1): the 39000 of group %q has d = %q", id, d)
				}
				msg := fixtures.Message(c.Actor(), id, "hello "+id)
				t.Accept(c, msg, "the creator's message to the group with id "+id)
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {id}}})
				if !containsID(got, msg.ID) {
					t.Violates("nip29/group-ids.1", "NIP-29 (nip29/group-ids.1): the accepted message to group %q is not served by #h (got %v)", id, framework.IDs(got))
				}
			}},
	}
}
