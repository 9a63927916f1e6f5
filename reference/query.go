package reference

import (
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// channelOf returns the channel an event belongs to: the d tag of the
// relay-signed state kinds 39000-39003, the h tag of anything else, or "".
func channelOf(ev *nostr.Event) string {
	if isGroupState(ev.Kind) {
		return ev.Tags.GetD()
	}
	if h := ev.Tags.Find("h"); h != nil {
		return h[1]
	}
	return ""
}

// --- the read-access rule ---------------------------------------------------
//
// An event outside every channel is public. An event of a channel is
// readable when the channel exists, is not deleted, and is open or one of the
// reader's authenticated keys is a member; the state events of a hidden
// channel (39000-39003, hiddenKinds) only when a key is a member. The rule
// exists twice, once in SQL (history and COUNT) and once in Go (live
// delivery and the post-filter of the limit-before-access fault); both live
// here, next to each other.

// accessSQL is the rule as an SQL condition over e (events) and c (channels).
// forCount is true for NIP-45 COUNT.
func (r *Relay) accessSQL(rd *reader, forCount bool) (string, []any) {
	member, args := "0", []any(nil)
	if len(rd.pubkeys) > 0 {
		in, inArgs := inList("m.pubkey", rd.pubkeys)
		member = "EXISTS (SELECT 1 FROM members m WHERE m.community = e.community AND m.uuid = e.channel AND " + in + ")"
		args = inArgs
	}
	hidden := r.hiddenKinds()
	readable := "(c.visibility = '" + visibilityOpen + "' AND (c.hidden = 0 OR e.kind NOT IN (" +
		placeholders(len(hidden)) + "))) OR " + member
	hiddenArgs := make([]any, 0, len(hidden)+len(args))
	for _, k := range hidden {
		hiddenArgs = append(hiddenArgs, k)
	}
	args = append(hiddenArgs, args...)
	if r.metadataPublic() {
		if slices.Contains(hidden, kindGroupMetadata) {
			readable += fmt.Sprintf(" OR (c.hidden = 0 AND e.kind = %d)", kindGroupMetadata)
		} else {
			readable += fmt.Sprintf(" OR e.kind = %d", kindGroupMetadata)
		}
	}
	grant, grantArgs := r.grantSQL(rd, forCount, false)
	readable += grant
	args = append(args, grantArgs...)
	// Kinds the profile reads by its own rule skip the channel rule.
	self, selfArgs := "", []any(nil)
	if ks := r.profile.selfReadKinds(); len(ks) > 0 {
		self = " OR e.kind IN (" + placeholders(len(ks)) + ")"
		for _, k := range ks {
			selfArgs = append(selfArgs, k)
		}
	}
	grant, grantArgs = r.grantSQL(rd, forCount, true)
	self += grant
	selfArgs = append(selfArgs, grantArgs...)
	return "(e.channel = ''" + self + " OR (c.deleted = 0 AND (" + readable + ")))", append(selfArgs, args...)
}

// metadataPublic applies the policy private-metadata-public: a private
// group that is not hidden serves its 39000 to anyone (NIP-29: only
// "hidden" hides group metadata). The identity draft hides a private
// channel's metadata itself, so the policy does not reach that profile.
func (r *Relay) metadataPublic() bool {
	return r.policy(policyPrivateMetadataPublic) && r.profile.name() != "identity"
}

// canRead is the same rule in Go. ch is the event's channel (nil if none or
// unknown).
func (r *Relay) canRead(rd *reader, ev *nostr.Event, ch *Channel) bool {
	if channelOf(ev) == "" || slices.Contains(r.profile.selfReadKinds(), ev.Kind) {
		return true
	}
	if ch == nil || ch.Deleted {
		return ch != nil && r.granted(ev, ch, true)
	}
	if ch.Visibility == visibilityOpen && !(ch.Hidden && slices.Contains(r.hiddenKinds(), ev.Kind)) {
		return true
	}
	if r.metadataPublic() && ev.Kind == kindGroupMetadata && !(ch.Hidden && slices.Contains(r.hiddenKinds(), ev.Kind)) {
		return true
	}
	return r.granted(ev, ch, false) || ch.roleOf(rd.pubkeys...) != ""
}

// --- filters -> SQL ---------------------------------------------------------

// filterSQL builds the AND-ed conditions of one filter: every NIP-01
// predicate, the access rule and the profile's rule. drive names the tag
// filter that selectSQL joins as t0 (its condition is left out here and the
// other tag filters are checked per row); "" = none.
func (r *Relay) filterSQL(f *nostr.Filter, rd *reader, withTags, withAccess, forCount bool, drive string) *sqlBuf {
	b := &sqlBuf{}
	b.add("e.community = ?", rd.community)
	b.add(notDeletedSQL)
	if f.IDs != nil {
		cond, args := inList("e.id", f.IDs)
		b.add(cond, args...)
	}
	if f.Authors != nil {
		cond, args := inList("e.pubkey", f.Authors)
		b.add(cond, args...)
	}
	if f.Kinds != nil {
		if len(f.Kinds) == 0 {
			b.add("0")
		} else {
			args := make([]any, len(f.Kinds))
			for i, k := range f.Kinds {
				args[i] = k
			}
			b.add("e.kind IN ("+placeholders(len(args))+")", args...)
		}
	}
	if f.Since != nil {
		b.add("e.created_at >= ?", int64(*f.Since))
	}
	if f.Until != nil {
		b.add("e.created_at <= ?", int64(*f.Until))
	}
	// NIP-50 search (search.go): one more predicate, before LIMIT.
	if cond, args := searchSQL(f); cond != "" {
		b.add(cond, args...)
	}
	if withTags {
		names := make([]string, 0, len(f.Tags))
		for name := range f.Tags {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			vals := f.Tags[name]
			if len(vals) == 0 {
				b.add("0")
				continue
			}
			if name == drive {
				continue
			}
			in, args := inList("t.value", vals)
			if drive != "" {
				b.add("EXISTS (SELECT 1 FROM event_tags t WHERE t.event_seq = e.seq AND t.name = ? AND "+in+")",
					append([]any{name}, args...)...)
				continue
			}
			b.add("e.seq IN (SELECT t.event_seq FROM event_tags t WHERE t.community = ? AND t.name = ? AND "+in+")",
				append([]any{rd.community, name}, args...)...)
			if name == "h" {
				// Every stored event with an h tag has exactly one, and it is
				// the channel column: the same predicate, on the channel index.
				in, args := inList("e.channel", vals)
				b.add(in, args...)
			}
		}
	}
	verb := readREQ
	if forCount {
		verb = readCOUNT
	}
	if withAccess && !rd.faulty.raw && !r.skipsAccess(f, verb) {
		cond, args := r.accessSQL(rd, forCount)
		b.add(cond, args...)
	}
	if cond, args := r.profileReadSQL(f, rd); cond != "" && !rd.faulty.raw {
		b.add("("+cond+")", args...)
	}
	return b
}

// effectiveLimit returns the number of stored events a filter may return.
func (r *Relay) effectiveLimit(f *nostr.Filter) int {
	switch {
	case f.LimitZero:
		return 0
	case f.Limit <= 0:
		return r.defaultLimit
	case f.Limit > r.maxLimit:
		return r.maxLimit
	}
	return f.Limit
}

// queryFilter returns the stored events of one filter, newest first
// (created_at DESC, id ASC), with every predicate and access rule applied
// before LIMIT.
func (r *Relay) queryFilter(rd *reader, f *nostr.Filter) ([]*nostr.Event, error) {
	f = r.readFilter(f, readREQ)
	limit := r.effectiveLimit(f)
	if limit == 0 {
		return nil, nil
	}
	// Fault limit-before-filter: tag predicates leave the SQL and are
	// applied to the LIMITed page in Go.
	tagsLate := r.fault(faultLimitBeforeFilter) && len(f.Tags) > 0
	// Fault limit-before-access: the access rule leaves the SQL and is
	// applied to the LIMITed page in Go.
	// A reader marked skipAccess (fault reads-later-filters-skip-access)
	// skips the access rule, and so does a read a skipAccess hook names
	// (filterSQL). Skipping is accessLate with nothing applied afterwards.
	skipAccess := rd.faulty.skipAccess || r.skipsAccess(f, readREQ)
	accessLate := r.fault(faultLimitBeforeAccess) && !skipAccess

	query, args := r.selectSQL(rd, f, tagsLate, accessLate || skipAccess, limit)
	rows, err := r.readQuery(query, args...)
	if err != nil {
		return nil, err
	}
	evs, err := scanEvents(rows)
	if err != nil {
		return nil, err
	}
	if tagsLate {
		evs = keep(evs, func(ev *nostr.Event) bool { return f.Matches(ev) })
	}
	if accessLate {
		chans := map[string]*Channel{}
		evs = keep(evs, func(ev *nostr.Event) bool {
			id := channelOf(ev)
			if id == "" {
				return true
			}
			ch, ok := chans[id]
			if !ok {
				ch, _ = loadChannel(r.sqlDB(), rd.community, id)
				chans[id] = ch
			}
			return r.canRead(rd, ev, ch)
		})
	}
	return evs, nil
}

// fromTagged drives a read from one tag filter's rows (t0) in the
// event_tags_time index: newest first, so LIMIT stops the walk early.
const fromTagged = ` FROM event_tags t0 CROSS JOIN events e ON e.seq = t0.event_seq LEFT JOIN channels c ON e.channel <> '' AND c.community = e.community AND c.uuid = e.channel `

// selectSQL is the SELECT of one filter's stored read. With a tag filter
// (other than #h, and without ids) the read walks that tag's rows newest
// first (event_tags_time: community, name, value, kind, created_at) and
// checks everything else per row, so a discovery read costs about LIMIT
// rows however many events the tag has, and a rare tag costs its own
// matches only; otherwise SQLite plans the read from the events indexes.
func (r *Relay) selectSQL(rd *reader, f *nostr.Filter, tagsLate, accessLate bool, limit int) (string, []any) {
	drive := ""
	if !tagsLate {
		drive = r.drivingTag(rd, f)
	}
	b := r.filterSQL(f, rd, !tagsLate, !accessLate, false, drive)
	if drive == "" {
		return `SELECT ` + eventCols + fromEvents + `WHERE ` + b.where() +
			` ORDER BY e.created_at DESC, ` + r.tieOrderSQL() + ` LIMIT ?`, append(b.args, limit)
	}
	cond, args := r.tagRowsSQL("t0", rd, f, drive)
	// An event with several matching tags comes once, from its first one.
	in, inArgs := inList("t1.value", f.Tags[drive])
	cond += " AND NOT EXISTS (SELECT 1 FROM event_tags t1 WHERE t1.event_seq = t0.event_seq AND t1.name = t0.name AND " +
		in + " AND t1.rowid < t0.rowid)"
	args = append(args, inArgs...)
	if f.Since != nil {
		cond += " AND t0.created_at >= ?"
		args = append(args, int64(*f.Since))
	}
	if f.Until != nil {
		cond += " AND t0.created_at <= ?"
		args = append(args, int64(*f.Until))
	}
	args = append(append(args, b.args...), limit)
	return `SELECT ` + eventCols + fromTagged + `WHERE ` + cond + ` AND ` + b.where() +
		` ORDER BY t0.created_at DESC, ` + r.tieOrderSQL() + ` LIMIT ?`, args
}

// tagRowsSQL is the condition on alias's event_tags rows of the tag
// filter name (and the filter's kinds).
func (r *Relay) tagRowsSQL(alias string, rd *reader, f *nostr.Filter, name string) (string, []any) {
	in, args := inList(alias+".value", f.Tags[name])
	cond := alias + ".community = ? AND " + alias + ".name = ? AND " + in
	args = append([]any{rd.community, name}, args...)
	if len(f.Kinds) > 0 {
		cond += " AND " + alias + ".kind IN (" + placeholders(len(f.Kinds)) + ")"
		for _, k := range f.Kinds {
			args = append(args, k)
		}
	}
	return cond, args
}

// drivingTag picks the tag filter selectSQL walks, "" for none: no tag
// filter, ids (the id index is better), #h (the channel index already reads
// a channel newest first) or an empty value list (matches nothing). Of
// several tag filters it takes the one with the fewest rows, counted up to
// a cap, so #L nip-cl with #l x walks x.
func (r *Relay) drivingTag(rd *reader, f *nostr.Filter) string {
	if len(f.Tags) == 0 || f.IDs != nil {
		return ""
	}
	if _, ok := f.Tags["h"]; ok {
		return ""
	}
	names := make([]string, 0, len(f.Tags))
	for name, vals := range f.Tags {
		if len(vals) == 0 {
			return ""
		}
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) == 1 {
		return names[0]
	}
	// On a tie (both at the cap) the later name wins: lowercase before
	// uppercase, as NIP-32 puts namespaces (L) in uppercase and the values
	// (l) in lowercase. A later probe never counts past the best so far (it
	// could only tie), and recent counts are reused: the choice only
	// decides how fast the read is, never what it returns.
	best, bestN := names[0], int64(-1)
	for _, name := range slices.Backward(names) {
		limit := int64(probeCap)
		if bestN >= 0 && bestN < limit {
			limit = bestN
		}
		n, err := r.probeTagRows(rd, f, name, limit)
		if err != nil {
			return names[0]
		}
		if bestN < 0 || n < bestN {
			best, bestN = name, n
		}
	}
	return best
}

// probeCap is how far drivingTag counts one tag filter's rows.
const probeCap = 2000

// probeTagRows counts the rows of one tag filter, up to limit.
func (r *Relay) probeTagRows(rd *reader, f *nostr.Filter, name string, limit int64) (int64, error) {
	key := probeKey(rd.community, name, f)
	if n, ok := r.probes.get(key, r.now()); ok {
		return min(n, limit), nil // an exact count, or at least probeCap >= limit
	}
	cond, args := r.tagRowsSQL("p", rd, f, name)
	var n int64
	if err := r.readQueryRow(`SELECT COUNT(*) FROM (SELECT 1 FROM event_tags p WHERE `+cond+` LIMIT ?)`,
		append(args, limit)...).Scan(&n); err != nil {
		return 0, err
	}
	if n < limit || limit == probeCap {
		r.probes.put(key, n, r.now())
	}
	return n, nil
}

func probeKey(community, name string, f *nostr.Filter) string {
	vals := slices.Sorted(slices.Values(f.Tags[name]))
	kinds := slices.Sorted(slices.Values(f.Kinds))
	return fmt.Sprintf("%s\x00%s\x00%q\x00%v", community, name, vals, kinds)
}

// probeCounts remembers drivingTag's recent counts for probeTTL.
type probeCounts struct {
	mu sync.Mutex
	m  map[string]probeCount
}

type probeCount struct {
	n  int64
	at time.Time
}

const (
	probeTTL     = 10 * time.Second
	probeEntries = 4096 // then the cache starts over
)

func (p *probeCounts) get(key string, now time.Time) (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.m[key]
	if !ok || now.Sub(c.at) > probeTTL || now.Before(c.at) {
		return 0, false
	}
	return c.n, true
}

func (p *probeCounts) put(key string, n int64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil || len(p.m) >= probeEntries {
		p.m = map[string]probeCount{}
	}
	p.m[key] = probeCount{n: n, at: now}
}

// query runs several filters and merges them newest first without repeats.
func (r *Relay) query(rd *reader, filters []nostr.Filter) ([]*nostr.Event, error) {
	// Fault filter-last-filter-only: only the last filter is answered.
	if len(filters) > 1 && r.fault(faultLastFilterOnly) {
		filters = filters[len(filters)-1:]
	}
	seen := map[string]bool{}
	var out []*nostr.Event
	for i := range filters {
		frd := rd
		// Fault reads-later-filters-skip-access: only filter 0 is checked.
		if i > 0 && r.fault(faultReadsLaterFiltersNoCheck) {
			unchecked := *rd
			unchecked.faulty.skipAccess = true
			frd = &unchecked
		}
		evs, err := r.queryFilter(frd, &filters[i])
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if !seen[ev.ID] {
				seen[ev.ID] = true
				out = append(out, ev)
			}
		}
	}
	byID := r.tiesByID()
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return byID && out[i].ID < out[j].ID
	})
	// Fault limit-across-filters: the first filter's limit cuts the
	// merged answer.
	if len(filters) > 1 && filters[0].Limit > 0 && len(out) > filters[0].Limit && r.fault(faultLimitAcrossFilter) {
		out = out[:filters[0].Limit]
	}
	for _, h := range r.hooks.orderStored {
		h(filters, out)
	}
	return out, nil
}

