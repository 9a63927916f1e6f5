package reference

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// Install funcs of the faults that are hook sets (their rows' install
// field): each appends to general hook slices (hooks, variants.go; called
// in hooks.go), so the conforming code does not name the fault.

// editState is the install func of a fault that edits the tags of the
// state events the relay publishes.
func editState(edit func(r *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.editStateTags = append(r.hooks.editStateTags, func(kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
			return edit(r, kind, ch, tags)
		})
	}
}

// editOK is the install func of a fault that rewrites OK reasons.
func editOK(edit func(ev *nostr.Event, accepted bool, reason string) string) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.okText = append(r.hooks.okText, edit)
	}
}

// editNIP11 is the install func of a fault that edits the NIP-11 document.
func editNIP11(edit func(info *Info)) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.editInfo = append(r.hooks.editInfo, edit)
	}
}

// withoutTags returns tags without those for which drop is true.
func withoutTags(tags nostr.Tags, drop func(tag nostr.Tag) bool) nostr.Tags {
	return slices.DeleteFunc(slices.Clone(tags), drop)
}

// tagNamed reports whether tag is named one of names.
func tagNamed(tag nostr.Tag, names ...string) bool {
	return len(tag) > 0 && slices.Contains(names, tag[0])
}

// --- baseline (faults_nip29.go) ---------------------------------------------

// okWithoutPrefix: ok-without-prefix leaves out a refusal's
// machine-readable prefix.
var okWithoutPrefix = editOK(func(_ *nostr.Event, accepted bool, reason string) string {
	if accepted {
		return reason
	}
	if _, rest, found := strings.Cut(reason, ":"); found {
		return strings.TrimSpace(rest)
	}
	return reason
})

// adminsWithoutRoles: admins-without-roles lists 39001's admins with no
// role.
var adminsWithoutRoles = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupAdmins {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "p") && len(tag) > 2 {
			out[i] = tag[:2]
		}
	}
	return out
})

// subgroupsNotAdvertised: subgroups-not-advertised says nothing of
// subgroups in NIP-11.
var subgroupsNotAdvertised = editNIP11(func(info *Info) { info.NIP29 = nil })

// nip11HostNoExtension: identity-nip11-host-no-extension and
// labels-nip11-host-no-extension serve a community other than the first
// asked a NIP-11 document without nip-cl.
func nip11HostNoExtension(r *Relay) {
	r.hooks.serveInfo = append(r.hooks.serveInfo, func(req *http.Request, doc *Info) {
		if r.faulty.nip11Secondary(communityOf(req)) {
			doc.SupportedExtensions = slices.DeleteFunc(doc.SupportedExtensions, func(e string) bool { return e == "nip-cl" })
		}
	})
}

// pinsOrderLost: pins-order-lost publishes the 39005's pins sorted by
// value, not in the 9010's order.
var pinsOrderLost = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupPins || len(tags) < 2 {
		return tags
	}
	out := slices.Clone(tags)
	slices.SortFunc(out[1:], func(a, b nostr.Tag) int { return strings.Compare(a[1], b[1]) })
	return out
})

// --- identity (faults_identity.go) ------------------------------------------

// idNIPCLInNIPs: identity-nip-cl-in-supported-nips lists "nip-cl" among
// the NIP numbers.
var idNIPCLInNIPs = editNIP11(func(info *Info) {
	info.SupportedNIPs = append(slices.Clone(info.SupportedNIPs), "nip-cl")
})

// idTagsOnlyOn39000: the identity tags (t, P) go on 39000 only.
var idTagsOnlyOn39000 = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind == kindGroupMetadata || !isGroupState(kind) {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "t", "P") })
})

// idLabelOrderDiffers: the label t tags (after the type's) are sorted on
// every state kind but 39000.
var idLabelOrderDiffers = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind == kindGroupMetadata || !isGroupState(kind) {
		return tags
	}
	out := slices.Clone(tags)
	var at []int
	var labels []string
	for i, tag := range out {
		if tagNamed(tag, "t") && len(tag) > 1 {
			at = append(at, i)
			labels = append(labels, tag[1])
		}
	}
	if len(at) < 2 {
		return tags
	}
	labels = labels[1:]
	sort.Strings(labels)
	for j, i := range at[1:] {
		out[i] = nostr.Tag{"t", labels[j]}
	}
	return out
})

