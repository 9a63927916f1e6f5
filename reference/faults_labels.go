package reference

import (
	"github.com/nbd-wtf/go-nostr"
	"slices"
	"sync"
	"time"
)

// Fault switch names of the labels profile (Profile "labels"): they break
// sentences of the NIP-CL labels draft (and one NIP-01 filter rule the
// label index touches) and apply only under that profile. Each is
// consulted (r.fault, faults.on) at the behaviour it breaks;
// TestEveryFaultIsConsulted lists the places.
const (
	// labels/add-remove (nip-cl-labels.md Add and remove labels: kind 9002).
	faultLabelsMutationRetypes   FaultName = "labels-mutation-channel-type-applied"
	faultLabelsMixedEdit         FaultName = "labels-mixed-edit-accepted"
	faultLabelsEnvelopeRefused   FaultName = "labels-envelope-tags-refused"
	faultLabelsOverlapAccepted   FaultName = "labels-overlap-accepted"
	faultLabelsNoopPublishes     FaultName = "labels-noop-publishes"
	faultLabelsOrdinaryEditDrops FaultName = "labels-ordinary-edit-drops"

	// labels/application (nip-cl-labels.md Application and publication guarantees).
	faultLabelsNonAtomicCreate FaultName = "labels-nonatomic-create"
	faultLabelsPartialApply    FaultName = "labels-partial-apply"

	// labels/authorization (nip-cl-labels.md Authorization and visibility).
	faultLabelsCountDACL         FaultName = "labels-count-d-skips-acl"
	faultLabelsMemberCanLabel    FaultName = "labels-member-can-label"
	faultLabelsAuthorityUnserial FaultName = "labels-authority-unserialized"
	faultLabelsNSReadSkipsACL    FaultName = "labels-namespace-read-skips-acl"
	faultLabelsPrivateVisible    FaultName = "labels-private-visible"

	// labels/capability (nip-cl-labels.md Capability discovery).
	faultLabelsNIP11HostNoExt FaultName = "labels-nip11-host-no-extension"

	// labels/community (nip-cl-labels.md Authorization and visibility: community scope).
	faultLabelsCountCommunities  FaultName = "labels-count-across-communities"
	faultLabelsCommunityLeak     FaultName = "labels-community-leak"
	faultLabelsEvidenceCommunity FaultName = "labels-evidence-cross-community"

	// labels/events (nip-cl-labels.md Events (command shape, misplaced tags, h tag)).
	faultLabelsMisplacedIgnored  FaultName = "labels-misplaced-ignored"
	faultLabelsHTagLenient       FaultName = "labels-h-tag-lenient"
	faultLabelsForeignNSIgnored  FaultName = "labels-foreign-namespace-ignored"
	faultLabelsUnlabeledHLenient FaultName = "labels-unlabeled-h-lenient"

	// labels/finding-channels (nip-cl-labels.md Finding channels).
	faultLabelsUserSnapshot      FaultName = "labels-user-snapshot-matched"
	faultLabelsCountLimitACL     FaultName = "labels-count-limit-skips-acl"
	faultLabelsMixedKindsRead    FaultName = "labels-mixed-kinds-read-empty"
	faultLabelsDiscoveryTLost    FaultName = "labels-discovery-t-ignored"
	faultLabelsSupersededMatched FaultName = "labels-superseded-matched"
	faultLabelsLimitReadRefused  FaultName = "labels-limit-read-refused"
	faultLabelsIDsLimitBeforeACL FaultName = "labels-ids-limit-before-acl"
	faultLabelsLimitBeforeMatch  FaultName = "labels-limit-before-match"
	faultLabelsLiveNSSkipsACL    FaultName = "labels-live-namespace-skips-acl"
	faultLabelsLiveRemovalFeed   FaultName = "labels-live-removal-feed"

	// labels/initial-labels (nip-cl-labels.md Initial labels: kind 9007).
	faultLabelsCreateNoDedup     FaultName = "labels-create-no-dedup"
	faultLabelsConflictFirst     FaultName = "labels-conflict-before-retry"
	faultLabelsRefusedCreateKept FaultName = "labels-refused-create-stored"
	faultLabelsConflictDiscloses FaultName = "labels-conflict-discloses"

	// labels/responses (nip-cl-labels.md Acknowledgements, retries and recovery: Responses and client outcomes).
	faultLabelsNoMarker             FaultName = "labels-no-marker"
	faultLabelsRetryEmptyReason     FaultName = "labels-retry-empty-reason"
	faultLabelsRefusedMutationKept  FaultName = "labels-refused-mutation-stored"
	faultLabelsLimitBeforeAuthority FaultName = "labels-limit-before-authority"

	// labels/retention (nip-cl-labels.md Retention).
	faultLabelsEvidenceDeletable     FaultName = "labels-evidence-deletable"
	faultLabelsDeletionDropsEvidence FaultName = "labels-deletion-drops-evidence"
	faultLabelsDeletionDeferred      FaultName = "labels-deletion-deferred-drops-evidence"

	// labels/retry-admission (nip-cl-labels.md Acknowledgements, retries and recovery: Retry admission).
	faultLabelsRetrySkipsAdmit FaultName = "labels-retry-skips-admission"
	faultLabelsRetryReapplies  FaultName = "labels-retry-reapplies"

	// labels/scope (nip-cl-labels.md Scope).
	faultLabelsDMAccepted      FaultName = "labels-dm-accepted"
	faultLabelsArchivedMutable FaultName = "labels-archived-mutable"
	faultLabelsDeletedMutable  FaultName = "labels-deleted-mutable"
	faultLabelsUnarchiveInMut  FaultName = "labels-unarchive-in-mutation"
	faultLabelsPrefixReserved  FaultName = "labels-namespace-prefix-reserved"

	// labels/serialization (nip-cl-labels.md Application and publication guarantees: serialized mutations and publication).
	faultLabelsLostUpdate        FaultName = "labels-lost-update"
	faultLabelsLifecycleUnserial FaultName = "labels-lifecycle-unserialized"
	faultLabelsEditStaleLabels   FaultName = "labels-edit-stale-labels"
	faultLabelsFlagEditDrops     FaultName = "labels-flag-edit-drops-labels"
	faultLabelsStaleTimestamp    FaultName = "labels-stale-snapshot-timestamp"

	// labels/snapshot (nip-cl-labels.md Metadata snapshot: kind 39000).
	faultLabelsLiveStaleLabels FaultName = "labels-live-stale-labels"
	faultLabelsNoNamespace     FaultName = "labels-no-namespace"
	faultLabelsUnsorted        FaultName = "labels-unsorted"
	faultLabelsAsTTags         FaultName = "labels-as-t-tags"

	// labels/values-and-limits (nip-cl-labels.md Label values and limits).
	faultLabelsCreateCopiesCapped FaultName = "labels-create-value-copies-capped"
	faultLabelsNewlineBeforeEnd   FaultName = "labels-newline-before-end"
	faultLabelsValuesRewritten    FaultName = "labels-values-rewritten"
	faultLabelsLimitBeforeApply   FaultName = "labels-stored-limit-before-apply"
	faultLabelsStoredLimitOff     FaultName = "labels-stored-limit-off"
	faultLabelsRawLimitDedup      FaultName = "labels-raw-limit-after-dedup"
	faultLabelsRepeatsStored      FaultName = "labels-repeats-count-as-stored"
	faultLabelsDistinctCapped     FaultName = "labels-mutation-distinct-values-capped"
	faultLabelsShortTagsSkipped   FaultName = "labels-short-tags-skipped"
	faultLabelsRemoveUnchecked    FaultName = "labels-remove-values-unchecked"

	// nip01/filters (NIP-01 Communication between clients and relays: filters and limit).
	faultReadsLaterValuesIndexed FaultName = "labels-tag-later-values-indexed"
)

