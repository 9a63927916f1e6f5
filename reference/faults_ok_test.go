package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The OK-truth faults' probes, added to faultProbes (faults_test.go) here
// so that fault files stay independent.
func init() {
	faultProbes[faultRefusedButStored] = func(t *testing.T, r *Relay, url string) bool {
		owner, outsider := newActor(t), newActor(t)
		co, cx := dial(t, url), dial(t, url)
		co.auth(owner)
		cx.auth(outsider)
		id := newChannelID()
		co.mustPublish(owner.create(t, id))
		grab := outsider.put(t, id, outsider.pk, "admin")
		if ok := cx.publish(grab); ok.OK {
			t.Fatalf("the outsider's 9000 was accepted: %s", ok.Reason)
		}
		return hasID(co.query(nostr.Filter{IDs: []string{grab.ID}}), grab.ID)
	}
	faultProbes[faultAppliedButRefused] = func(t *testing.T, r *Relay, url string) bool {
		owner, a := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		put := owner.put(t, id, a.pk, "")
		ok := c.publish(put)
		return !ok.OK && hasID(c.query(nostr.Filter{IDs: []string{put.ID}}), put.ID)
	}
}