// idCreatorFollowsOwner: the P tag names the channel's current owner, not
// its creator.
var idCreatorFollowsOwner = editState(func(_ *Relay, _ int, ch *Channel, tags nostr.Tags) nostr.Tags {
	owner := ""
	for _, pk := range sortedMembers(ch) {
		if ch.Members[pk] == roleOwner {
			owner = pk
			break
		}
	}
	if owner == "" {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "P") {
			out[i] = nostr.Tag{"P", owner}
		}
	}
	return out
})

// idCreatorBeforeType: the P tag comes before the channel type's t tag.
var idCreatorBeforeType = editState(func(_ *Relay, _ int, _ *Channel, tags nostr.Tags) nostr.Tags {
	p := slices.IndexFunc(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "P") })
	t := slices.IndexFunc(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "t") })
	if p < 0 || t < 0 || p < t {
		return tags
	}
	out := slices.Clone(tags)
	ptag := out[p]
	out = slices.Delete(out, p, p+1)
	return slices.Insert(out, t, ptag)
})

// idCreatedAtBackdated: 39000's created_at tag is backdated.
var idCreatedAtBackdated = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "created_at") && len(tag) > 1 {
			if at, err := strconv.ParseInt(tag[1], 10, 64); err == nil {
				out[i] = nostr.Tag{"created_at", strconv.FormatInt(at-createdAtBackdate, 10)}
			}
		}
	}
	return out
})

// idNoticeWithoutType: identity-notice-without-type leaves the channel
// type's t tag off the membership notices.
var idNoticeWithoutType = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if !isNoticeKind(kind) {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "t") })
})

// idHiddenMissing: a private system channel's 39000 lacks the hidden tag.
var idHiddenMissing = editState(func(_ *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata || ch.Type != typeSystem || ch.Visibility != visibilityPrivate || ch.Hidden {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "hidden") })
})

// idHiddenOnOpen: an open system channel's 39000 is marked hidden too.
var idHiddenOnOpen = editState(func(_ *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata || ch.Type != typeSystem || ch.Visibility == visibilityPrivate || ch.Hidden {
		return tags
	}
	return append(slices.Clone(tags), nostr.Tag{"hidden"})
})

// --- labels (faults_labels.go) ----------------------------------------------

// labelsNoNamespace: 39000 carries the l tags without ["L", "nip-cl"].
var labelsNoNamespace = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool {
		return tagNamed(tag, "L") && len(tag) > 1 && tag[1] == labelNamespace
	})
})

// isLabelTag reports whether tag is one of 39000's ["l", v, "nip-cl"].
func isLabelTag(tag nostr.Tag) bool {
	return tagNamed(tag, "l") && len(tag) > 2 && tag[2] == labelNamespace
}

// labelsUnsorted: 39000's l tags come in reverse ASCII order.
var labelsUnsorted = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	var at []int
	for i, tag := range out {
		if isLabelTag(tag) {
			at = append(at, i)
		}
	}
	for a, b := 0, len(at)-1; a < b; a, b = a+1, b-1 {
		out[at[a]], out[at[b]] = out[at[b]], out[at[a]]
	}
	return out
})

// labelsAsTTags: 39000 repeats every label as a t tag.
var labelsAsTTags = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	for _, tag := range tags {
		if isLabelTag(tag) {
			out = append(out, nostr.Tag{"t", tag[1]})
		}
	}
	return out
})

// labelsRetryEmptyReason: a committed retry is answered OK true with an
// empty reason instead of "duplicate: nip-cl-committed".
var labelsRetryEmptyReason = editOK(func(_ *nostr.Event, accepted bool, reason string) string {
	if accepted && reason == "duplicate: nip-cl-committed" {
		return ""
	}
	return reason
})