// labelsFaults is the labels fault table, grouped by the section each row
// breaks. Clause names the clause whose sentence Breaks
// contradicts; the kill test counts the fault as killed only when a case
// citing that clause fails.
var labelsFaults = []faultSpec{
	// labels/add-remove (nip-cl-labels.md Add and remove labels: kind 9002).
	{Name: faultLabelsMutationRetypes, Clause: "labels/add-remove.2",
		Breaks: "a label mutation carrying channel_type is not refused: the labels apply and the channel takes the named type"},
	{Name: faultLabelsMixedEdit, Clause: "labels/add-remove.2",
		Breaks: "a label mutation that also changes name, about, visibility or archive state is applied"},
	{Name: faultLabelsEnvelopeRefused, Clause: "labels/add-remove.3",
		Breaks: "a label-only 9002 carrying any tag but h, add-label and remove-label (client, expiration, nonce, [\"-\"]) is refused as not label-only"},
	{Name: faultLabelsOverlapAccepted, Clause: "labels/add-remove.5",
		Breaks: "a 9002 whose add-label and remove-label values intersect is applied (adds, then removes)"},
	{Name: faultLabelsNoopPublishes, Clause: "labels/add-remove.11",
		Breaks: "a no-op label mutation publishes a new 39000 snapshot"},
	{Name: faultLabelsOrdinaryEditDrops, Clause: "labels/add-remove.15",
		Breaks:  "an ordinary 9002 edit without label operations clears the channel's labels",
		install: labelsOrdinaryEditDrops},

	// labels/application (nip-cl-labels.md Application and publication guarantees).
	{Name: faultLabelsNonAtomicCreate, Clause: "labels/application.2",
		Breaks: "a labeled 9007 commits the channel, owner membership and snapshot before validating its labels; a rejected create leaves them behind"},
	{Name: faultLabelsPartialApply, Clause: "labels/application.2",
		Breaks: "a label mutation with an invalid value commits its valid values and then answers the rejection"},

	// labels/authorization (nip-cl-labels.md Authorization and visibility).
	{Name: faultLabelsCountDACL, Clause: "labels/authorization.8",
		Breaks: "a COUNT filter with #d counts without the access rule: a private channel's snapshot is counted (1, not 0) for outsiders and anonymous readers"},
	{Name: faultLabelsMemberCanLabel, Clause: "labels/authorization.4",
		Breaks:  "plain members may add and remove labels",
		install: permit(actChangeLabels, roleMember)},
	{Name: faultLabelsAuthorityUnserial, Clause: "labels/authorization.5",
		Breaks: "a label mutation checks its author's role on channel state read before the write lock: a mutation racing the author's demotion or removal is applied after it"},
	{Name: faultLabelsNSReadSkipsACL, Clause: "labels/authorization.8",
		Breaks:  "a stored 39000 read by #L without #l skips the read ACL: outsiders see private channels' snapshots",
		install: labelsNamespaceReadSkipsACL},
	{Name: faultLabelsPrivateVisible, Clause: "labels/authorization.8",
		Breaks: "the 39000 snapshots a label command publishes for a private channel are stored outside the channel ACL"},

	// labels/capability (nip-cl-labels.md Capability discovery).
	{Name: faultLabelsNIP11HostNoExt, Clause: "labels/capability.1",
		Breaks:  `only the community first asked for its NIP-11 document lists "nip-cl" in supported_extensions: another community's (--host) document omits it`,
		install: nip11HostNoExtension},

	// labels/community (nip-cl-labels.md Authorization and visibility: community scope).
	{Name: faultLabelsCountCommunities, Clause: "labels/community.1",
		Breaks: "NIP-45 COUNT counts the matching events of every community, not only the Host's"},
	{Name: faultLabelsCommunityLeak, Clause: "labels/community.1",
		Breaks: "label state is keyed by channel UUID only: a create inherits the labels of the same UUID in another community"},
	{Name: faultLabelsEvidenceCommunity, Clause: "labels/community.2",
		Breaks: "duplicate detection looks an event id up in every community: a command committed in one community is answered duplicate: nip-cl-committed in another where the same channel UUID exists"},

	// labels/events (nip-cl-labels.md Events (command shape, misplaced tags, h tag)).
	{Name: faultLabelsMisplacedIgnored, Clause: "labels/events.5",
		Breaks: "misplaced tags (add-label/remove-label on 9007, label on 9002, l/L/t on either) are ignored instead of rejected"},
	{Name: faultLabelsHTagLenient, Clause: "labels/events.7",
		Breaks: "a label command with several h tags is applied to the first one"},
	{Name: faultLabelsForeignNSIgnored, Clause: "labels/events.5",
		Breaks: `only nip-cl-marked l and L tags count as misplaced on a 9007 or 9002: an unmarked ["l",v], a foreign-namespace ["l",v,"ugc"] or ["L","ugc"] is ignored and the command applies`},
	{Name: faultLabelsUnlabeledHLenient, Clause: "labels/events.8",
		Breaks: "an h-tagged 9007 without label tags skips the channel-UUID rule: an h value that is not a UUID, or the nil UUID, creates a channel"},

	// labels/finding-channels (nip-cl-labels.md Finding channels).
	{Name: faultLabelsUserSnapshot, Clause: "labels/finding-channels.1",
		Breaks:  "a user-signed kind 39000 carrying L/l tags is stored instead of refused, and label reads match it like a relay-signed snapshot",
		install: permit(actPublishState)},
	{Name: faultLabelsCountLimitACL, Clause: "labels/finding-channels.7",
		Breaks: "a COUNT filter with a limit counts without the access rule: a private channel's labeled snapshot is counted for outsiders"},
	{Name: faultLabelsMixedKindsRead, Clause: "labels/finding-channels.1",
		Breaks:  "a filter with #l whose kinds name 39000 beside other kinds matches nothing",
		install: labelsMixedKindsReadEmpty},
	{Name: faultLabelsDiscoveryTLost, Clause: "labels/finding-channels.2",
		Breaks:  "a 39000 filter with both #l and #t ignores #t: channels of another type with the label come back",
		install: labelsDiscoveryTIgnored},
	{Name: faultLabelsSupersededMatched, Clause: "labels/finding-channels.6",
		Breaks: "snapshots replaced by a label command stay stored and still match #l filters"},
	{Name: faultLabelsLimitReadRefused, Clause: "labels/finding-channels.7",
		Breaks: "a REQ with a limit that would match a snapshot the reader may not read is refused with CLOSED, so the older readable match never comes back"},
	{Name: faultLabelsIDsLimitBeforeACL, Clause: "labels/finding-channels.7",
		Breaks: "a read with ids and a limit takes the newest named events first and applies the read ACL after: a withheld snapshot uses up the limit"},
	{Name: faultLabelsLimitBeforeMatch, Clause: "labels/finding-channels.8",
		Breaks: "#l/#L filters are matched against the newest page of 39000 snapshots only (limit before match)"},
	{Name: faultLabelsLiveRemovalFeed, Clause: "labels/finding-channels.11",
		Breaks: "a replacement 39000 is delivered live to the #l subscriptions its predecessor matched: a channel that lost a label is sent to the label's subscribers (a removal feed)"},
	{Name: faultLabelsLiveNSSkipsACL, Clause: "labels/finding-channels.10",
		Breaks:  "live delivery to a subscription with #L and no #l skips the read ACL: outsiders receive private channels' snapshots",
		install: labelsLiveNamespaceSkipsACL},

	// labels/initial-labels (nip-cl-labels.md Initial labels: kind 9007).
	{Name: faultLabelsCreateNoDedup, Clause: "labels/initial-labels.2",
		Breaks: "repeated label tags of a 9007 are stored (and published) once per tag instead of once per value"},
	{Name: faultLabelsConflictFirst, Clause: "labels/initial-labels.7",
		Breaks: "the UUID-conflict check runs before duplicate detection: an exact retry of a create is answered duplicate: nip-cl-rejected"},
	{Name: faultLabelsRefusedCreateKept, Clause: "labels/initial-labels.8",
		Breaks: "a 9007 refused as a UUID conflict is stored anyway, so its exact re-send is answered duplicate: nip-cl-committed"},
	{Name: faultLabelsConflictDiscloses, Clause: "labels/initial-labels.10",
		Breaks: "a different 9007 on a used UUID is rejected with the channel's name and labels in the message"},

	// labels/responses (nip-cl-labels.md Acknowledgements, retries and recovery: Responses and client outcomes).
	{Name: faultLabelsNoMarker, Clause: "labels/responses.1",
		Breaks: "rejections of covered commands carry only the NIP-01 prefix, without nip-cl-rejected"},
	{Name: faultLabelsRetryEmptyReason, Clause: "labels/responses.9",
		Breaks:  `an exact retry of a committed command is answered OK true "" instead of "duplicate: nip-cl-committed"`,
		install: labelsRetryEmptyReason},
	{Name: faultLabelsRefusedMutationKept, Clause: "labels/responses.2",
		Breaks: "a label mutation refused for its author's role or the channel's archive state is stored anyway, so once the cause is gone its exact re-send finds it and is answered duplicate: nip-cl-committed although it never applied"},
	{Name: faultLabelsLimitBeforeAuthority, Clause: "labels/responses.17",
		Breaks: "a label mutation's stored-label limit is checked before its author's authority: an outsider's mutation that would overflow a private channel is refused as invalid: with the channel's label count, other outsider mutations as restricted:, so the answer reveals the hidden label set"},

	// labels/retention (nip-cl-labels.md Retention).
	{Name: faultLabelsEvidenceDeletable, Clause: "labels/retention.1",
		Breaks: "the stored command is the only application evidence and an author's NIP-09 kind 5 deletes it: a later exact retry is applied as new"},
	{Name: faultLabelsDeletionDropsEvidence, Clause: "labels/retention.1",
		Breaks: "a NIP-09 deletion removes the command event outright, and with it the application evidence: an exact retry is applied again"},
	{Name: faultLabelsDeletionDeferred, Clause: "labels/retention.1",
		Breaks: "a NIP-09 deletion is applied 300 ms after the kind 5 is acknowledged, and then removes the deleted command outright, and with it the application evidence: an exact retry after that is applied as new"},

	// labels/retry-admission (nip-cl-labels.md Acknowledgements, retries and recovery: Retry admission).
	{Name: faultLabelsRetrySkipsAdmit, Clause: "labels/retry-admission.4",
		Breaks: "an exact retry is answered duplicate: nip-cl-committed without checking channel lifecycle or the author's current role"},
	{Name: faultLabelsRetryReapplies, Clause: "labels/retry-admission.8",
		Breaks: "an exact retry of a committed command is applied again (and republished)"},

	// labels/scope (nip-cl-labels.md Scope).
	{Name: faultLabelsDMAccepted, Clause: "labels/scope.4",
		Breaks: "dm and workflow channels accept initial labels and label mutations"},
	{Name: faultLabelsArchivedMutable, Clause: "labels/scope.7",
		Breaks: "archived channels accept label mutations"},
	{Name: faultLabelsDeletedMutable, Clause: "labels/scope.8",
		Breaks: "label mutations on a deleted channel are acknowledged (and applied to the deleted record)"},
	{Name: faultLabelsUnarchiveInMut, Clause: "labels/scope.7",
		Breaks: `a label mutation carrying ["archived","false"] on an archived channel unarchives it and applies its labels in the same command`},
	{Name: faultLabelsPrefixReserved, Clause: "labels/scope.3",
		Breaks: "label values equal to or starting with the namespace (nip-cl, nip-cl:…) are reserved and refused with restricted:"},

	// labels/serialization (nip-cl-labels.md Application and publication guarantees: serialized mutations and publication).
	{Name: faultLabelsLostUpdate, Clause: "labels/serialization.1",
		Breaks: "a label mutation reads the current labels before taking the write lock (read-modify-write outside the serialization boundary): concurrent mutations lose updates"},
	{Name: faultLabelsLifecycleUnserial, Clause: "labels/serialization.2",
		Breaks: "a label mutation checks archive and deletion on channel state read before the write lock and writes that stale state back"},
	{Name: faultLabelsEditStaleLabels, Clause: "labels/serialization.3",
		Breaks: "an ordinary 9002 edit writes back the label set it read before the write lock: a label removed concurrently comes back"},
	{Name: faultLabelsFlagEditDrops, Clause: "labels/serialization.3",
		Breaks:  "an ordinary 9002 that sets a NIP-29 flag (private, hidden …), a topic or a purpose republishes the 39000 without its labels",
		install: labelsFlagEditDropsLabels},
	{Name: faultLabelsStaleTimestamp, Clause: "labels/serialization.5",
		Breaks: "the snapshot a label mutation publishes reuses the created_at of the snapshot it replaces"},

	// labels/snapshot (nip-cl-labels.md Metadata snapshot: kind 39000).
	{Name: faultLabelsLiveStaleLabels, Clause: "labels/snapshot.1",
		Breaks: "a 39000 delivered live carries the label set of the channel's previous live snapshot (the stored one is right): live subscribers see every change one step late"},
	{Name: faultLabelsNoNamespace, Clause: "labels/snapshot.2",
		Breaks:  `a labeled 39000 has no ["L","nip-cl"] tag`,
		install: labelsNoNamespace},
	{Name: faultLabelsUnsorted, Clause: "labels/snapshot.4",
		Breaks:  "39000 l tags come in insertion order instead of sorted by ASCII value",
		install: labelsUnsorted},
	{Name: faultLabelsAsTTags, Clause: "labels/snapshot.8",
		Breaks:  "39000 also carries every label as an extra t tag (the competing draft's format)",
		install: labelsAsTTags},

	// labels/values-and-limits (nip-cl-labels.md Label values and limits).
	{Name: faultLabelsCreateCopiesCapped, Clause: "labels/values-and-limits.6",
		Breaks: "a 9007 that repeats one label value more than 32 times is refused (each value's copies are counted against the 32-label limit), although 64 raw label tags are allowed"},
	{Name: faultLabelsNewlineBeforeEnd, Clause: "labels/values-and-limits.1",
		Breaks: `the label validator's end anchor matches before a final newline: "a0\n" is accepted and stored with its newline`},
	{Name: faultLabelsValuesRewritten, Clause: "labels/values-and-limits.3",
		Breaks: "noncanonical label values are trimmed and lowercased instead of rejected"},
	{Name: faultLabelsLimitBeforeApply, Clause: "labels/values-and-limits.5",
		Breaks: "the stored-label limit is checked against the channel's current labels before the mutation applies, not against the result: 40 distinct values added to an empty channel are stored"},
	{Name: faultLabelsStoredLimitOff, Clause: "labels/values-and-limits.5",
		Breaks: "a channel may store more than 32 labels"},
	{Name: faultLabelsRawLimitDedup, Clause: "labels/values-and-limits.6",
		Breaks: "the 64 raw label tag limit is counted after deduplication"},
	{Name: faultLabelsRepeatsStored, Clause: "labels/values-and-limits.7",
		Breaks: "the stored-label limit counts a mutation's raw add-label tags, repeats included: 64 copies of one value are refused as 64 labels"},
	{Name: faultLabelsDistinctCapped, Clause: "labels/values-and-limits.7",
		Breaks: "a mutation may name at most 32 distinct values (adds and removes together): 64 remove-label tags of 64 distinct absent values are refused, although 64 tags are allowed"},
	{Name: faultLabelsShortTagsSkipped, Clause: "labels/values-and-limits.8",
		Breaks: "a 9002's add-label and remove-label tags with fewer than two elements are skipped instead of rejected"},
	{Name: faultLabelsRemoveUnchecked, Clause: "labels/values-and-limits.1",
		Breaks: "remove-label values are not validated: a noncanonical value is taken as an absent one and the mutation is a no-op answered OK true"},

	// nip01/filters (NIP-01 Communication between clients and relays: filters and limit).
	{Name: faultReadsLaterValuesIndexed, Clause: "nip01/filters.1",
		Breaks: "every value of a tag is indexed, not only the first: #l [\"nip-cl\"] finds snapshots by the namespace element of their l tags"},
}

