package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// The read-path faults' probes, added to faultProbes (faults_test.go) here
// so that fault files stay independent.
func init() {
	faultProbes[faultReadsIDsSkipAccess] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		co, anon := dial(t, url), dial(t, url)
		co.auth(owner)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		m := owner.msg(t, id, "secret", 0)
		co.mustPublish(m)
		return len(anon.query(nostr.Filter{IDs: []string{m.ID}})) > 0
	}
	faultProbes[faultReadsRemovedMemberReads] = func(t *testing.T, r *Relay, url string) bool {
		owner, gone := newActor(t), newActor(t)
		co, cg := dial(t, url), dial(t, url)
		co.auth(owner)
		cg.auth(gone)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		co.mustPublish(owner.put(t, id, gone.pk, roleMember))
		co.mustPublish(owner.msg(t, id, "secret", 0))
		co.mustPublish(owner.remove(t, id, gone.pk))
		return len(cg.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}})) > 0
	}
	faultProbes[faultReadsLaterFiltersNoCheck] = func(t *testing.T, r *Relay, url string) bool {
		owner := newActor(t)
		co, anon := dial(t, url), dial(t, url)
		co.auth(owner)
		id := newChannelID()
		co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
		co.mustPublish(owner.msg(t, id, "secret", 0))
		got := anon.query(nostr.Filter{Kinds: []int{1}, Limit: 1}, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}})
		for _, ev := range got {
			if ev.Kind == 9 {
				return true
			}
		}
		return false
	}
}