// --- reads: filters, access (query.go) --------------------------------------

// readAs is the install func of a fault that rewrites filters as the relay
// reads them.
func readAs(edit func(f nostr.Filter, verb string) nostr.Filter) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.readFilter = append(r.hooks.readFilter, edit)
	}
}

// skipAccessOn is the install func of a fault that leaves the read-access
// rule out of some reads.
func skipAccessOn(skip func(f *nostr.Filter, verb string) bool) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.skipAccess = append(r.hooks.skipAccess, skip)
	}
}

// grant is the install func of a fault that widens the read-access rule.
func grant(g readGrant) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.grantRead = append(r.hooks.grantRead, g)
	}
}

// filterFirstValueOnly: filter-first-value-only keeps each tag filter's
// first value.
var filterFirstValueOnly = readAs(func(f nostr.Filter, _ string) nostr.Filter {
	for name, vals := range f.Tags {
		if len(vals) > 1 {
			f.Tags[name] = vals[:1]
		}
	}
	return f
})

// filterExclusiveSinceUntil: filter-exclusive-since-until moves since and
// until one second inwards.
var filterExclusiveSinceUntil = readAs(func(f nostr.Filter, _ string) nostr.Filter {
	if f.Since != nil {
		s := *f.Since + 1
		f.Since = &s
	}
	if f.Until != nil {
		u := *f.Until - 1
		f.Until = &u
	}
	return f
})

// filterEmptyArrayMatchesAll: filter-empty-array-matches-all drops empty
// lists.
var filterEmptyArrayMatchesAll = readAs(func(f nostr.Filter, _ string) nostr.Filter {
	for name, vals := range f.Tags {
		if len(vals) == 0 {
			delete(f.Tags, name)
		}
	}
	if f.IDs != nil && len(f.IDs) == 0 {
		f.IDs = nil
	}
	if f.Authors != nil && len(f.Authors) == 0 {
		f.Authors = nil
	}
	if f.Kinds != nil && len(f.Kinds) == 0 {
		f.Kinds = nil
	}
	return f
})

// countIgnoresTags: count-ignores-tags drops a COUNT's tag conditions.
var countIgnoresTags = readAs(func(f nostr.Filter, verb string) nostr.Filter {
	if verb == readCOUNT {
		f.Tags = nil
	}
	return f
})

// limitCapsLive: limit-caps-live gives a filter with a limit nothing live
// (it matches no kind).
var limitCapsLive = readAs(func(f nostr.Filter, verb string) nostr.Filter {
	if verb == readLive && f.Limit > 0 {
		f.Kinds = []int{}
	}
	return f
})

// labelsMixedKindsReadEmpty: labels-mixed-kinds-read-empty answers a REQ
// with #l and several kinds with no stored event (limit 0).
var labelsMixedKindsReadEmpty = readAs(func(f nostr.Filter, verb string) nostr.Filter {
	if verb == readREQ && f.Tags["l"] != nil && len(f.Kinds) > 1 {
		f.LimitZero = true
	}
	return f
})

// labelsDiscoveryTIgnored: labels-discovery-t-ignored drops #t from a
// stored read with #l.
var labelsDiscoveryTIgnored = readAs(func(f nostr.Filter, verb string) nostr.Filter {
	if verb == readREQ && f.Tags["l"] != nil && f.Tags["t"] != nil {
		delete(f.Tags, "t")
	}
	return f
})

// readsIDsSkipAccess: reads-ids-skip-access leaves an ids filter's stored
// reads (REQ, COUNT) unchecked.
var readsIDsSkipAccess = skipAccessOn(func(f *nostr.Filter, verb string) bool {
	return verb != readLive && f.IDs != nil
})

// labelsNamespaceReadSkipsACL: labels-namespace-read-skips-acl leaves a
// stored #L read without #l unchecked.
var labelsNamespaceReadSkipsACL = skipAccessOn(func(f *nostr.Filter, verb string) bool {
	return verb == readREQ && f.Tags["L"] != nil && f.Tags["l"] == nil
})