// The labels faults' variants: what the relay does instead while one of
// them is on (limitReadRefused also serves identity-limit-read-refused).

// deferredDeletion is how long the labels-deletion-deferred-drops-evidence
// fault waits before it applies a NIP-09 deletion.
const deferredDeletion = 300 * time.Millisecond

// limitReadRefused is the labels-limit-read-refused and
// identity-limit-read-refused faults: a REQ with a limit that matches more
// stored events without the read rules than with them is refused.
func (r *Relay) limitReadRefused(rd *reader, filters []nostr.Filter) bool {
	if !r.fault(faultLabelsLimitReadRefused) && !r.fault(faultIDLimitReadRefused) {
		return false
	}
	raw := *rd
	raw.faulty.raw = true
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
	own, rest := splitLabelTags(ev.Tags)
	r.faulty.stale.mu.Lock()
	if r.faulty.stale.last == nil {
		r.faulty.stale.last = map[string]nostr.Tags{}
	}
	prev, seen := r.faulty.stale.last[key]
	r.faulty.stale.last[key] = own
	r.faulty.stale.mu.Unlock()
	if !seen {
		return ev
	}
	cp := *ev
	cp.Tags = append(slices.Clone(rest), prev...)
	if err := r.signer.sign(&cp, r.stateKey()); err != nil {
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

// staleWindow is how long the read-outside-the-lock faults
// (labels-lost-update, labels-lifecycle-unserialized,
// labels-authority-unserialized, labels-edit-stale-labels) wait between
// their read and the write lock: a real race window, so concurrent
// commands interleave on every run.
const staleWindow = 40 * time.Millisecond

// staleReads is the channel state the read-outside-the-lock faults read
// before the write lock, by event id.
type staleReads struct {
	mu sync.Mutex
	m  map[string]*Channel
}

// keep remembers ch as read for the event id. The first send's read wins:
// an exact resend of the same event does not refresh it.
func (s *staleReads) keep(id string, ch *Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*Channel{}
	}
	if _, ok := s.m[id]; !ok {
		s.m[id] = ch
	}
}

// take returns and forgets the state read for the event id.
func (s *staleReads) take(id string) *Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.m[id]
	delete(s.m, id)
	return st
}

