package reference

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// Readings: where a specification leaves a choice open, the reference relay
// can take each careful reading (the catalogue is clause.Readings). A
// reading is not a fault: every value is conforming, and the conformance
// suites must pass under each (conformance/readings proves it). The default
// value of each is what the relay does without Config.Readings.
//
// Each reading is checked at exactly one place, the place of the behaviour
// it chooses:
//
//	identity-created-at             identityProfile.onCreate
//	identity-creator-notice         identityProfile.onMembership
//	identity-system-notices         identityProfile.onMembership
//	identity-label-order            identityProfile.parseLabels
//	identity-state-kinds            identityProfile.stateTags
//	labels-scope-create-prefix      labelsProfile.onCreate
//	labels-scope-mutation-prefix    labelsProfile.mutate
//	labels-deleted-prefix           labelsProfile.deletedRejection
//	labels-state-limit-prefix       labelsProfile.mutate
//	labels-uuid-across-communities  labelsProfile.create
//	labels-live-snapshots           Relay.write (live delivery after commit)
//	labels-mixed-extended-fields    labelsProfile.parseMutation
//	labels-deleted-create-retry     labelsProfile.duplicate
//	labels-malformed-used-h         labelsProfile.command
//	nip29-roleless-put-user         Relay.putUser
//	nip29-edit-metadata             Relay.applyMetadata
//	nip29-join-open-group           Relay.joinRequest

// Readings returns the catalogue of readings, sorted by ID.
func Readings() []clause.Reading { return clause.Readings() }

// readingSet holds the value of every reading in the catalogue (defaults
// filled in).
type readingSet map[string]string

// is reports whether the reading id has the value v (a reading absent
// from the set has its default value). id must be a reading of the
// catalogue and v one of its values; anything else is a programming error.
func (s readingSet) is(id, v string) bool {
	rd, ok := clause.LookupReading(id)
	if !ok || !rd.Has(v) {
		panic(fmt.Sprintf("reference: reading %s=%s is not in the catalogue", id, v))
	}
	cur, set := s[id]
	if !set {
		cur = rd.Default()
	}
	return cur == v
}

// parseReadings validates the requested readings against the catalogue
// and the chosen profile, and fills in the defaults.
func parseReadings(req map[string]string, profile string) (readingSet, error) {
	set := readingSet{}
	for _, rd := range clause.Readings() {
		set[rd.ID] = rd.Default()
	}
	ids := make([]string, 0, len(req))
	for id := range req {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		v := strings.TrimSpace(req[id])
		if err := clause.CheckReading(id, v); err != nil {
			return nil, fmt.Errorf("reference: %w", err)
		}
		if rd, _ := clause.LookupReading(id); !rd.AppliesTo(profile) {
			return nil, fmt.Errorf("reference: reading %q applies only to profile %q, not %q", id, rd.Profile, profile)
		}
		set[id] = v
	}
	return set, nil
}

// reading reports whether the reading id has the value v on this relay.
func (r *Relay) reading(id, v string) bool { return r.readings.is(id, v) }

// nonDefault lists the readings set away from their default, as
// "ID=VALUE", sorted by ID (for the log line).
func (s readingSet) nonDefault() []string {
	var out []string
	for _, rd := range clause.Readings() {
		if v := s[rd.ID]; v != rd.Default() {
			out = append(out, rd.ID+"="+v)
		}
	}
	return out
}

// --- labels-live-snapshots=latest ---------------------------------------------

// coalesceWindow is the shortest gap between two live deliveries of one
// channel's 39000 under labels-live-snapshots=latest: a snapshot published
// sooner waits for the end of the window, and a newer one published
// meanwhile takes its place.
const coalesceWindow = 100 * time.Millisecond

// coalescer holds the live 39000 deliveries that wait for their window.
type coalescer struct {
	mu      sync.Mutex
	last    map[string]time.Time     // channel key -> last live delivery
	pending map[string]*pendingState // channel key -> snapshot waiting
}

type pendingState struct {
	community string
	ev        *nostr.Event // what a delivery sends
	storedID  string       // the stored snapshot ev is delivered for (ev's id but under a fault)
	seq       uint64       // liveSeq of the commit that stored it
}

// coalesceSnapshot delivers a committed 39000 (stored; ev is what its
// delivery sends: stored itself, or a fault's copy of it) at once when the
// channel's last live delivery is a window ago, and otherwise keeps it
// (replacing a waiting older one) until the window ends. Called from write
// with wmu held exclusively.
func (r *Relay) coalesceSnapshot(community string, stored, ev *nostr.Event, ch *Channel) {
	key := community + "\x00" + ev.Tags.GetD()
	c := &r.live
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last, c.pending = map[string]time.Time{}, map[string]*pendingState{}
	}
	if p := c.pending[key]; p != nil {
		p.ev, p.storedID, p.seq = ev, stored.ID, r.liveSeq // the intermediate snapshot is never delivered
		return
	}
	if wait := c.last[key].Add(coalesceWindow).Sub(now); wait > 0 {
		c.pending[key] = &pendingState{community: community, ev: ev, storedID: stored.ID, seq: r.liveSeq}
		time.AfterFunc(wait, func() { r.flushSnapshot(key) })
		return
	}
	if len(c.last) > 4096 {
		for k, t := range c.last {
			if now.Sub(t) > coalesceWindow {
				delete(c.last, k)
			}
		}
	}
	c.last[key] = now
	r.broadcast(community, ev, ch, liveNow)
}

// flushSnapshot delivers the snapshot that waited for its window, if it is
// still the channel's current one: a replacement or a deletion committed
// meanwhile (and not delivered yet) supersedes it. The channel's access
// rules are read afresh. Subscriptions opened after its commit read it as
// history and do not get it again.
func (r *Relay) flushSnapshot(key string) {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	c := &r.live
	c.mu.Lock()
	p := c.pending[key]
	delete(c.pending, key)
	c.last[key] = time.Now()
	c.mu.Unlock()
	select {
	case <-r.closed:
		return
	default:
	}
	if p == nil {
		return
	}
	var n int
	if err := r.db.QueryRow(`SELECT COUNT(*) FROM events WHERE community = ? AND id = ?`, p.community, p.storedID).Scan(&n); err != nil || n == 0 {
		return
	}
	ch, err := loadChannel(r.sqlDB(), p.community, p.ev.Tags.GetD())
	if err != nil || ch == nil || ch.Deleted {
		return
	}
	r.broadcast(p.community, p.ev, ch, p.seq)
}