// labelsLiveNamespaceSkipsACL: labels-live-namespace-skips-acl treats a
// #L subscription without #l as a public feed.
var labelsLiveNamespaceSkipsACL = skipAccessOn(func(f *nostr.Filter, verb string) bool {
	return verb == readLive && f.Tags["L"] != nil && f.Tags["l"] == nil
})

// idPOptInSkipsACL: identity-p-opt-in-skips-acl leaves a stored #P read
// with #t unchecked.
var idPOptInSkipsACL = skipAccessOn(func(f *nostr.Filter, verb string) bool {
	return verb == readREQ && f.Tags["P"] != nil && f.Tags["t"] != nil
})

// privateMessagesReadable: private-messages-readable serves kind 9 of any
// group to anyone.
var privateMessagesReadable = grant(readGrant{
	sql:  func(*reader, bool) (string, []any) { return "e.kind = 9", nil },
	live: func(ev *nostr.Event, _ *Channel) bool { return ev.Kind == 9 },
})

// countIgnoresAccess: count-ignores-access counts every event of a
// channel the rule reads.
var countIgnoresAccess = grant(readGrant{
	sql: func(_ *reader, forCount bool) (string, []any) {
		if forCount {
			return "1", nil
		}
		return "", nil
	},
})

// readsRemovedMemberReads: reads-removed-member-reads lets anyone a 9000
// ever named read the group.
var readsRemovedMemberReads = grant(readGrant{
	sql: func(rd *reader, _ bool) (string, []any) {
		if len(rd.pubkeys) == 0 {
			return "", nil
		}
		in, args := inList("xt.value", rd.pubkeys)
		return "EXISTS (SELECT 1 FROM events x JOIN event_tags xt ON xt.event_seq = x.seq" +
			" WHERE x.community = e.community AND x.channel = e.channel AND x.kind = 9000 AND xt.name = 'p' AND " + in + ")", args
	},
})

// deleteKeepsMemberLists: delete-keeps-member-lists still serves a
// deleted group's 39001 and 39002 (stored reads).
var deleteKeepsMemberLists = grant(readGrant{deleted: true,
	sql: func(*reader, bool) (string, []any) {
		return fmt.Sprintf("(c.deleted = 1 AND e.kind IN (%d, %d))", kindGroupAdmins, kindGroupMembers), nil
	},
})

// deletedGroupMessagesPublic: deleted-group-messages-public serves a
// deleted group's events to anyone.
var deletedGroupMessagesPublic = grant(readGrant{deleted: true,
	sql:  func(*reader, bool) (string, []any) { return "c.deleted = 1", nil },
	live: func(*nostr.Event, *Channel) bool { return true },
})

// --- who may act (nip29*.go, labels.go, livekit.go) -------------------------

// permit is the install func of a fault that lets a role take an action
// the conforming rule refuses.
func permit(action string, roles ...string) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.permit = append(r.hooks.permit, func(a, role string) bool {
			return a == action && (len(roles) == 0 || slices.Contains(roles, role))
		})
	}
}

// --- LiveKit (livekit.go) ---------------------------------------------------

// editClaims is the install func of a fault that edits LiveKit tokens.
func editClaims(edit func(claims map[string]any)) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.tokenClaims = append(r.hooks.tokenClaims, edit)
	}
}

// livekitSubUppercase: livekit-sub-uppercase writes the token's sub with
// the pubkey in uppercase hex.
var livekitSubUppercase = editClaims(func(claims map[string]any) {
	sub, _ := claims["sub"].(string)
	pk, suffix, _ := strings.Cut(sub, "-")
	if suffix != "" {
		suffix = "-" + suffix
	}
	claims["sub"] = strings.ToUpper(pk) + suffix
})

// livekitSubNoSuffix: livekit-sub-no-suffix gives every token of a user
// the same sub (the pubkey alone).
var livekitSubNoSuffix = editClaims(func(claims map[string]any) {
	sub, _ := claims["sub"].(string)
	pk, _, _ := strings.Cut(sub, "-")
	claims["sub"] = pk
})

