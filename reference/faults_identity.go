package reference

// Fault switch names of the identity profile (Profile "identity"): they
// break sentences of the NIP-CL identity draft and apply only under that
// profile. Each is consulted (r.fault, faults.on) at the behaviour it
// breaks; TestEveryFaultIsConsulted lists the places.
const (
	// identity/advertising (nip-cl-identity.md Advertising support).
	faultIDNIPCLInNIPs    FaultName = "identity-nip-cl-in-supported-nips"
	faultIDNIP11HostNoExt FaultName = "identity-nip11-host-no-extension"

	// identity/asking-for-system (nip-cl-identity.md System channels: Asking for system channels).
	faultIDCountTOptInIgnored FaultName = "identity-count-ignores-t-system-opt-in"
	faultIDPOptInIgnored      FaultName = "identity-p-opt-in-ignored"
	faultIDOptInLimitDropped  FaultName = "identity-opt-in-dropped-with-limit"
	faultIDLabelOptsIn        FaultName = "identity-label-opts-in-system"
	faultIDPOptInSkipsACL     FaultName = "identity-p-opt-in-skips-acl"

	// identity/choosing-one-channel (nip-cl-identity.md Choosing one channel).
	faultIDLabelUniquePerCreator FaultName = "identity-label-unique-per-creator"

	// identity/creation-time (nip-cl-identity.md Channel identity tags: Creation time).
	faultIDCreatedAtBackdated   FaultName = "identity-created-at-backdated"
	faultIDCreatedAtFollowsEdit FaultName = "identity-created-at-follows-edit"

	// identity/creator (nip-cl-identity.md Channel identity tags: Creator).
	faultIDClientCreator       FaultName = "identity-client-creator-honoured"
	faultIDCreatorFollowsOwner FaultName = "identity-creator-follows-owner"

	// identity/finding-channels (nip-cl-identity.md Finding channels).
	faultIDFirstTValueOnly FaultName = "identity-t-filter-first-value-only"

	// identity/identity-tags (nip-cl-identity.md Channel identity tags).
	faultIDTagsOnlyOn39000   FaultName = "identity-tags-only-on-39000"
	faultIDLabelOrderDiffers FaultName = "identity-label-order-differs-by-kind"
	faultIDCreatorBeforeType FaultName = "identity-creator-before-type"

	// identity/label-rules (nip-cl-identity.md Channel labels: Rules).
	faultIDNineLabels            FaultName = "identity-nine-labels-accepted"
	faultIDNewlineBeforeEnd      FaultName = "identity-label-newline-before-end"
	faultIDBareTStored           FaultName = "identity-bare-t-stored-as-empty-label"
	faultIDCharsetLax            FaultName = "identity-label-charset-unchecked"
	faultIDLengthUnchecked       FaultName = "identity-label-length-unchecked"
	faultIDReservedLabel         FaultName = "identity-reserved-label-accepted"
	faultIDMixedEmpty            FaultName = "identity-mixed-empty-label-accepted"
	faultIDRefusedEditUntyped    FaultName = "identity-refused-edit-publishes-untyped"
	faultIDPartialEdit           FaultName = "identity-rejected-edit-partly-applied"
	faultIDRepeatsCounted        FaultName = "identity-repeated-labels-counted"
	faultIDRepeatedEmptyRejected FaultName = "identity-repeated-empty-label-rejected"

	// identity/labels (nip-cl-identity.md Channel labels).
	faultIDTExtraElements     FaultName = "identity-t-extra-elements-labels"
	faultIDLabelsMerged       FaultName = "identity-labels-merged-on-edit"
	faultIDEditWithoutTClears FaultName = "identity-edit-without-t-clears"
	faultIDAdminCannotLabel   FaultName = "identity-admin-cannot-edit-labels"
	faultIDMemberEditsLabels  FaultName = "identity-member-edits-labels"

	// identity/match-before-limit (nip-cl-identity.md Finding channels: #t and #P are matched before limit).
	faultIDLimitBeforeTagMatch FaultName = "identity-limit-before-tag-match"

	// identity/naming (nip-cl-identity.md System channels: a filter names a channel).
	faultIDDNamesAnyKinds FaultName = "identity-d-names-with-any-kinds"
	faultIDNamingLeaks    FaultName = "identity-naming-leaks-across-filters"

	// identity/notices (nip-cl-identity.md System channels: Membership notices carry the channel type).
	faultIDNoticeWithoutType  FaultName = "identity-notice-without-type"
	faultIDNoticesNotStored   FaultName = "identity-notices-not-stored"
	faultIDUntypedGetsSystem  FaultName = "identity-untyped-filter-gets-system-notices"
	faultIDLiveNoticesUntyped FaultName = "identity-live-notices-ignore-type"
	faultIDNoticesToOthers    FaultName = "identity-notices-to-others"

	// identity/reads-leave-out (nip-cl-identity.md System channels: Reads that leave system channels out).
	faultReadsIDsNameSystem    FaultName = "identity-ids-name-system-channels"
	faultIDLimitReadRefused    FaultName = "identity-limit-read-refused"
	faultIDSystemInHistory     FaultName = "identity-system-in-generic-reads"
	faultIDMemberListLeaks     FaultName = "identity-member-list-leaks-system"
	faultIDCountUntaggedSystem FaultName = "identity-count-untagged-counts-system"
	faultIDSystemInCount       FaultName = "identity-count-counts-system"
	faultIDSystemLive          FaultName = "identity-live-leaks-system"

	// identity/system-channels (nip-cl-identity.md System channels).
	faultIDHiddenOnOpen        FaultName = "identity-system-hidden-on-open"
	faultIDSystemOpenByDefault FaultName = "identity-system-open-by-default"
	faultIDHiddenMissing       FaultName = "identity-system-hidden-missing"

	// Appended by the identity sentence walk; the rows below name their sections.
	faultIDClientCreatedAtOnCreate FaultName = "identity-client-created-at-on-create"
	faultIDClientCreatedAtOnEdit   FaultName = "identity-client-created-at-on-edit"
	faultIDNoticeRuleNeedsKinds    FaultName = "identity-notice-rule-only-on-notice-kinds"
	faultIDLiveNamingIgnored       FaultName = "identity-live-naming-ignored"
	faultIDLiveDNamesAnyKinds      FaultName = "identity-live-d-names-with-any-kinds"
	faultIDLiveOptInIgnored        FaultName = "identity-live-opt-in-ignored"
	faultIDOptInSpansRequest       FaultName = "identity-opt-in-spans-request"
	faultIDOptInMetadataOnly       FaultName = "identity-opt-in-metadata-only"
)

