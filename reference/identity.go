package reference

import (
	"github.com/nipcl/nipcl-conform/internal/text"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// identityProfile implements nip-cl-identity.md ("Channel Identity and
// Discovery", newest revision):
//
//   - labels: ["t", label] on 9007 and 9002 (replace-all; ["t",""] alone,
//     once or repeated, clears; no t keeps), at most 8 distinct, 1-64 of
//     a-z0-9.:-, never a type name, a rejected event applies nothing;
//   - identity tags on 39000-39002: ["t", type], ["t", label]... in stored
//     order, ["P", creator], before any other t/P tag; 39000 also carries
//     ["created_at", <creation time>] and, for a private system channel,
//     ["hidden"];
//   - system channels: left out of every read that does not name them
//     (legacy types only), named by #h or by #d on a 39000-39003-only
//     filter, opt-in by #t:["system"] or any #P on such a filter;
//   - 44100/44101 notices with ["p"], ["h"], ["t", type], stored in the
//     command's transaction, read only by their p-tagged member under the
//     #t rule.
type identityProfile struct {
	noneProfile
	faults   faultSet
	readings readingSet
}

func newIdentityProfile(f faultSet, rs readingSet) profile {
	return identityProfile{faults: f, readings: rs}
}

var _ profile = identityProfile{}

// Kinds, types and limits of the identity draft.
const (
	kindMemberAdded   = 44100
	kindMemberRemoved = 44101
	typeSystem        = "system"
	maxLabels         = 8
	maxLabelLen       = 64
)

// legacyTypes are the channel types every client knew before the draft;
// reads that do not name a channel return only these. The list is frozen.
var legacyTypes = []string{"stream", "forum", "dm", "workflow"}

// reservedLabels are the channel type names no label may take.
var reservedLabels = []string{"stream", "forum", "dm", "workflow", "system"}

func isNoticeKind(k int) bool { return k == kindMemberAdded || k == kindMemberRemoved }

func (identityProfile) name() string         { return clause.ProfileIdentity }
func (identityProfile) extensions() []string { return []string{"nip-cl"} }

// supportedNIPs: the draft has no NIP number, so "nip-cl" never goes there.
func (p identityProfile) supportedNIPs(base []any) []any {
	return base
}

// channelTypes: the identity draft adds system channels.
func (identityProfile) channelTypes() []string {
	return []string{"stream", "forum", "dm", "workflow", typeSystem}
}

// --- labels -----------------------------------------------------------------

// parseLabels reads the t tags of a 9007/9002. present is false when the
// event has no t tag; labels is then nil. An all-empty set (["t",""] once or
// repeated) is present with no labels.
func (p identityProfile) parseLabels(ev *nostr.Event) (labels []string, present bool, err error) {
	var vals []string
	bare := false
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "t" {
			continue
		}
		if len(tag) < 2 {
			// Fault identity-bare-t-stored-as-empty-label: kept aside and
			// stored as an empty label past every check.
			if p.faults.on(faultIDBareTStored) {
				bare = true
				continue
			}
			return nil, true, reject("invalid", `a t tag needs a value: ["t", <label>]`)
		}
		vals = append(vals, tag[1])
		// Fault identity-t-extra-elements-labels: every further element
		// of a t tag is read as one more label.
		if p.faults.on(faultIDTExtraElements) {
			vals = append(vals, tag[2:]...)
		}
	}
	if len(vals) == 0 {
		return nil, false, nil
	}
	empties := 0
	for _, v := range vals {
		if v == "" {
			empties++
		}
	}
	if empties == len(vals) {
		// Fault identity-repeated-empty-label-rejected: only exactly one clears.
		if empties > 1 && p.faults.on(faultIDRepeatedEmptyRejected) {
			return nil, true, reject("invalid", `exactly one ["t", ""] clears the labels`)
		}
		return []string{}, true, nil
	}
	if empties > 0 {
		// Fault identity-mixed-empty-label-accepted: drop the empty tags.
		if !p.faults.on(faultIDMixedEmpty) {
			return nil, true, reject("invalid", `["t", ""] cannot be combined with labels`)
		}
		vals = slices.DeleteFunc(vals, func(v string) bool { return v == "" })
	}
	for _, v := range vals {
		if err := p.checkLabel(v); err != nil {
			return nil, true, err
		}
	}
	distinct := make([]string, 0, len(vals))
	for _, v := range vals {
		if !slices.Contains(distinct, v) {
			distinct = append(distinct, v)
		}
	}
	// Reading identity-label-order: the stored order is the command's
	// (first occurrence of each label) or sorted.
	if p.readings.is(clause.ReadingIdentityLabelOrder, "sorted") {
		sort.Strings(distinct)
	}
	if bare {
		distinct = append(distinct, "")
	}
	limit, counted := maxLabels, len(distinct)
	// Fault identity-nine-labels-accepted.
	if p.faults.on(faultIDNineLabels) {
		limit = maxLabels + 1
	}
	// Fault identity-repeated-labels-counted.
	if p.faults.on(faultIDRepeatsCounted) {
		counted = len(vals)
	}
	if counted > limit {
		return nil, true, reject("invalid", "at most %d distinct labels, got %d", maxLabels, counted)
	}
	return distinct, true, nil
}