// livekitParticipantsUppercase: livekit-participants-uppercase lists the
// 39004's participants in uppercase hex.
var livekitParticipantsUppercase = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupParticipants {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "participant") && len(tag) > 1 {
			out[i] = nostr.Tag{"participant", strings.ToUpper(tag[1])}
		}
	}
	return out
})

// --- the group a 9007 or 9002 leaves (nip29.go, identity.go, labels.go) -----

// editGroup is the install func of a fault that edits the group a 9007 or
// 9002 leaves.
func editGroup(edit func(ev *nostr.Event, prev, next *Channel)) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.editChannel = append(r.hooks.editChannel, edit)
	}
}

// idClientCreatorHonoured: identity-client-creator-honoured takes the
// creator from a client's ["P", pk] tag, on 9007 and 9002.
var idClientCreatorHonoured = editGroup(func(ev *nostr.Event, _, next *Channel) {
	if pk, ok := clientCreator(ev); ok {
		next.Creator = pk
	}
})

// idClientCreatedAtOnCreate: identity-client-created-at-on-create takes a
// 9007's client created_at tag.
var idClientCreatedAtOnCreate = editGroup(func(ev *nostr.Event, prev, next *Channel) {
	if at, ok := clientCreatedAt(ev); ok && prev == nil {
		next.CreatedAt = at
	}
})

// idCreatedAtFollowsEdit: identity-created-at-follows-edit moves
// created_at to each 9002's.
var idCreatedAtFollowsEdit = editGroup(func(ev *nostr.Event, prev, next *Channel) {
	if prev != nil {
		next.CreatedAt = int64(ev.CreatedAt)
	}
})

// idClientCreatedAtOnEdit: identity-client-created-at-on-edit takes a
// 9002's client created_at tag.
var idClientCreatedAtOnEdit = editGroup(func(ev *nostr.Event, prev, next *Channel) {
	if at, ok := clientCreatedAt(ev); ok && prev != nil {
		next.CreatedAt = at
	}
})

// labelsOrdinaryEditDrops: labels-ordinary-edit-drops clears the labels
// on every ordinary 9002.
var labelsOrdinaryEditDrops = editGroup(func(_ *nostr.Event, prev, next *Channel) {
	if prev != nil {
		next.Labels = nil
	}
})

// labelsFlagEditDropsLabels: labels-flag-edit-drops-labels clears the
// labels on a 9002 that sets a flag or a topic.
var labelsFlagEditDropsLabels = editGroup(func(ev *nostr.Event, prev, next *Channel) {
	if prev == nil {
		return
	}
	for _, name := range []string{"private", "hidden", "closed", "restricted", "topic", "purpose"} {
		if hasTag(ev, name) {
			next.Labels = nil
		}
	}
})

// --- the identity draft's system-channel rule (identity.go, search.go) ------

// leakSystem is the install func of a fault that returns system channels'
// events (not notices) to reads that do not name them: stored reads where
// stored says so, live delivery where live does.
func leakSystem(stored func(f *nostr.Filter, rd *reader, verb string) bool, live func(f *nostr.Filter) bool) func(r *Relay) {
	return func(r *Relay) {
		g := profileGrant{}
		if stored != nil {
			g.sql = func(f *nostr.Filter, rd *reader, verb string) (string, []any) {
				if !stored(f, rd, verb) {
					return "", nil
				}
				return "e.kind NOT IN (?, ?)", []any{kindMemberAdded, kindMemberRemoved}
			}
		}
		if live != nil {
			g.live = func(f *nostr.Filter, _ *reader, ev *nostr.Event, _ *Channel) bool {
				return !isNoticeKind(ev.Kind) && live(f)
			}
		}
		r.hooks.grantProfileRead = append(r.hooks.grantProfileRead, g)
	}
}

// readsIDsNameSystem: identity-ids-name-system-channels counts a stored
// ids read as naming every channel.
var readsIDsNameSystem = leakSystem(func(f *nostr.Filter, _ *reader, _ string) bool { return f.IDs != nil }, nil)

