package reference

import (
	"slices"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Fault switches of the NIP-CL audit: each exploits a hole a
// labels or identity case had (a weak case) or breaks a shape no case sent
// before. Each is checked at exactly one place: the behaviour it breaks.
const (
	faultLabelsDeletionDeferred  = "labels-deletion-deferred-drops-evidence"
	faultLabelsLimitReadRefused  = "labels-limit-read-refused"
	faultIDLimitReadRefused      = "identity-limit-read-refused"
	faultLabelsLiveStaleLabels   = "labels-live-stale-labels"
	faultLabelsRepeatsStored     = "labels-repeats-count-as-stored"
	faultLabelsLimitBeforeApply  = "labels-stored-limit-before-apply"
	faultLabelsFlagEditDrops     = "labels-flag-edit-drops-labels"
	faultLabelsMixedKindsRead    = "labels-mixed-kinds-read-empty"
	faultLabelsDiscoveryTLost    = "labels-discovery-t-ignored"
	faultIDPOptInSkipsACL        = "identity-p-opt-in-skips-acl"
	faultLabelsCountCommunities  = "labels-count-across-communities"
	faultLabelsMutationRetypes   = "labels-mutation-channel-type-applied"
	faultIDBareTStored           = "identity-bare-t-stored-as-empty-label"
	faultIDOptInLimitDropped     = "identity-opt-in-dropped-with-limit"
	faultLabelsIDsLimitBeforeACL = "labels-ids-limit-before-acl"
)

// deferredDeletion is how long the labels-deletion-deferred-drops-evidence
// fault waits before it applies a NIP-09 deletion.
const deferredDeletion = 300 * time.Millisecond

// nipclShapeFaults are the switches of reference/faults_i28.go.
var nipclShapeFaults = []faultSpec{
	{faultLabelsDeletionDeferred, "labels", "labels/retention",
		"a NIP-09 deletion is applied 300 ms after the kind 5 is acknowledged, and then removes the deleted command outright, and with it the application evidence: an exact retry after that is applied as new"},
	{faultLabelsLimitReadRefused, "labels", "labels/finding-channels",
		"a REQ with a limit that would match a snapshot the reader may not read is refused with CLOSED, so the older readable match never comes back"},
	{faultLabelsLiveStaleLabels, "labels", "labels/snapshot",
		"a 39000 delivered live carries the label set of the channel's previous live snapshot (the stored one is right): live subscribers see every change one step late"},
	{faultLabelsRepeatsStored, "labels", "labels/values-and-limits",
		"the stored-label limit counts a mutation's raw add-label tags, repeats included: 64 copies of one value are refused as 64 labels"},
	{faultLabelsLimitBeforeApply, "labels", "labels/values-and-limits",
		"the stored-label limit is checked against the channel's current labels before the mutation applies, not against the result: 40 distinct values added to an empty channel are stored"},
	{faultLabelsFlagEditDrops, "labels", "labels/serialization",
		"an ordinary 9002 that sets a NIP-29 flag (private, hidden …), a topic or a purpose republishes the 39000 without its labels"},
	{faultLabelsMixedKindsRead, "labels", "labels/finding-channels",
		"a filter with #l whose kinds name 39000 beside other kinds matches nothing"},
	{faultLabelsDiscoveryTLost, "labels", "labels/finding-channels",
		"a 39000 filter with both #l and #t ignores #t: channels of another type with the label come back"},
	{faultLabelsCountCommunities, "labels", "labels/community",
		"NIP-45 COUNT counts the matching events of every community, not only the Host's"},
	{faultLabelsMutationRetypes, "labels", "labels/add-remove",
		"a label mutation carrying channel_type is not refused: the labels apply and the channel takes the named type"},
	{faultIDBareTStored, "identity", "identity/label-rules",
		"a one-element [\"t\"] beside labels on a 9007 or 9002 is neither refused nor ignored: it is stored as an empty label"},
	{faultIDOptInLimitDropped, "identity", "identity/asking-for-system",
		"a stored read that opts in to system channels (#t system or #P) and has a limit is answered as if it had not opted in: the limit picks from legacy channels only"},
	{faultLabelsIDsLimitBeforeACL, "labels", "labels/finding-channels",
		"a read with ids and a limit takes the newest named events first and applies the read ACL after: a withheld snapshot uses up the limit"},
	{faultIDPOptInSkipsACL, "identity", "identity/asking-for-system",
		"a 39000 read with #P and #t skips the read ACL: a non-member opting in by creator and label gets private channels' state"},
	{faultIDLimitReadRefused, "identity", "identity/reads-leave-out",
		"a REQ with a limit that would match a system channel's state the read leaves out is refused with CLOSED, so the older readable match never comes back"},
}

// limitReadRefused is the labels-limit-read-refused and
// identity-limit-read-refused faults: a REQ with a limit that matches more
// stored events without the read rules than with them is refused.
func (r *Relay) limitReadRefused(rd *reader, filters []nostr.Filter) bool {
	if !r.fault(faultLabelsLimitReadRefused) && !r.fault(faultIDLimitReadRefused) {
		return false
	}
	raw := *rd
	raw.raw = true
	for i := range filters {
		if filters[i].Limit <= 0 {
			continue
		}
		f := filters[i]
		f.Limit = 0
		all, err1 := r.count(&raw, []nostr.Filter{f})
		readable, err2 := r.count(rd, []nostr.Filter{f})
		if err1 == nil && err2 == nil && all > readable {
			return true
		}
	}
	return false
}

// deleteLater is the labels-deletion-deferred-drops-evidence fault: the
// event id is removed outright from the community a little later.
func (r *Relay) deleteLater(community, id string) {
	time.AfterFunc(deferredDeletion, func() {
		select {
		case <-r.closed:
			return
		default:
		}
		_ = r.write(community, func(t *txn) error { return t.deleteWhere("id = ?", id) })
	})
}

// liveLabels remembers, per channel, the L/l tags of its last live 39000
// (the labels-live-stale-labels fault).
type liveLabels struct {
	mu   sync.Mutex
	last map[string]nostr.Tags
}

// staleLabelsCopy is the labels-live-stale-labels fault: it returns a
// relay-signed copy of the 39000 ev with the label tags of the channel's
// previous live snapshot, and remembers ev's own.
func (r *Relay) staleLabelsCopy(community string, ev *nostr.Event) *nostr.Event {
	key := community + "\x00" + ev.Tags.GetD()
	var own, rest nostr.Tags
	for _, tag := range ev.Tags {
		if len(tag) > 0 && (tag[0] == "L" || tag[0] == "l") {
			own = append(own, tag)
		} else {
			rest = append(rest, tag)
		}
	}
	r.stale.mu.Lock()
	if r.stale.last == nil {
		r.stale.last = map[string]nostr.Tags{}
	}
	prev, seen := r.stale.last[key]
	r.stale.last[key] = own
	r.stale.mu.Unlock()
	if !seen {
		return ev
	}
	cp := *ev
	cp.Tags = append(slices.Clone(rest), prev...)
	if err := r.signer.sign(&cp, r.stateKey); err != nil {
		return ev
	}
	return &cp
}

// countEveryCommunity is the labels-count-across-communities fault: COUNT
// adds up the reader's count in every community the relay stores.
func (r *Relay) countEveryCommunity(rd *reader, filters []nostr.Filter) (int64, error) {
	rows, err := r.readQuery(`SELECT DISTINCT community FROM events`)
	if err != nil {
		return 0, err
	}
	var communities []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return 0, err
		}
		communities = append(communities, c)
	}
	rows.Close()
	var total int64
	for _, c := range communities {
		crd := *rd
		crd.community = c
		n, err := r.countIn(&crd, filters)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}