// prepare: only the read-outside-the-lock faults do anything here.
func (p *labelsProfile) prepare(r *Relay, community string, ev *nostr.Event) {
	mutationStale := isLabelMutation(ev) && (p.faults.on(faultLabelsLostUpdate) || p.faults.on(faultLabelsLifecycleUnserial) || p.faults.on(faultLabelsAuthorityUnserial))
	editStale := ev.Kind == kindEditMetadata && !isLabelMutation(ev) && p.faults.on(faultLabelsEditStaleLabels)
	if !mutationStale && !editStale {
		return
	}
	h := ev.Tags.Find("h")
	if h == nil {
		return
	}
	ch, err := loadChannel(r.sqlDB(), community, h[1])
	if err != nil || ch == nil {
		return
	}
	p.stale.keep(ev.ID, ch)
	time.Sleep(staleWindow)
}

func (p *labelsProfile) takeStale(id string) *Channel { return p.stale.take(id) }

// storeRefused is the labels-refused-mutation-stored fault: a label
// mutation refused for its author's role or the channel's archive state is
// stored anyway (committed beside the refusal), so the relay's duplicate
// detection finds it later. Without the fault it returns err unchanged.
func (p *labelsProfile) storeRefused(t *txn, ev *nostr.Event, channel string, err error) error {
	if !p.faults.on(faultLabelsRefusedMutationKept) {
		return err
	}
	if ierr := t.insert(ev, channel); ierr != nil {
		return ierr
	}
	if cerr := commitPartial(t); cerr != nil {
		return cerr
	}
	return err
}