// checkLabel applies the label grammar and the reserved names.
func (p identityProfile) checkLabel(v string) error {
	// Fault identity-label-length-unchecked.
	if len(v) > maxLabelLen && !p.faults.on(faultIDLengthUnchecked) {
		return reject("invalid", "label %q is longer than %d characters", text.Clip(v, 80), maxLabelLen)
	}
	// Fault identity-label-charset-unchecked.
	if !p.faults.on(faultIDCharsetLax) {
		checked := v
		// Fault identity-label-newline-before-end.
		if p.faults.on(faultIDNewlineBeforeEnd) {
			checked = strings.TrimSuffix(v, "\n")
		}
		for _, r := range checked {
			if !((r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == ':' || r == '-') {
				return reject("invalid", "label %q may only use a-z, 0-9, '.', ':' and '-'", text.Clip(v, 80))
			}
		}
	}
	// Fault identity-reserved-label-accepted.
	if slices.Contains(reservedLabels, v) && !p.faults.on(faultIDReservedLabel) {
		return reject("invalid", "label %q is a channel type name", v)
	}
	return nil
}

// clientCreator returns a client P tag's value (only the fault uses it).
func clientCreator(ev *nostr.Event) (string, bool) {
	if tag := ev.Tags.Find("P"); tag != nil && isHex64(tag[1]) {
		return tag[1], true
	}
	return "", false
}

// onCreate: labels from t tags; system channels are private unless the 9007
// says open.
func (p identityProfile) onCreate(ev *nostr.Event, ch *Channel) error {
	labels, present, err := p.parseLabels(ev)
	if err != nil {
		return err
	}
	if present {
		ch.Labels = labels
	}
	// Fault identity-system-open-by-default.
	if ch.Type == typeSystem && ch.Visibility == "" && !p.faults.on(faultIDSystemOpenByDefault) {
		ch.Visibility = visibilityPrivate
	}
	// Reading identity-created-at: the created_at tag is the relay clock at
	// creation (the core's default) or the 9007's own created_at.
	if p.readings.is(clause.ReadingIdentityCreatedAt, "command") {
		ch.CreatedAt = int64(ev.CreatedAt)
	}
	return nil
}

// clientCreatedAt returns a client ["created_at", <seconds>] tag's value
// (only the client-created-at faults use it).
func clientCreatedAt(ev *nostr.Event) (int64, bool) {
	if tag := ev.Tags.Find("created_at"); tag != nil {
		if at, err := strconv.ParseInt(tag[1], 10, 64); err == nil {
			return at, true
		}
	}
	return 0, false
}

// onEdit: t tags replace the label set (only owners and admins); no t tag
// keeps it. Anything invalid rejects the whole 9002.
func (p identityProfile) onEdit(ev *nostr.Event, prev, ch *Channel) error {
	labels, present, err := p.parseLabels(ev)
	if err != nil {
		// Fault identity-rejected-edit-partly-applied: drop the labels, keep the rest.
		if p.faults.on(faultIDPartialEdit) {
			return nil
		}
		return err
	}
	if present {
		role := prev.roleOf(ev.PubKey)
		switch {
		case role == roleOwner:
		case role == roleAdmin:
			// Fault identity-admin-cannot-edit-labels.
			if p.faults.on(faultIDAdminCannotLabel) {
				return reject("restricted", "only an owner may change labels")
			}
		case role == roleMember && p.faults.on(faultIDMemberEditsLabels):
			// Fault identity-member-edits-labels (admitted by admitEdit).
		default:
			return reject("restricted", "only an owner or admin may change labels")
		}
		ch.Labels = labels
		// Fault identity-labels-merged-on-edit.
		if p.faults.on(faultIDLabelsMerged) {
			merged := slices.Clone(prev.Labels)
			for _, l := range labels {
				if !slices.Contains(merged, l) {
					merged = append(merged, l)
				}
			}
			ch.Labels = merged
		}
	} else if p.faults.on(faultIDEditWithoutTClears) {
		// Fault identity-edit-without-t-clears.
		ch.Labels = nil
	}
	return nil
}

// admitEdit admits a plain member's label-only 9002 only while the
// identity-member-edits-labels fault is on.
func (p identityProfile) admitEdit(ev *nostr.Event, ch *Channel) bool {
	if !p.faults.on(faultIDMemberEditsLabels) || ch.roleOf(ev.PubKey) != roleMember {
		return false
	}
	for _, tag := range ev.Tags {
		if len(tag) > 0 && tag[0] != "h" && tag[0] != "t" {
			return false
		}
	}
	return true
}

// --- identity tags ----------------------------------------------------------

// stateTags: ["t", type], ["t", label]..., ["P", creator] on 39000-39002;
// 39000 also ["created_at", creation time] and, while a system channel is
// private, ["hidden"]. The core's tags (d, name, about, private/public ...)
// carry no t or P, so these come before any other t/P tag.
func (p identityProfile) stateTags(kind int, ch *Channel) nostr.Tags {
	// Reading identity-state-kinds: the identity tags go on 39000-39002
	// (the tag table) or on 39000-39003 (the system-channel section).
	last := kindGroupMembers
	if p.readings.is(clause.ReadingIdentityStateKinds, "39000-39003") {
		last = kindGroupRoles
	}
	if kind < kindGroupMetadata || kind > last {
		return nil
	}
	tags := nostr.Tags{{"t", ch.Type}}
	for _, l := range ch.Labels {
		tags = append(tags, nostr.Tag{"t", l})
	}
	tags = append(tags, nostr.Tag{"P", ch.Creator})
	if kind == kindGroupMetadata {
		tags = append(tags, nostr.Tag{"created_at", strconv.FormatInt(ch.CreatedAt, 10)})
		// A private system channel is hidden; one with the NIP-29 hidden
		// flag has the tag from the core already.
		if ch.Type == typeSystem && ch.Visibility == visibilityPrivate && !ch.Hidden {
			tags = append(tags, nostr.Tag{"hidden"})
		}
	}
	return tags
}

// --- membership notices -----------------------------------------------------

// onMembership stores a relay-signed 44100/44101 with ["p", member],
// ["h", UUID] and ["t", type] in the command's transaction.
func (p identityProfile) onMembership(t *txn, ch *Channel, pubkey string, added bool) error {
	// Fault identity-label-unique-per-creator: at creation (the creator is
	// the only member), refuse a label the creator already uses.
	if p.faults.on(faultIDLabelUniquePerCreator) && added && len(ch.Members) == 1 && len(ch.Labels) > 0 {
		args := []any{t.community, ch.Creator, ch.UUID}
		for _, l := range ch.Labels {
			args = append(args, l)
		}
		var n int
		if err := t.tx.QueryRow(`SELECT COUNT(*) FROM channels c2, json_each(c2.labels) j
			WHERE c2.community = ? AND c2.creator = ? AND c2.uuid <> ? AND c2.deleted = 0 AND j.value IN (`+
			placeholders(len(ch.Labels))+`)`, args...).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return reject("duplicate", "the creator already has a channel with this label")
		}
	}
	if p.noNotice(ch, pubkey, added) {
		return nil
	}
	kind := kindMemberAdded
	if !added {
		kind = kindMemberRemoved
	}
	tags := t.r.editedStateTags(kind, ch, nostr.Tags{{"p", pubkey}, {"h", ch.UUID}, {"t", ch.Type}})
	ev := &nostr.Event{Kind: kind, Tags: tags, Content: "", CreatedAt: nostr.Timestamp(t.r.now().Unix())}
	// The same notice twice in one second (add, remove, add) would repeat an
	// id; the later one moves to the next free second.
	for {
		if err := t.r.signer.sign(ev, t.r.secretKey); err != nil {
			return err
		}
		dup, err := t.hasEvent(ev.ID)
		if err != nil {
			return err
		}
		if !dup {
			break
		}
		ev.CreatedAt++
	}
	// Fault identity-notices-not-stored: deliver live only.
	if p.faults.on(faultIDNoticesNotStored) {
		t.emitted = append(t.emitted, ev)
		return nil
	}
	return t.storeRelayEvent(ev, ch.UUID)
}