// idSystemLive: identity-system-live delivers system channels' events to
// every live subscription.
var idSystemLive = leakSystem(nil, func(*nostr.Filter) bool { return true })

// idSystemInCount: identity-system-in-count counts system channels.
var idSystemInCount = leakSystem(func(_ *nostr.Filter, _ *reader, verb string) bool { return verb == readCOUNT }, nil)

// idSystemInHistory: identity-system-in-history serves system channels'
// stored events.
var idSystemInHistory = leakSystem(func(_ *nostr.Filter, _ *reader, verb string) bool { return verb == readREQ }, nil)

// idCountUntaggedSystem: identity-count-untagged-counts-system counts
// system channels for a COUNT without tag filters.
var idCountUntaggedSystem = leakSystem(func(f *nostr.Filter, _ *reader, verb string) bool {
	return verb == readCOUNT && len(f.Tags) == 0
}, nil)

// memberListRead reports whether f reads 39002s by #p.
func memberListRead(f *nostr.Filter) bool {
	_, hasp := f.Tags["p"]
	return hasp && len(f.Kinds) == 1 && f.Kinds[0] == kindGroupMembers
}

// idMemberListLeaks: identity-member-list-leaks-system lets stored 39002
// #p reads skip the system-channel rule.
var idMemberListLeaks = leakSystem(func(f *nostr.Filter, _ *reader, _ string) bool { return memberListRead(f) }, nil)

// idSearchLeaksSystem: identity-search-leaks-system returns system
// channels' events to a search filter whether or not it names them.
func idSearchLeaksSystem(r *Relay) {
	r.hooks.grantProfileRead = append(r.hooks.grantProfileRead, profileGrant{
		sql: func(f *nostr.Filter, _ *reader, _ string) (string, []any) {
			if f.Search == "" {
				return "", nil
			}
			return "c.type = ? AND e.kind NOT IN (?, ?)", []any{typeSystem, kindMemberAdded, kindMemberRemoved}
		},
		live: func(f *nostr.Filter, _ *reader, ev *nostr.Event, ch *Channel) bool {
			return f.Search != "" && ch != nil && ch.Type == typeSystem && !isNoticeKind(ev.Kind)
		},
	})
}

// --- who signs the state events (nip29.go, livekit.go, pins, labels) --------

// signStateWith is the install func of a fault that signs the state events
// of kinds (nil: every kind) with a key of its own, made at installation.
func signStateWith(kinds ...int) func(r *Relay) {
	return func(r *Relay) {
		key := nostr.GeneratePrivateKey()
		r.hooks.signState = append(r.hooks.signState, func(kind int) string {
			if len(kinds) == 0 || slices.Contains(kinds, kind) {
				return key
			}
			return ""
		})
	}
}

// joinMemberNotDuplicate: join-member-not-duplicate refuses a current
// member's 9021 with blocked: instead of duplicate:.
var joinMemberNotDuplicate = editOK(func(ev *nostr.Event, accepted bool, reason string) string {
	if !accepted && ev.Kind == kindJoinRequest && reason == "duplicate: already a member" {
		return "blocked: already a member"
	}
	return reason
})

// --- subscriptions (conn.go) ------------------------------------------------

// keepSubscription is the install func of a fault that changes what a
// subscription id holds after a REQ or CLOSE.
func keepSubscription(keep func(old, next nostr.Filters) nostr.Filters) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.subscription = append(r.hooks.subscription, func(_ string, old, next nostr.Filters) nostr.Filters {
			return keep(old, next)
		})
	}
}

// closeIgnored: close-ignored leaves a CLOSEd subscription open.
var closeIgnored = keepSubscription(func(old, next nostr.Filters) nostr.Filters {
	if next == nil {
		return old
	}
	return next
})

// subReplaceKeepsOld: sub-replace-keeps-old keeps a replaced
// subscription's filters beside the new ones.
var subReplaceKeepsOld = keepSubscription(func(old, next nostr.Filters) nostr.Filters {
	if old != nil && next != nil {
		return append(append(nostr.Filters{}, old...), next...)
	}
	return next
})