// nipCLMarked reports whether an l or L tag carries the nip-cl namespace
// (the labels-foreign-namespace-ignored fault counts only those).
func nipCLMarked(tag nostr.Tag) bool {
	switch tag[0] {
	case "L":
		return len(tag) >= 2 && tag[1] == labelNamespace
	case "l":
		return len(tag) >= 3 && tag[2] == labelNamespace
	}
	return true
}

// removalFeed keeps, per 39000 the relay delivers live, a copy carrying the
// label tags of the channel's snapshot before it
// (labels-live-removal-feed).
type removalFeed struct {
	mu     sync.Mutex
	labels map[string]nostr.Tags   // community + d -> the last snapshot's label tags
	prior  map[string]*nostr.Event // 39000 id -> a copy with its predecessor's labels
}

// noteSnapshot records ev's predecessor's labels before ev replaces them.
func (f *removalFeed) noteSnapshot(community string, ev *nostr.Event) {
	key := community + "\x00" + ev.Tags.GetD()
	own, rest := splitLabelTags(ev.Tags)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.labels == nil {
		f.labels, f.prior = map[string]nostr.Tags{}, map[string]*nostr.Event{}
	}
	if prev, ok := f.labels[key]; ok {
		cp := *ev
		cp.Tags = append(slices.Clone(rest), prev...)
		f.prior[ev.ID] = &cp
	}
	f.labels[key] = own
}

// predecessor is ev with its predecessor's labels, or nil.
func (f *removalFeed) predecessor(ev *nostr.Event) *nostr.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prior[ev.ID]
}

// splitLabelTags splits a snapshot's tags into its label tags (L, l) and
// the rest.
func splitLabelTags(tags nostr.Tags) (labels, rest nostr.Tags) {
	for _, tag := range tags {
		if len(tag) > 0 && (tag[0] == "L" || tag[0] == "l") {
			labels = append(labels, tag)
		} else {
			rest = append(rest, tag)
		}
	}
	return labels, rest
}
