package reference

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// Fault switch names of the baseline faults (Profile ""): they break
// NIP-01, NIP-42, NIP-45 and NIP-29 sentences and apply under every
// profile. Each is consulted (r.fault, faults.on) at the behaviour it
// breaks; TestEveryFaultIsConsulted lists the places.
const (
	// nip01/event-validation (NIP-01 Events and signatures: id and sig).
	faultNoSignatureCheck FaultName = "no-signature-check"

	// nip01/filters (NIP-01 Communication between clients and relays: filters and limit).
	faultLimitBeforeFilter  FaultName = "limit-before-filter"
	faultFirstValueOnly     FaultName = "filter-first-value-only"
	faultLastFilterOnly     FaultName = "filter-last-filter-only"
	faultStoredOldestFirst  FaultName = "stored-oldest-first"
	faultExclusiveSinceUtil FaultName = "filter-exclusive-since-until"
	faultEmptyArrayMatchAll FaultName = "filter-empty-array-matches-all"

	// nip01/limit (NIP-01 Filters: limit on the initial answer, one limit per filter).
	faultLimitCapsLive     FaultName = "limit-caps-live"
	faultLimitAcrossFilter FaultName = "limit-across-filters"

	// nip01/ok-prefix (NIP-01 From relay to client: OK and CLOSED machine-readable prefixes).
	faultOKWithoutPrefix   FaultName = "ok-without-prefix"
	faultRefusedButStored  FaultName = "ok-refused-but-stored"
	faultAppliedButRefused FaultName = "ok-applied-but-refused"

	// nip01/replaceable (NIP-01 Kinds: replaceable and addressable events, equal created_at).
	faultReplaceableTieLastWins FaultName = "replaceable-tie-last-wins"

	// nip01/replaceable-kinds (NIP-01 Kinds: replaceable events (0, 3, 10000-19999), the latest version).
	faultReplaceableFirstWins  FaultName = "replaceable-first-wins"
	faultReplaceableKeepsOlder FaultName = "replaceable-keeps-older"

	// nip01/subscriptions (NIP-01 Subscriptions: REQ under an open id, CLOSE, ids per connection, EOSE).
	faultSubReplaceKeepsOld FaultName = "sub-replace-keeps-old"
	faultCloseIgnored       FaultName = "close-ignored"
	faultSubIDsShared       FaultName = "sub-ids-shared"
	faultEOSEBeforeStored   FaultName = "eose-before-stored"
	faultLiveForeignSubID   FaultName = "live-foreign-subid"

	// nip29/admins (NIP-29 Group metadata events: group admins (39001)).
	faultAdminsWithoutRoles FaultName = "admins-without-roles"

	// nip29/create (NIP-29 Group state -- or moderation: create-group (9007)).
	faultCreateTakesOver FaultName = "create-takes-over-existing"

	// nip29/delete-event (NIP-29 Moderation events: delete-event (9005)).
	faultDeleteEventIgnored FaultName = "delete-event-ignored"

	// nip29/deleted-group (NIP-29 A group after its accepted delete-group (9008)).
	faultDeleteKeepsMemberLists FaultName = "delete-keeps-member-lists"

	// nip29/group-ids (NIP-29 Group ids: a random string of any length).
	faultGroupIDUUIDOnly FaultName = "group-id-uuid-only"

	// nip29/hidden (NIP-29 Group metadata: the hidden flag).
	faultHiddenMetadataServed FaultName = "hidden-metadata-served"

	// nip29/invites (NIP-29 create-invite (9009) and invite codes on join requests to closed groups).
	faultInviteCodeIgnored FaultName = "invite-code-ignored"
	faultJoinAnyCodeAdmits FaultName = "join-any-code-admits"
	faultMemberCanInvite   FaultName = "member-can-invite"

	// nip29/join (NIP-29 User-related group management: join request (9021)).
	faultJoinDeletedAccepted     FaultName = "join-deleted-group-accepted"
	faultJoinMemberNotDuplicate  FaultName = "join-member-not-duplicate"
	faultJoinAcceptedNotAdmitted FaultName = "join-accepted-not-admitted"

	// nip29/leave (NIP-29 User-related group management: leave request (9022)).
	faultLeaveIgnored        FaultName = "leave-ignored"
	faultSameSecondLeaveLost FaultName = "same-second-leave-lost"

	// nip29/livekit (NIP-29 Live audio/video (AV) spaces: the well-known endpoints).
	faultLiveKitStatus200       FaultName = "livekit-status-200"
	faultLiveKitSubUppercase    FaultName = "livekit-sub-uppercase"
	faultLiveKitAccessUnchecked FaultName = "livekit-access-unchecked"
	faultLiveKitSubNoSuffix     FaultName = "livekit-sub-no-suffix"

	// nip29/state-events (the 39004 a token holder joins).
	faultLiveKitParticipantsUppercase FaultName = "livekit-participants-uppercase"

	// nip29/membership (NIP-29 Group management: put-user / remove-user, 39001 and 39002).
	faultSameSecondRemovalLost FaultName = "same-second-removal-lost"

	// nip29/metadata (NIP-29 edit-metadata (9002) and group metadata (39000) fields and flags).
	faultMetadataFieldDropped FaultName = "metadata-field-dropped"
	faultClosedFlagInverted   FaultName = "closed-flag-inverted"
	faultSameSecondEditLost   FaultName = "same-second-edit-lost"

	// nip29/moderation (NIP-29 Group state -- or moderation: the moderation-event table (9000-9010)).
	faultOutsiderRemoveUser       FaultName = "outsider-remove-user"
	faultOutsiderDeleteEvent      FaultName = "outsider-delete-event"
	faultModerationEventsUnserved FaultName = "moderation-events-unserved"

	// nip29/permissions (NIP-29 Group state -- or moderation: who may moderate).
	faultMemberCanEdit FaultName = "member-can-edit"

	// nip29/pins (NIP-29 update-pin-list (9010) and group pinned events (39005)).
	faultPinsOrderLost       FaultName = "pins-order-lost"
	faultPinsNotRegenerated  FaultName = "pins-not-regenerated"
	faultPinsMemberCanUpdate FaultName = "pins-member-can-update"

	// nip29/read-access (NIP-29 Group metadata: the private flag).
	faultDeletedGroupPublic       FaultName = "deleted-group-messages-public"
	faultPrivateMessagesReadable  FaultName = "private-messages-readable"
	faultReadsIDsSkipAccess       FaultName = "reads-ids-skip-access"
	faultReadsRemovedMemberReads  FaultName = "reads-removed-member-reads"
	faultReadsLaterFiltersNoCheck FaultName = "reads-later-filters-skip-access"
	faultLimitBeforeAccess        FaultName = "limit-before-access"

	// nip29/restricted (NIP-29 Group metadata: the restricted flag).
	faultRestrictedWritesAccepted FaultName = "restricted-writes-accepted"
	faultClosedRestrictsWrites    FaultName = "closed-restricts-writes"

	// nip29/state-events (NIP-29 Group metadata events: relay-signed 39000-39003).
	faultStateSignedByOtherKey    FaultName = "state-signed-by-other-key"
	faultRolesNotRelaySigned      FaultName = "roles-not-relay-signed"
	faultStaleReplacementTimestmp FaultName = "stale-replacement-timestamp"
	faultIdenticalStateDuplicated FaultName = "identical-state-duplicated"
	faultBannerDropped            FaultName = "banner-dropped"
	faultUserStateAccepted        FaultName = "user-state-accepted"

	// nip29/subgroups (NIP-29 Subgroups: parent and child tags, rules, membership).
	faultSubgroupsNotAdvertised       FaultName = "subgroups-not-advertised"
	faultSubgroupParentNotShown       FaultName = "subgroup-parent-not-shown"
	faultSubgroupChildNotListed       FaultName = "subgroup-child-not-listed"
	faultSubgroupReorderIgnored       FaultName = "subgroup-reorder-ignored"
	faultSubgroupCycleAccepted        FaultName = "subgroup-cycle-accepted"
	faultSubgroupUnknownParent        FaultName = "subgroup-unknown-parent-accepted"
	faultSubgroupDeletedParent        FaultName = "subgroup-deleted-parent-accepted"
	faultSubgroupParentAdminUnchecked FaultName = "subgroup-parent-admin-unchecked"
	faultSubgroupChildrenOmitted      FaultName = "subgroup-children-omitted-accepted"
	faultSubgroupDetachIgnored        FaultName = "subgroup-detach-ignored"
	faultSubgroupOrphansKept          FaultName = "subgroup-orphans-kept"
	faultSubgroupAdminInherited       FaultName = "subgroup-admin-inherited"
	faultSubgroupMoveDropsHistory     FaultName = "subgroup-move-drops-history"

	// nip29/state-follow (NIP-29 Group metadata events: every state event follows every command that changes it).
	faultStateStaleOnRemoval    FaultName = "state-stale-on-removal"
	faultStateStaleOnRoleChange FaultName = "state-stale-on-role-change"

	// nip29/timeline (NIP-29 Timeline references (previous)).
	faultPreviousUnchecked FaultName = "previous-unchecked"
	faultPreviousRefused   FaultName = "previous-refused"

	// nip42/auth (NIP-42 Authentication of clients to relays).
	faultAuthEventBroadcast FaultName = "auth-event-broadcast"

	// nip42/verify (NIP-42 Signed event verification: kind, created_at, challenge).
	faultAuthIgnoresChallenge FaultName = "auth-ignores-challenge"
	faultAuthIgnoresCreatedAt FaultName = "auth-ignores-created-at"
	faultAuthAnyKind          FaultName = "auth-any-kind"
	faultAuthLastKeyOnly      FaultName = "auth-last-key-only"
	faultAuthIgnoresRelay     FaultName = "auth-ignores-relay"

	// nip45/count (NIP-45 Event counts).
	faultCountIgnoresAccess FaultName = "count-ignores-access"
	faultCountIgnoresTags   FaultName = "count-ignores-tags"
	faultCountAnswersLimit  FaultName = "count-answers-limit"

	// nip45/hll (NIP-45 HyperLogLog registers).
	faultHLLShort     FaultName = "hll-short"
	faultHLLNoPlusOne FaultName = "hll-no-plus-one"

	// nip45/filters (NIP-45 Event counts: several filters OR'd into one count).
	faultCountSumsFilters FaultName = "count-sums-filters"
)

