package identity

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// stateTags returns the tags of a channel's current 39000, 39001 and
// 39002 by kind (a kind the relay does not publish is absent), read by #d
// as c's actor.
func stateTags(t *framework.T, c *fixtures.Client, ch string) map[int]nostr.Tags {
	GinkgoHelper()
	st := stateOf(t, c, ch)
	out := map[int]nostr.Tags{}
	for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
		if ev := st[k]; ev != nil {
			out[k] = ev.Tags
		}
	}
	return out
}

// requireStateUnchanged fails unless the channel's 39000-39002 carry the
// same tags as before (a refused event changes nothing: not the labels,
// and not the type, creator, name or any other field either).
func requireStateUnchanged(t *framework.T, c *fixtures.Client, ch string, before map[int]nostr.Tags, why string) {
	GinkgoHelper()
	// Every refused label event is held to it, whatever the case cites.
	defer t.Invariant("identity/label-rules.5")()
	after := stateTags(t, c, ch)
	for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
		b, hadB := before[k]
		a, hasA := after[k]
		t.Expect(hasA).To(Equal(hadB), "%s: kind %d of %s present before (%v) and after (%v)", why, k, ch, hadB, hasA)
		t.Expect(tagStrings(a)).To(Equal(tagStrings(b)), "%s: kind %d of %s must be unchanged (a refused event applies nothing)", why, k, ch)
	}
}

// tagStrings renders tags one per string, for readable comparisons.
func tagStrings(tags nostr.Tags) []string {
	out := make([]string, 0, len(tags))
	for _, tag := range tags {
		out = append(out, fmt.Sprintf("%q", []string(tag)))
	}
	return out
}

// stateIDs returns the event IDs of the current 39000 of each channel,
// read by #d as c's actor (who must be able to read them all). A filter by
// ids names no channel, so it reads them under the generic rules.
func stateIDs(t *framework.T, c *fixtures.Client, chans []string) []string {
	GinkgoHelper()
	evs := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": chans}})
	heads := map[string]*nostr.Event{}
	for _, ev := range evs {
		d := framework.TagOf(ev, "d")
		if cur := heads[d]; cur == nil || ev.CreatedAt > cur.CreatedAt {
			heads[d] = ev
		}
	}
	var ids []string
	for _, ch := range chans {
		ev := heads[ch]
		if ev == nil {
			framework.Failf("expected the 39000 of %s for #d as %s, got none", ch, framework.ActorName(c))
		}
		ids = append(ids, ev.ID)
	}
	slices.Sort(ids)
	return ids
}