// noNotice applies the two notice readings: identity-creator-notice (does
// the creator's membership at creation produce a 44100?) and
// identity-system-notices (do a system channel's membership changes
// produce notices?). At creation the creator is the channel's only member:
// every later add leaves at least two.
func (p identityProfile) noNotice(ch *Channel, pubkey string, added bool) bool {
	creating := added && pubkey == ch.Creator && len(ch.Members) == 1
	if creating && p.readings.is(clause.ReadingIdentityCreatorNotice, "not-sent") {
		return true
	}
	return ch.Type == typeSystem && p.readings.is(clause.ReadingIdentitySystemNotices, "not-sent")
}

// --- reads ------------------------------------------------------------------

// selfReadKinds: notices follow their own rule (p-tagged member only), not
// the channel's read access, so a removed member still gets the 44101.
func (identityProfile) selfReadKinds() []int { return []int{kindMemberAdded, kindMemberRemoved} }

// filterScope is what one filter asks for under the system-channel rules.
type filterScope struct {
	named []string // channel IDs the filter names
	optIn bool     // the filter asks for readable system channels too
	hasT  bool     // the filter has #t (notice rule)
}

// noticeKindsOnly reports whether the filter has kinds and all of them are
// 44100/44101 (only the identity-notice-rule-only-on-notice-kinds fault
// asks).
func noticeKindsOnly(f *nostr.Filter) bool {
	if len(f.Kinds) == 0 {
		return false
	}
	for _, k := range f.Kinds {
		if !isNoticeKind(k) {
			return false
		}
	}
	return true
}