// count answers NIP-45 COUNT: distinct events matching any filter, same
// access rules as REQ, limit ignored.
func (r *Relay) count(rd *reader, filters []nostr.Filter) (int64, error) {
	// Fault labels-count-across-communities: every community is counted.
	if r.fault(faultLabelsCountCommunities) {
		return r.countEveryCommunity(rd, filters)
	}
	return r.countIn(rd, filters)
}

// countIn counts in rd's community.
func (r *Relay) countIn(rd *reader, filters []nostr.Filter) (int64, error) {
	crd := *rd
	crd.count = true
	rd = &crd
	// Fault filter-last-filter-only: only the last filter is counted.
	if len(filters) > 1 && r.fault(faultLastFilterOnly) {
		filters = filters[len(filters)-1:]
	}
	// Fault count-sums-filters: each filter is counted on its own and
	// the counts added.
	if len(filters) > 1 && r.fault(faultCountSumsFilters) {
		var sum int64
		for i := range filters {
			n, err := r.countIn(rd, filters[i:i+1])
			if err != nil {
				return 0, err
			}
			sum += n
		}
		return sum, nil
	}
	// Fault count-answers-limit: a filter's limit is the answer.
	for i := range filters {
		if filters[i].Limit > 0 && r.fault(faultCountAnswersLimit) {
			return int64(filters[i].Limit), nil
		}
	}
	where := ""
	var args []any
	for i := range filters {
		frd := rd
		// Faults labels-count-limit-skips-acl, labels-count-d-skips-acl:
		// the filter is counted raw.
		if (filters[i].Limit > 0 && r.fault(faultLabelsCountLimitACL)) || (filters[i].Tags["d"] != nil && r.fault(faultLabelsCountDACL)) {
			raw := *rd
			raw.faulty.raw = true
			frd = &raw
		}
		b := r.filterSQL(r.readFilter(&filters[i], readCOUNT), frd, true, true, true, "")
		if i > 0 {
			where += " OR "
		}
		where += "(" + b.where() + ")"
		args = append(args, b.args...)
	}
	var n int64
	err := r.readQueryRow(`SELECT COUNT(*)`+fromEvents+`WHERE `+where, args...).Scan(&n)
	return n, err
}

// liveMatch decides whether a newly committed event goes to one filter of a
// live subscription.
func (r *Relay) liveMatch(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool {
	lf := r.readFilter(f, readLive)
	matches := lf.Matches(ev)
	// Fault labels-live-removal-feed: a replacement snapshot goes to the
	// subscriptions its predecessor matched.
	if !matches && ev.Kind == kindGroupMetadata && r.fault(faultLabelsLiveRemovalFeed) {
		if prev := r.faulty.removal.predecessor(ev); prev != nil {
			matches = lf.Matches(prev)
		}
	}
	return matches && searchMatches(f, ev) && (r.skipsAccess(f, readLive) || r.canRead(rd, ev, ch)) && r.profileReadMatch(f, rd, ev, ch)
}

func keep(evs []*nostr.Event, pred func(*nostr.Event) bool) []*nostr.Event {
	out := evs[:0]
	for _, ev := range evs {
		if pred(ev) {
			out = append(out, ev)
		}
	}
	return out
}