// nip29Faults is the every profile fault table, grouped by the section each row
// breaks. Clause names the clause whose sentence Breaks
// contradicts; the kill test counts the fault as killed only when a case
// citing that clause fails.
var nip29Faults = []faultSpec{
	// nip01/event-validation (NIP-01 Events and signatures: id and sig).
	{Name: faultNoSignatureCheck, Clause: "nip01/event-validation.1",
		Breaks: "EVENTs with a bad signature are accepted (the id is still checked)"},

	// nip01/filters (NIP-01 Communication between clients and relays: filters and limit).
	{Name: faultLimitBeforeFilter, Clause: "nip01/filters.2",
		Breaks: "tag filters (#x) are applied in Go after the SQL LIMIT, so matching events hide behind newer non-matching ones"},
	{Name: faultFirstValueOnly, Clause: "nip01/filters.5",
		Breaks:  "a tag filter matches only its first value: {\"#h\":[A,B]} never returns B's events (REQ, COUNT and live)",
		install: filterFirstValueOnly},
	{Name: faultLastFilterOnly, Clause: "nip01/filters.3",
		Breaks: "of several filters in one REQ or COUNT only the last is answered"},
	{Name: faultStoredOldestFirst, Clause: "nip01/filters.4",
		Breaks: "the stored events of a REQ come oldest first, with a limit too (the limit still picks the newest n)",
		install: func(r *Relay) {
			r.hooks.orderStored = append(r.hooks.orderStored, func(_ []nostr.Filter, evs []*nostr.Event) {
				slices.Reverse(evs)
			})
		}},
	{Name: faultExclusiveSinceUtil, Clause: "nip01/filters.6",
		Breaks:  "since and until are exclusive: an event whose created_at equals since or until does not match",
		install: filterExclusiveSinceUntil},
	{Name: faultEmptyArrayMatchAll, Clause: "nip01/filters.1",
		Breaks:  "an empty list (\"ids\":[], \"authors\":[], \"kinds\":[], \"#x\":[]) is read as no condition, so the filter matches every event of its other conditions",
		install: filterEmptyArrayMatchesAll},

	// nip01/limit (NIP-01 Filters: limit on the initial answer, one limit per filter).
	{Name: faultLimitCapsLive, Clause: "nip01/limit.1",
		Breaks:  "a subscription filter with a limit gets no live event: the limit is applied to the live stream as if the initial answer had used it up",
		install: limitCapsLive},
	{Name: faultLimitAcrossFilter, Clause: "nip01/limit.2",
		Breaks: "the first filter's limit cuts the merged answer of every filter of the REQ, so a filter's own matches are dropped by another's limit"},

	// nip01/ok-prefix (NIP-01 From relay to client: OK and CLOSED machine-readable prefixes).
	{Name: faultOKWithoutPrefix, Clause: "nip01/ok-prefix.1",
		Breaks:  "OK false messages lose their machine-readable prefix (\"bad signature\" instead of \"invalid: bad signature\")",
		install: okWithoutPrefix},
	{Name: faultRefusedButStored, Clause: "nip01/ok-prefix.3",
		Breaks: "a group command (9000-9020) refused with restricted: or blocked: is stored anyway (none of its effects): OK false, yet served by ids and by its kind and #h"},
	{Name: faultAppliedButRefused, Clause: "nip01/ok-prefix.3",
		Breaks: "a 9000 (put-user) is applied and stored, but answered OK false \"error: …\" (the member is added, the command served by ids)"},

	// nip01/replaceable (NIP-01 Kinds: replaceable and addressable events, equal created_at).
	{Name: faultReplaceableTieLastWins, Clause: "nip01/replaceable.1",
		Breaks: "of two versions of an addressable event with the same created_at, the one stored last is kept, not the one with the lowest id"},

	// nip01/replaceable-kinds (NIP-01 Kinds: replaceable events (0, 3, 10000-19999), the latest version).
	{Name: faultReplaceableFirstWins, Clause: "nip01/replaceable-kinds.1",
		Breaks: "a newer version of a replaceable event is answered OK true but not stored: the first version stays the latest"},
	{Name: faultReplaceableKeepsOlder, Clause: "nip01/replaceable-kinds.2",
		Breaks: "the older version of a replaceable event stays stored beside the newer, and a REQ by kind and author returns both"},

	// nip01/subscriptions (NIP-01 Subscriptions: REQ under an open id, CLOSE, ids per connection, EOSE).
	{Name: faultSubReplaceKeepsOld, Clause: "nip01/subscriptions.1",
		Breaks:  "a REQ under the id of an open subscription adds its filters to the old ones: events matching only the old filters still come under that id",
		install: subReplaceKeepsOld},
	{Name: faultCloseIgnored, Clause: "nip01/subscriptions.2",
		Breaks:  "CLOSE is ignored: the subscription keeps receiving new matching events",
		install: closeIgnored},
	{Name: faultSubIDsShared, Clause: "nip01/subscriptions.3",
		Breaks: "subscription ids are global: a REQ under an id ends the subscription of that id on every other connection"},
	{Name: faultEOSEBeforeStored, Clause: "nip01/subscriptions.4",
		Breaks: "EOSE is sent before the stored events, which then arrive as if newly received"},
	{Name: faultLiveForeignSubID, Clause: "nip01/subscriptions.5",
		Breaks: "a live event goes out under the id of the subscription last opened on the relay by another connection, not under the id of the receiving connection's own matching subscription"},

	// nip29/admins (NIP-29 Group metadata events: group admins (39001)).
	{Name: faultAdminsWithoutRoles, Clause: "nip29/admins.1",
		Breaks:  `39001 lists each admin as ["p", <pubkey>] with no role (NIP-29: "Each admin is listed along with one or more roles"; a fault, not a policy)`,
		install: adminsWithoutRoles},

	// nip29/create (NIP-29 Group state -- or moderation: create-group (9007)).
	{Name: faultCreateTakesOver, Clause: "nip29/create.3",
		Breaks: "a 9007 naming an existing group is accepted from anyone and starts the group over: its sender becomes an owner, the name, about, picture and every flag (private, closed, hidden, restricted) are replaced by the 9007's"},

	// nip29/delete-event (NIP-29 Moderation events: delete-event (9005)).
	{Name: faultDeleteEventIgnored, Clause: "nip29/delete-event.1",
		Breaks: "an authorized 9005 delete-event is accepted (OK true) but the event it names is still served"},

	// nip29/deleted-group (NIP-29 A group after its accepted delete-group (9008)).
	{Name: faultDeleteKeepsMemberLists, Clause: "nip29/deleted-group.1",
		Breaks:  "an accepted 9008 withdraws the group's 39000 but leaves its 39001 and 39002 served, listing the admins and members of a group that is gone",
		install: deleteKeepsMemberLists},

	// nip29/group-ids (NIP-29 Group ids: a random string of any length).
	{Name: faultGroupIDUUIDOnly, Clause: "nip29/group-ids.1",
		Breaks: `every group event needs a canonical lowercase UUID as its h value ("invalid: h tag ... is not a canonical lowercase UUID"), as the labels draft asks only for its own commands`},

	// nip29/hidden (NIP-29 Group metadata: the hidden flag).
	{Name: faultHiddenMetadataServed, Clause: "nip29/hidden.1",
		Breaks: "a hidden group's 39000 is served, counted and delivered to non-members (39001-39003 stay withheld)"},

	// nip29/invites (NIP-29 create-invite (9009) and invite codes on join requests to closed groups).
	{Name: faultInviteCodeIgnored, Clause: "nip29/invites.1",
		Breaks: "a 9009 create-invite is accepted, but a join request carrying its code to the closed group is refused like one without a code"},
	{Name: faultJoinAnyCodeAdmits, Clause: "nip29/invites.2",
		Breaks:  "a join request to a closed group carrying any code, even one no 9009 created, admits the user",
		install: permit(actJoinAnyCode)},
	{Name: faultMemberCanInvite, Clause: "nip29/invites.3",
		Breaks:  "a plain member's 9009 create-invite is accepted and its code admits to the closed group",
		install: permit(actCreateInvite, roleMember)},

	// nip29/join (NIP-29 User-related group management: join request (9021)).
	{Name: faultJoinDeletedAccepted, Clause: "nip29/join.1",
		Breaks: "a join request to a deleted group is answered OK true and nobody is added"},
	{Name: faultJoinMemberNotDuplicate, Clause: "nip29/join.2",
		Breaks:  `a current member's 9021 join request is refused with "blocked: already a member" instead of the duplicate: prefix`,
		install: joinMemberNotDuplicate},
	{Name: faultJoinAcceptedNotAdmitted, Clause: "nip29/join.3",
		Breaks: "a 9021 join request to a closed group is accepted (OK true) but the user is not added"},

	// nip29/leave (NIP-29 User-related group management: leave request (9022)).
	{Name: faultLeaveIgnored, Clause: "nip29/leave.1",
		Breaks: "a member's 9022 leave request is accepted but the member stays (and no 9001 is issued)"},
	{Name: faultSameSecondLeaveLost, Clause: "nip29/leave.3",
		Breaks: "a 9022 in the same second as the 9000 that added the member, whose id sorts before the 9000's, is accepted but ordered before it: the member stays"},

	// nip29/livekit (NIP-29 Live audio/video (AV) spaces: the well-known endpoints).
	{Name: faultLiveKitStatus200, Clause: "nip29/livekit.1",
		Breaks: "/.well-known/nip29/livekit answers 200 with a body instead of 204"},
	{Name: faultLiveKitSubUppercase, Clause: "nip29/livekit.2",
		Breaks:  "the issued JWT's sub starts with the caller's pubkey in uppercase hex",
		install: livekitSubUppercase},
	{Name: faultLiveKitParticipantsUppercase, Clause: "nip29/state-events.7",
		Breaks:  "the 39004 lists a participant as uppercase hex instead of lowercase",
		install: livekitParticipantsUppercase},
	{Name: faultLiveKitSubNoSuffix, Clause: "nip29/livekit.4",
		Breaks:  "the JWT's sub is the bare pubkey, the same for every token a user gets (no random identifier after the 64 hex characters)",
		install: livekitSubNoSuffix},
	{Name: faultLiveKitAccessUnchecked, Clause: "nip29/livekit.3",
		Breaks:  "the token endpoint issues tokens for a private group to callers who are not members",
		install: permit(actJoinAV)},

	// nip29/membership (NIP-29 Group management: put-user / remove-user, 39001 and 39002).
	{Name: faultSameSecondRemovalLost, Clause: "nip29/membership.6",
		Breaks: "a 9001 in the same second as the 9000 that added the user, whose id sorts before the 9000's, is accepted but ordered before it: the user stays a member"},

	// nip29/metadata (NIP-29 edit-metadata (9002) and group metadata (39000) fields and flags).
	{Name: faultMetadataFieldDropped, Clause: "nip29/metadata.1",
		Breaks: "the about and picture values of a 9002 are not carried into the 39000"},
	{Name: faultClosedFlagInverted, Clause: "nip29/metadata.2",
		Breaks: `a 9002 ["closed"] leaves the group open and a 9002 ["open"] closes it (relay29's bug; a 9007's flags too)`},
	{Name: faultSameSecondEditLost, Clause: "nip29/metadata.3",
		Breaks: "a 9002 in the same second as the group's previous 9002, whose id sorts before it, is accepted but ordered before it: the 39000 keeps the older edit"},

	// nip29/moderation (NIP-29 Group state -- or moderation: the moderation-event table (9000-9010)).
	{Name: faultOutsiderRemoveUser, Clause: "nip29/moderation.1",
		Breaks:  "a 9001 remove-user from any key, even one with no role in the group, is applied",
		install: permit(actRemoveUser)},
	{Name: faultOutsiderDeleteEvent, Clause: "nip29/moderation.1",
		Breaks:  "a 9005 delete-event from any key, even one with no role in the group, is applied",
		install: permit(actDeleteEvent)},
	{Name: faultModerationEventsUnserved, Clause: "nip29/moderation.2",
		Breaks: "accepted moderation events (9000-9020) are applied but never served again, so the group state cannot be reconstructed from them"},

	// nip29/permissions (NIP-29 Group state -- or moderation: who may moderate).
	{Name: faultMemberCanEdit, Clause: "nip29/permissions.2",
		Breaks:  "plain members (role member) may 9002-edit channel metadata",
		install: permit(actEditMetadata, roleMember)},

	// nip29/pins (NIP-29 update-pin-list (9010) and group pinned events (39005)).
	{Name: faultPinsOrderLost, Clause: "nip29/pins.1",
		Breaks:  "the 39005 lists the pinned references sorted by value, not in the 9010's order",
		install: pinsOrderLost},
	{Name: faultPinsNotRegenerated, Clause: "nip29/pins.2",
		Breaks: "only a group's first 9010 produces a 39005; later pin lists are accepted but the 39005 keeps the first list"},
	{Name: faultPinsMemberCanUpdate, Clause: "nip29/pins.3",
		Breaks:  "a plain member's 9010 update-pin-list is accepted and changes the 39005",
		install: permit(actUpdatePins, roleMember)},

	// nip29/read-access (NIP-29 Group metadata: the private flag).
	{Name: faultDeletedGroupPublic, Clause: "nip29/read-access.1",
		Breaks:  "once a group is deleted (9008), its events are served to anyone: a private group's messages reach outsiders",
		install: deletedGroupMessagesPublic},
	{Name: faultPrivateMessagesReadable, Clause: "nip29/read-access.1",
		Breaks:  "kind 9 messages of a private channel are returned, counted and delivered to non-members",
		install: privateMessagesReadable},
	{Name: faultReadsIDsSkipAccess, Clause: "nip29/read-access.1",
		Breaks:  "a filter with ids skips the read-access rule (REQ and COUNT): whoever knows an event's id reads it",
		install: readsIDsSkipAccess},
	{Name: faultReadsRemovedMemberReads, Clause: "nip29/read-access.1",
		Breaks:  "stored reads (REQ history, COUNT) admit anyone ever put into the channel by a 9000: a member removed by a 9001 keeps reading",
		install: readsRemovedMemberReads},
	{Name: faultReadsLaterFiltersNoCheck, Clause: "nip29/read-access.1",
		Breaks: "only the first filter of a REQ is access-checked; the second and later filters read private channels unchecked"},
	{Name: faultLimitBeforeAccess, Clause: "nip29/read-access.2",
		Breaks: "REQ applies LIMIT to the newest events first and drops inaccessible private-channel events afterwards, so a page comes back short"},

	// nip29/restricted (NIP-29 Group metadata: the restricted flag).
	{Name: faultRestrictedWritesAccepted, Clause: "nip29/restricted.1",
		Breaks:  "non-members may post to a restricted (not private) group",
		install: permit(actPostRestricted)},
	{Name: faultClosedRestrictsWrites, Clause: "nip29/restricted.2",
		Breaks: "a closed group that is not restricted refuses non-members' messages (closed read as restricted)"},

	// nip29/state-events (NIP-29 Group metadata events: relay-signed 39000-39003).
	{Name: faultStateSignedByOtherKey, Clause: "nip29/state-events.1",
		Breaks:  "relay-signed 39000-39003 state events are signed by a random key that is not the NIP-11 self key",
		install: signStateWith()},
	{Name: faultRolesNotRelaySigned, Clause: "nip29/state-events.1",
		Breaks:  "the 39003 roles event is signed by a random key that is not the NIP-11 self key (39000-39002 are not)",
		install: signStateWith(kindGroupRoles)},
	{Name: faultStaleReplacementTimestmp, Clause: "nip29/state-events.2",
		Breaks: "a replacement state event reuses the created_at of the event it replaces instead of a strictly greater one"},
	{Name: faultIdenticalStateDuplicated, Clause: "nip29/state-events.3",
		Breaks: "a regeneration whose tags did not change stores a second, newer instance beside the current state event instead of leaving it"},
	{Name: faultBannerDropped, Clause: "nip29/state-events.5",
		Breaks: "the banner of a 9007 or 9002 is not carried into the 39000"},
	{Name: faultUserStateAccepted, Clause: "nip29/state-events.6",
		Breaks:  "a 39000-39003 signed by a user key is accepted and served like any addressable event",
		install: permit(actPublishState)},

	// nip29/subgroups (NIP-29 Subgroups: parent and child tags, rules, membership).
	{Name: faultSubgroupsNotAdvertised, Clause: "nip29/subgroups.1",
		Breaks:  `the NIP-11 document has no "nip29": {"subgroups": true} although the relay supports subgroups`,
		install: subgroupsNotAdvertised},
	{Name: faultSubgroupParentNotShown, Clause: "nip29/subgroups.2",
		Breaks: "a child's 39000 does not carry its parent tag"},
	{Name: faultSubgroupChildNotListed, Clause: "nip29/subgroups.3",
		Breaks: "a parent's 39000 carries no child tags"},
	{Name: faultSubgroupReorderIgnored, Clause: "nip29/subgroups.4",
		Breaks: "a parent's 9002 with the full child list in a new order is accepted, but the 39000 keeps the old order"},
	{Name: faultSubgroupCycleAccepted, Clause: "nip29/subgroups.5",
		Breaks: "a 9002 whose parent is the group itself or one of its descendants is accepted"},
	{Name: faultSubgroupUnknownParent, Clause: "nip29/subgroups.6",
		Breaks: "a 9002 naming a parent group that does not exist is accepted"},
	{Name: faultSubgroupDeletedParent, Clause: "nip29/subgroups.6",
		Breaks: "a group deleted by an accepted 9008 still counts as existing: a 9002 naming it as parent is accepted"},
	{Name: faultSubgroupParentAdminUnchecked, Clause: "nip29/subgroups.7",
		Breaks: "a 9002 naming a parent is accepted from a key that is not an admin of that parent"},
	{Name: faultSubgroupChildrenOmitted, Clause: "nip29/subgroups.8",
		Breaks: "a parent's 9002 whose child tags leave out an existing child is accepted (the child list shrinks)"},
	{Name: faultSubgroupDetachIgnored, Clause: "nip29/subgroups.9",
		Breaks: "a child's 9002 without a parent tag leaves it under its parent instead of making it a root"},
	{Name: faultSubgroupOrphansKept, Clause: "nip29/subgroups.10",
		Breaks: "when a parent is deleted, its children's 39000 keep the parent tag"},
	{Name: faultSubgroupAdminInherited, Clause: "nip29/subgroups.11",
		Breaks: "an admin of a parent group may put users into its children (roles are inherited)"},
	{Name: faultSubgroupMoveDropsHistory, Clause: "nip29/subgroups.13",
		Breaks: "when a group gains, changes or loses a parent, its stored kind 9 messages are deleted"},

	// nip29/state-follow (NIP-29 Group metadata events: every state event follows every command that changes it).
	{Name: faultStateStaleOnRemoval, Clause: "nip29/state-follow.1",
		Breaks: "a state event is not regenerated when the new one would drop a tag of the current one (a flag cleared, a member, admin or pin removed, a parent or child detached, a field changed): the old instance stays"},
	{Name: faultStateStaleOnRoleChange, Clause: "nip29/state-follow.1",
		Breaks: "a 9000 changing an existing member's role is applied, but the 39001 and 39002 are not republished: the old role stays listed"},

	// nip29/timeline (NIP-29 Timeline references (previous)).
	{Name: faultPreviousUnchecked, Clause: "nip29/timeline.1",
		Breaks: "previous tags are not checked: a reference to no stored event is accepted"},
	{Name: faultPreviousRefused, Clause: "nip29/timeline.2",
		Breaks: "every group event carrying a previous tag is refused, even when its references name stored events"},

	// nip42/auth (NIP-42 Authentication of clients to relays).
	{Name: faultAuthEventBroadcast, Clause: "nip42/auth.2",
		Breaks: "a client's kind 22242 AUTH event is delivered to open subscriptions whose filter matches it (kinds [22242])"},

	// nip42/verify (NIP-42 Signed event verification: kind, created_at, challenge).
	{Name: faultAuthIgnoresChallenge, Clause: "nip42/verify.1",
		Breaks: "an AUTH event is accepted whatever its challenge tag says"},
	{Name: faultAuthIgnoresCreatedAt, Clause: "nip42/verify.2",
		Breaks: "an AUTH event is accepted whatever its created_at, hours or days away from now"},
	{Name: faultAuthAnyKind, Clause: "nip42/verify.3",
		Breaks: "an AUTH message carrying an event of any kind is accepted as if it were kind 22242"},
	{Name: faultAuthLastKeyOnly, Clause: "nip42/verify.4",
		Breaks: "a second AUTH on a connection replaces the first: only the last key counts as authenticated"},
	{Name: faultAuthIgnoresRelay, Clause: "nip42/verify.5",
		Breaks: "an AUTH event is accepted whatever relay its relay tag names (wss://not-this-relay.invalid/)"},

	// nip45/count (NIP-45 Event counts).
	{Name: faultCountIgnoresAccess, Clause: "nip45/count.3",
		Breaks:  "COUNT counts private-channel events for readers who are not members",
		install: countIgnoresAccess},
	{Name: faultCountIgnoresTags, Clause: "nip45/count.1",
		Breaks:  "COUNT ignores the tag conditions of its filters (#h, #t, ...): it counts every event of the kinds, ids and authors named",
		install: countIgnoresTags},
	{Name: faultCountAnswersLimit, Clause: "nip45/count.1",
		Breaks: "a COUNT whose filter has a limit answers the limit itself, not the number of matching events"},

	// nip45/filters (NIP-45 Event counts: several filters OR'd into one count).
	{Name: faultCountSumsFilters, Clause: "nip45/filters.1",
		Breaks: "a COUNT with several filters adds up each filter's count: an event two filters match is counted twice"},

	// nip45/hll (NIP-45 HyperLogLog registers).
	{Name: faultHLLShort, Clause: "nip45/hll.1",
		Breaks: "a COUNT answer's hll carries 255 registers (510 hex characters), not 256"},
	{Name: faultHLLNoPlusOne, Clause: "nip45/hll.2",
		Breaks: "each hll register holds the leading zero bits after the register byte without adding 1"},
}