// stateKindsOnly reports whether the filter has kinds and all of them are
// 39000-39003. A filter without kinds does not qualify.
func stateKindsOnly(f *nostr.Filter) bool {
	if len(f.Kinds) == 0 {
		return false
	}
	for _, k := range f.Kinds {
		if !isGroupState(k) {
			return false
		}
	}
	return true
}

func (p identityProfile) scope(f *nostr.Filter, rd *reader) filterScope {
	s := filterScope{}
	stateOnly := stateKindsOnly(f)
	s.named = append(s.named, f.Tags["h"]...)
	// Fault identity-d-names-with-any-kinds.
	if stateOnly || (p.faults.on(faultIDDNamesAnyKinds) && len(f.Kinds) > 0) {
		s.named = append(s.named, f.Tags["d"]...)
	}
	// Fault identity-naming-leaks-across-filters: earlier filters' names count.
	if p.faults.on(faultIDNamingLeaks) {
		if rd.faulty.named == nil {
			rd.faulty.named = map[string]bool{}
		}
		prevNamed := make([]string, 0, len(rd.faulty.named))
		for id := range rd.faulty.named {
			prevNamed = append(prevNamed, id)
		}
		sort.Strings(prevNamed)
		for _, id := range s.named {
			rd.faulty.named[id] = true
		}
		s.named = append(s.named, prevNamed...)
	}
	tvals, hasT := f.Tags["t"]
	s.hasT = hasT
	_, hasP := f.Tags["P"]
	// Fault identity-p-opt-in-ignored.
	if p.faults.on(faultIDPOptInIgnored) {
		hasP = false
	}
	askT := slices.Contains(tvals, typeSystem)
	// Fault identity-count-ignores-t-system-opt-in.
	if rd.count && p.faults.on(faultIDCountTOptInIgnored) {
		askT = false
	}
	// Fault identity-label-opts-in-system.
	if p.faults.on(faultIDLabelOptsIn) && len(tvals) > 0 {
		askT = true
	}
	s.optIn = stateOnly && (askT || hasP)
	// Fault identity-opt-in-metadata-only.
	if p.faults.on(faultIDOptInMetadataOnly) && !slices.Contains(f.Kinds, nostr.KindSimpleGroupMetadata) {
		s.optIn = false
	}
	// Fault identity-opt-in-spans-request: once a filter of the request
	// opted in, every later filter counts as opted in.
	if p.faults.on(faultIDOptInSpansRequest) {
		s.optIn = s.optIn || rd.faulty.optedIn
		rd.faulty.optedIn = s.optIn
	}
	return s
}

