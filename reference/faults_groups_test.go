package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The group-lifecycle faults' probes (9007 over a live group, a deleted
// parent), added to faultProbes (faults_test.go).
func init() {
	faultProbes[faultCreateTakesOver] = func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		if !cx.publish(outsider.bare(t, id)).OK {
			return false
		}
		meta := co.state(kindGroupMetadata, id)
		return meta != nil && !hasTag(meta, "private")
	}
}

// The deleted-parent fault's probe.
func init() {
	faultProbes[faultSubgroupDeletedParent] = func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		gone := x.group("gone")
		x.c.mustPublish(x.owner.event(t, kindDeleteGroup, nostr.Tags{{"h", gone}}, "", 0))
		return x.adopt(x.group("orphan"), gone).OK
	}
}
