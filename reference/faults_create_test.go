package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The create-group fault's probe, added to faultProbes (faults_test.go).
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