// readSQL is the system-channel rule and the notice rule for stored reads
// (REQ history and COUNT).
func (p identityProfile) readSQL(f *nostr.Filter, rd *reader) (string, []any) {
	s := p.scope(f, rd)
	var args []any

	// Channel events (everything but notices): legacy types, named channels,
	// and, on opt-in, system channels.
	chanCond := "c.uuid IS NULL OR c.type IN (" + placeholders(len(legacyTypes)) + ")"
	for _, t := range legacyTypes {
		args = append(args, t)
	}
	if len(s.named) > 0 {
		chanCond += " OR e.channel IN (" + placeholders(len(s.named)) + ")"
		for _, id := range s.named {
			args = append(args, id)
		}
	}
	// Fault identity-opt-in-dropped-with-limit: a limited read is answered
	// as if it had not opted in.
	if s.optIn && !(f.Limit > 0 && p.faults.on(faultIDOptInLimitDropped)) {
		chanCond += " OR c.type = ?"
		args = append(args, typeSystem)
	}

	// Notices: only the p-tagged reader; without #t, legacy types (or no t).
	var nargs []any
	pCond := "0"
	if len(rd.pubkeys) > 0 {
		pCond = "EXISTS (SELECT 1 FROM event_tags np WHERE np.event_seq = e.seq AND np.name = 'p' AND np.value IN (" +
			placeholders(len(rd.pubkeys)) + "))"
		for _, pk := range rd.pubkeys {
			nargs = append(nargs, pk)
		}
	}
	// Fault identity-notices-to-others.
	if p.faults.on(faultIDNoticesToOthers) {
		pCond, nargs = "1", nil
	}
	typeCond := "1" // with #t the core's tag match is the rule
	// Fault identity-notice-rule-only-on-notice-kinds.
	kindsSkipRule := p.faults.on(faultIDNoticeRuleNeedsKinds) && !noticeKindsOnly(f)
	if !s.hasT && !p.faults.on(faultIDUntypedGetsSystem) && !kindsSkipRule {
		typeCond = "(NOT EXISTS (SELECT 1 FROM event_tags nt WHERE nt.event_seq = e.seq AND nt.name = 't')" +
			" OR EXISTS (SELECT 1 FROM event_tags nt WHERE nt.event_seq = e.seq AND nt.name = 't' AND nt.value IN (" +
			placeholders(len(legacyTypes)) + ")))"
		for _, t := range legacyTypes {
			nargs = append(nargs, t)
		}
	}
	cond := "(e.kind IN (?, ?) AND " + pCond + " AND " + typeCond + ") OR (e.kind NOT IN (?, ?) AND (" + chanCond + "))"
	all := []any{kindMemberAdded, kindMemberRemoved}
	all = append(all, nargs...)
	all = append(all, kindMemberAdded, kindMemberRemoved)
	all = append(all, args...)

	// Fault identity-limit-before-tag-match: the newest `limit` events of
	// the filter's kinds are read first and #t/#P matched afterwards.
	_, ht := f.Tags["t"]
	_, hp := f.Tags["P"]
	if p.faults.on(faultIDLimitBeforeTagMatch) && (ht || hp) {
		limit := f.Limit
		if limit <= 0 {
			limit = DefaultDefaultLimit
		}
		kinds := ""
		var kargs []any
		if len(f.Kinds) > 0 {
			kinds = " AND e2.kind IN (" + placeholders(len(f.Kinds)) + ")"
			for _, k := range f.Kinds {
				kargs = append(kargs, k)
			}
		}
		cond = "(" + cond + ") AND e.seq IN (SELECT e2.seq FROM events e2 WHERE e2.community = ?" + kinds +
			" ORDER BY e2.created_at DESC, e2.id ASC LIMIT ?)"
		all = append(all, rd.community)
		all = append(all, kargs...)
		all = append(all, limit)
	}
	// Fault identity-t-filter-first-value-only.
	if tv := f.Tags["t"]; p.faults.on(faultIDFirstTValueOnly) && len(tv) > 1 {
		cond = "(" + cond + ") AND EXISTS (SELECT 1 FROM event_tags ft WHERE ft.event_seq = e.seq AND ft.name = 't' AND ft.value = ?)"
		all = append(all, tv[0])
	}
	return cond, all
}