// identityFaults is the identity fault table, grouped by the section each row
// breaks. Clause names the clause whose sentence Breaks
// contradicts; the kill test counts the fault as killed only when a case
// citing that clause fails.
var identityFaults = []faultSpec{
	// identity/advertising (nip-cl-identity.md Advertising support).
	{Name: faultIDNIPCLInNIPs, Clause: "identity/advertising.1",
		Breaks:  `"nip-cl" is listed in NIP-11 supported_nips`,
		install: idNIPCLInNIPs},
	{Name: faultIDNIP11HostNoExt, Clause: "identity/advertising.2",
		Breaks:  `only the community first asked for its NIP-11 document lists "nip-cl" in supported_extensions: another community's (--host) document omits it`,
		install: nip11HostNoExtension},

	// identity/asking-for-system (nip-cl-identity.md System channels: Asking for system channels).
	{Name: faultIDCountTOptInIgnored, Clause: "identity/asking-for-system.1",
		Breaks: `COUNT ignores #t:["system"] as an opt-in (only #P opts a COUNT in), so it undercounts the readable system channels`},
	{Name: faultIDPOptInIgnored, Clause: "identity/asking-for-system.2",
		Breaks: "#P does not ask for system channels; only #t:[\"system\"] does"},
	{Name: faultIDOptInLimitDropped, Clause: "identity/asking-for-system.4",
		Breaks: "a stored read that opts in to system channels (#t system or #P) and has a limit is answered as if it had not opted in: the limit picks from legacy channels only"},
	{Name: faultIDLabelOptsIn, Clause: "identity/asking-for-system.5",
		Breaks: "any #t (a label too) on a 39000-39003 filter returns system channels"},
	{Name: faultIDPOptInSkipsACL, Clause: "identity/asking-for-system.7",
		Breaks:  "a 39000 read with #P and #t skips the read ACL: a non-member opting in by creator and label gets private channels' state",
		install: idPOptInSkipsACL},

	// identity/choosing-one-channel (nip-cl-identity.md Choosing one channel).
	{Name: faultIDLabelUniquePerCreator, Clause: "identity/choosing-one-channel.1",
		Breaks: "labels are made unique per creator: a 9007 with a label its creator already uses on a live channel is rejected"},

	// identity/creation-time (nip-cl-identity.md Channel identity tags: Creation time).
	{Name: faultIDCreatedAtBackdated, Clause: "identity/creation-time.1",
		Breaks:  "the 39000 created_at tag is written 10 minutes before the channel's creation (neither the relay clock at the create nor the 9007's created_at)",
		install: idCreatedAtBackdated},
	{Name: faultIDCreatedAtFollowsEdit, Clause: "identity/creation-time.2",
		Breaks:  "a 9002 rewrites the created_at tag with the edit's own created_at",
		install: idCreatedAtFollowsEdit},

	// identity/creator (nip-cl-identity.md Channel identity tags: Creator).
	{Name: faultIDClientCreator, Clause: "identity/creator.2",
		Breaks:  "a client P tag on 9007 or 9002 sets the creator",
		install: idClientCreatorHonoured},
	{Name: faultIDCreatorFollowsOwner, Clause: "identity/creator.3",
		Breaks:  "P names the channel's current (first) owner instead of the key that signed the 9007",
		install: idCreatorFollowsOwner},

	// identity/finding-channels (nip-cl-identity.md Finding channels).
	{Name: faultIDFirstTValueOnly, Clause: "identity/finding-channels.5",
		Breaks: "a #t filter with several values matches only its first value (no OR)"},

	// identity/identity-tags (nip-cl-identity.md Channel identity tags).
	{Name: faultIDTagsOnlyOn39000, Clause: "identity/identity-tags.1",
		Breaks:  "39001 and 39002 carry no identity tags (t type, t labels, P)",
		install: idTagsOnlyOn39000},
	{Name: faultIDLabelOrderDiffers, Clause: "identity/identity-tags.2",
		Breaks:  "39001 and 39002 list the labels sorted while 39000 keeps the stored order, so the order differs by kind",
		install: idLabelOrderDiffers},
	{Name: faultIDCreatorBeforeType, Clause: "identity/identity-tags.3",
		Breaks:  `the ["P", creator] tag comes before the ["t", type] and label tags on 39000-39002`,
		install: idCreatorBeforeType},

	// identity/label-rules (nip-cl-identity.md Channel labels: Rules).
	{Name: faultIDNineLabels, Clause: "identity/label-rules.1",
		Breaks: "up to 9 distinct labels are accepted"},
	{Name: faultIDNewlineBeforeEnd, Clause: "identity/label-rules.2",
		Breaks: `the label check stops before a final newline: a t label "a0\n" is accepted and stored with its newline`},
	{Name: faultIDBareTStored, Clause: "identity/label-rules.2",
		Breaks: "a one-element [\"t\"] beside labels on a 9007 or 9002 is neither refused nor ignored: it is stored as an empty label"},
	{Name: faultIDCharsetLax, Clause: "identity/label-rules.2",
		Breaks: "label characters are not checked (uppercase, _, /, space, unicode accepted)"},
	{Name: faultIDLengthUnchecked, Clause: "identity/label-rules.2",
		Breaks: "labels longer than 64 characters are accepted"},
	{Name: faultIDReservedLabel, Clause: "identity/label-rules.3",
		Breaks: "channel type names (stream, forum, dm, workflow, system) are accepted as labels"},
	{Name: faultIDMixedEmpty, Clause: "identity/label-rules.4",
		Breaks: `["t",""] together with labels is accepted (the empty tag is ignored)`},
	{Name: faultIDRefusedEditUntyped, Clause: "identity/label-rules.5",
		Breaks: "a 9002 the label rules refuse is answered with the refusal, but the relay has already republished 39000-39002 with an empty channel type (labels and creator kept)"},
	{Name: faultIDPartialEdit, Clause: "identity/label-rules.5",
		Breaks: "a 9002 with invalid labels is accepted: its labels are dropped and the rest (name, about) applied"},
	{Name: faultIDRepeatsCounted, Clause: "identity/label-rules.6",
		Breaks: "repeated labels count toward the limit of 8, so 8 distinct labels plus a repeat are rejected"},
	{Name: faultIDRepeatedEmptyRejected, Clause: "identity/label-rules.7",
		Breaks: `repeated ["t",""] tags are rejected (the r1 "exactly one" rule) instead of clearing`},

	// identity/labels (nip-cl-identity.md Channel labels).
	{Name: faultIDTExtraElements, Clause: "identity/labels.2",
		Breaks: `the elements after a t tag's value are read as more labels: ["t", "a", "b"] sets the labels a and b`},
	{Name: faultIDLabelsMerged, Clause: "identity/labels.3",
		Breaks: "9002 t tags are added to the stored labels instead of replacing them"},
	{Name: faultIDEditWithoutTClears, Clause: "identity/labels.5",
		Breaks: "a 9002 without t tags clears the labels instead of keeping them"},
	{Name: faultIDAdminCannotLabel, Clause: "identity/labels.6",
		Breaks: "only owners may change labels; an admin's 9002 with t tags is rejected"},
	{Name: faultIDMemberEditsLabels, Clause: "identity/labels.7",
		Breaks: "a plain member's label-only 9002 is applied"},

	// identity/match-before-limit (nip-cl-identity.md Finding channels: #t and #P are matched before limit).
	{Name: faultIDLimitBeforeTagMatch, Clause: "identity/match-before-limit.1",
		Breaks: "#t/#P filters read the newest `limit` events of the kinds first and match the tags afterwards"},

	// identity/naming (nip-cl-identity.md System channels: a filter names a channel).
	{Name: faultIDDNamesAnyKinds, Clause: "identity/naming.3",
		Breaks: "#d names a channel even when the filter has a kind outside 39000-39003"},
	{Name: faultIDNamingLeaks, Clause: "identity/naming.5",
		Breaks: "a channel named by one filter of a REQ/COUNT is also returned to the later filters of the same request"},

	// identity/notices (nip-cl-identity.md System channels: Membership notices carry the channel type).
	{Name: faultIDNoticeWithoutType, Clause: "identity/notices.1",
		Breaks:  "44100/44101 notices carry no [\"t\", type] tag",
		install: idNoticeWithoutType},
	{Name: faultIDNoticesNotStored, Clause: "identity/notices.2",
		Breaks: "44100/44101 notices are only delivered live, never stored (since cannot recover them)"},
	{Name: faultIDUntypedGetsSystem, Clause: "identity/notices.4",
		Breaks: "a notice filter without #t also matches system-channel notices in history and COUNT"},
	{Name: faultIDLiveNoticesUntyped, Clause: "identity/notices.6",
		Breaks: "live delivery ignores the #t rule for notices: a filter without #t receives system-channel notices"},
	{Name: faultIDNoticesToOthers, Clause: "identity/notices.9",
		Breaks: "44100/44101 notices are returned, counted and delivered to anyone who asks (by ids or #p)"},

	// identity/reads-leave-out (nip-cl-identity.md System channels: Reads that leave system channels out).
	{Name: faultReadsIDsNameSystem, Clause: "identity/reads-leave-out.1",
		Breaks:  "an ids filter counts as naming a channel, so it returns system channels' events to filters without #h or #d",
		install: readsIDsNameSystem},
	{Name: faultIDLimitReadRefused, Clause: "identity/reads-leave-out.1",
		Breaks: "a REQ with a limit that would match a system channel's state the read leaves out is refused with CLOSED, so the older readable match never comes back"},
	{Name: faultIDSystemInHistory, Clause: "identity/reads-leave-out.1",
		Breaks:  "REQ history returns system channels (and their events) to filters that do not name them",
		install: idSystemInHistory},
	{Name: faultIDMemberListLeaks, Clause: "identity/reads-leave-out.3",
		Breaks:  `a 39002 filter with #p (the channels a reader belongs to) returns system channels`,
		install: idMemberListLeaks},
	{Name: faultIDCountUntaggedSystem, Clause: "identity/reads-leave-out.4",
		Breaks:  "COUNT leaves system channels out only for filters with a tag condition: a COUNT without tags (kinds with ids, authors or since) counts them",
		install: idCountUntaggedSystem},
	{Name: faultIDSystemInCount, Clause: "identity/reads-leave-out.4",
		Breaks:  "COUNT counts system channels (and their events) for filters that do not name them",
		install: idSystemInCount},
	{Name: faultIDSystemLive, Clause: "identity/reads-leave-out.6",
		Breaks:  "live subscriptions receive system-channel events for filters that do not name them",
		install: idSystemLive},

	// identity/system-channels (nip-cl-identity.md System channels).
	{Name: faultIDSystemOpenByDefault, Clause: "identity/system-channels.2",
		Breaks: "a system channel created without a visibility tag is open"},
	{Name: faultIDHiddenMissing, Clause: "identity/system-channels.3",
		Breaks:  "a private system channel's 39000 lacks the hidden tag",
		install: idHiddenMissing},
	{Name: faultIDHiddenOnOpen, Clause: "identity/system-channels.3",
		Breaks:  "the 39000 of an open system channel carries hidden too: a private system channel made open keeps the tag",
		install: idHiddenOnOpen},

	// Appended (identity sentence walk). identity/creation-time.
	{Name: faultIDClientCreatedAtOnCreate, Clause: "identity/creation-time.1",
		Breaks:  `a client ["created_at", <seconds>] tag on the 9007 sets the 39000's created_at tag, which is then not the channel's creation time`,
		install: idClientCreatedAtOnCreate},
	{Name: faultIDClientCreatedAtOnEdit, Clause: "identity/creation-time.2",
		Breaks:  `a client ["created_at", <seconds>] tag on a 9002 rewrites the 39000's created_at tag`,
		install: idClientCreatedAtOnEdit},
	// identity/notices.
	{Name: faultIDNoticeRuleNeedsKinds, Clause: "identity/notices.4",
		Breaks: "the without-#t notice rule is applied only to filters whose kinds are all 44100/44101: a filter without kinds, or with another kind too, returns, counts and delivers system-channel notices"},
	// identity/naming.
	{Name: faultIDLiveNamingIgnored, Clause: "identity/naming.1",
		Breaks: "live delivery ignores naming: a subscription naming a system channel by #h (or by #d on 39000-39003 kinds) receives none of its new events"},
	{Name: faultIDLiveDNamesAnyKinds, Clause: "identity/naming.3",
		Breaks: "live delivery takes #d as naming whatever the filter's kinds: a subscription with kinds [39000, 9] and #d receives a system channel's new state"},
	// identity/asking-for-system.
	{Name: faultIDLiveOptInIgnored, Clause: "identity/asking-for-system.1",
		Breaks: `live delivery ignores the opt-in: a 39000 subscription with #t:["system"] (or #P) receives no new state of the system channels its reader may read`},
	// identity/reads-leave-out.
	{Name: faultIDOptInSpansRequest, Clause: "identity/reads-leave-out.2",
		Breaks: "an opt-in (#t system or #P on a 39000-39003 filter) in one filter of a REQ or COUNT opts the later filters of the request in too: a kind 9 filter after it returns and counts system-channel messages"},
	// NIP-50 search (search.go): identity/reads-leave-out and identity/naming.
	{Name: faultIDSearchLeaksSystem, Clause: "identity/reads-leave-out.5",
		Breaks:  "a NIP-50 search filter returns system channels' events whether or not it names them",
		install: idSearchLeaksSystem},
	{Name: faultIDSearchDropsNamedH, Clause: "identity/naming.1",
		Breaks: "a NIP-50 search filter that names a system channel by #h does not count as naming it, so its member's search returns nothing of it"},
	// identity/asking-for-system: the opt-in on the other state kinds.
	{Name: faultIDOptInMetadataOnly, Clause: "identity/asking-for-system.2",
		Breaks: "the opt-in (#t system or #P) is honoured only on filters that include kind 39000: a 39001 or 39002 filter with #P returns no system channel's state"},
}

// Fault switches of NIP-50 search under the identity profile (their rows
// close identityFaults).
const (
	faultIDSearchLeaksSystem FaultName = "identity-search-leaks-system"
	faultIDSearchDropsNamedH FaultName = "identity-search-drops-named-h"
)

// createdAtBackdate is how far the identity-created-at-backdated fault
// moves the created_at tag before the channel's creation: inside the
// 15-minute window older cases allowed, far outside any clock skew.
const createdAtBackdate = 600