// The same-second faults' variant: the relay orders a group's commands by
// (created_at, id), the higher id later, instead of by acceptance, so a
// command that shares its second with an earlier one whose id sorts after
// its own is taken to have happened first and loses. Neither careful
// reading of "latest" on a tie (arrival order, or NIP-01's lowest-id rule)
// lets it lose; the same-second cases (base/ties/*) build exactly that tie.

// sameSecondLater reports whether the channel holds a stored command of
// kind, in ev's second, whose id sorts after ev's — naming pubkey in a p
// tag when pubkey is not empty. Under the same-second faults that command
// counts as the later one.
func (t *txn) sameSecondLater(ev *nostr.Event, channel string, kind int, pubkey string) (bool, error) {
	q := `SELECT COUNT(*) FROM events e WHERE e.community = ? AND e.channel = ? AND e.kind = ? AND e.created_at = ? AND e.id > ?`
	args := []any{t.community, channel, kind, int64(ev.CreatedAt), ev.ID}
	if pubkey != "" {
		q += ` AND EXISTS (SELECT 1 FROM event_tags g WHERE g.event_seq = e.seq AND g.name = 'p' AND g.value = ?)`
		args = append(args, pubkey)
	}
	var n int
	err := t.q.QueryRow(q, args...).Scan(&n)
	return n > 0, err
}

// lostToSameSecond applies a same-second fault: when faultOn (the caller's
// r.fault(...) of that fault) and ev loses to a same-second command (see
// sameSecondLater), ev is stored and accepted without effect, and lost is
// true.
func (r *Relay) lostToSameSecond(t *txn, faultOn bool, ev *nostr.Event, channel string, kind int, pubkey string) (lost bool, err error) {
	if !faultOn {
		return false, nil
	}
	later, err := t.sameSecondLater(ev, channel, kind, pubkey)
	if err != nil || !later {
		return false, err
	}
	return true, t.insert(ev, channel)
}

// noteSub records the subscription last opened on the relay
// (live-foreign-subid).
func (s *faultState) noteSub(c *conn, id string) {
	s.subMu.Lock()
	s.lastSubConn, s.lastSubID = c, id
	s.subMu.Unlock()
}

// foreignSub is the id of the subscription last opened on the relay when
// another connection than c opened it, else "" (live-foreign-subid).
func (s *faultState) foreignSub(c *conn) string {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	if s.lastSubConn == nil || s.lastSubConn == c {
		return ""
	}
	return s.lastSubID
}