// readMatch is the same rule for live delivery.
func (p identityProfile) readMatch(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool {
	s := p.scope(f, rd)
	if isNoticeKind(ev.Kind) {
		// Fault identity-notices-to-others.
		if !p.faults.on(faultIDNoticesToOthers) && !noticeFor(ev, rd) {
			return false
		}
		// Fault identity-live-notices-ignore-type.
		if s.hasT || p.faults.on(faultIDLiveNoticesUntyped) {
			return true
		}
		// Fault identity-notice-rule-only-on-notice-kinds.
		if p.faults.on(faultIDNoticeRuleNeedsKinds) && !noticeKindsOnly(f) {
			return true
		}
		typ, ok := noticeType(ev)
		return !ok || slices.Contains(legacyTypes, typ)
	}
	named := s.named
	// Fault identity-live-naming-ignored.
	if p.faults.on(faultIDLiveNamingIgnored) {
		named = nil
	}
	// Fault identity-live-d-names-with-any-kinds.
	if p.faults.on(faultIDLiveDNamesAnyKinds) {
		named = append(slices.Clone(named), f.Tags["d"]...)
	}
	if ch == nil || slices.Contains(legacyTypes, ch.Type) || slices.Contains(named, ch.UUID) {
		return true
	}
	// Fault identity-live-opt-in-ignored.
	if s.optIn && ch.Type == typeSystem && !p.faults.on(faultIDLiveOptInIgnored) {
		return true
	}
	return false
}

// noticeFor reports whether a notice's p tag names one of the reader's keys.
func noticeFor(ev *nostr.Event, rd *reader) bool {
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && tag[0] == "p" && rd.has(tag[1]) {
			return true
		}
	}
	return false
}

// noticeType returns a notice's channel type (its t tag), if it has one.
func noticeType(ev *nostr.Event) (string, bool) {
	if tag := ev.Tags.Find("t"); tag != nil {
		return tag[1], true
	}
	return "", false
}
