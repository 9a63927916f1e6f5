package clause

// NIP references of the moderation table, delete-event, state-event and
// timeline clauses.
const (
	refNIP29Table    = "NIP-29 § Group state -- or moderation: moderation events (the table)"
	refNIP29Timeline = "NIP-29 § Timeline references"
	refNIP29MetaGen  = "NIP-29 § Group metadata events: group metadata (kind:39000)"
	refNIP29Live     = "NIP-29 § Group metadata events: livekit participants (kind:39004)"
)

// nip29ModerationClauses: NIP-29's moderation table (9000-9010), 9005
// delete-event, the state events' content, uniqueness and signer, and
// timeline references, each at its own sentence's level. Roles are relay
// policy ("What each role is capable of not defined in this NIP either"):
// the unauthorized actor is always a key with no role in the group.
var nip29ModerationClauses = []Clause{
	// Moderation table.
	nip29("nip29/moderation.1", LevelMust, refNIP29Mod,
		"Each moderation kind of the table (9001 remove-user, 9002 edit-metadata, 9005 delete-event, 9008 delete-group, 9009 create-invite, 9010 update-pin-list) from a key with no role in the group is refused and has no effect."),
	nip29("nip29/moderation.2", LevelShould, refNIP29Table,
		"The moderation events a relay accepted stay readable by the group's readers (by #h and by id), so the group state can be reconstructed from them."),
	nip29("nip29/moderation.3", LevelRule, refNIP29Table,
		"Each moderation action has its own kind and takes its arguments as tags, as the table lists them.").
		untestable("a definition of the event shapes: the cases of each kind send exactly these shapes; what a relay does with another shape the NIP does not say"),
	nip29("nip29/moderation.4", LevelRule, refNIP29Mod,
		"Moderation events are optional, and what each role may do is relay policy.").
		untestable("a permission every behaviour satisfies: the cases observe what an authorized key may do and report a refused kind as unsupported"),

	nip29("nip29/moderation.5", LevelMust, "NIP-29 § The h tag, with Group state -- or moderation",
		"Events sent by users to a group, moderation events included, carry an h tag with the group id.").
		client("an obligation on the events' authors: an event without an h tag names no group, so no relay behaviour can break it (every case sends the h tag)"),

	// 9005 delete-event.
	nip29("nip29/delete-event.1", LevelMust, refNIP29Table+": delete-event",
		"After an accepted 9005 naming an event of the group, that event is no longer served by any read: not by #h, ids, authors or kind, nor to a subscription opened afterwards."),

	// State events.
	nip29("nip29/state-events.5", LevelShould, refNIP29MetaGen,
		"After an authorized 9002 with name, picture, banner and about, the 39000 carries all four (the metadata reflects the latest group state)."),
	nip29("nip29/state-events.6", LevelShould, refNIP29MetaGen,
		"A 39000 signed by a key other than the relay's is not accepted, and it is not served for the group."),
	nip29("nip29/state-events.7", LevelMust, refNIP29Live,
		"A 39004 the relay publishes carries participants only as participant tags, each a 64-character lowercase hex public key."),
	nip29("nip29/state-events.8", LevelMay, refNIP29Live,
		"A relay may publish 39004 participants, and updates it whenever someone joins or leaves the AV room.").
		untestable("a permission and an update that needs a live AV room, which the harness cannot join (no LiveKit server); a published 39004 is checked by base/state/8"),

	nip29("nip29/state-events.9", LevelRule, refNIP29Meta,
		"The state events (39000-39005) are optional and informative: 39000 says how clients display the group, and a forked group has its own versions on each relay.").
		untestable("a description of the events' purpose and of other relays: what a relay publishes is checked by the other state-events clauses"),

	// Timeline references.
	nip29("nip29/timeline.1", LevelShould, refNIP29Timeline,
		"A group event whose previous tag names a reference matching no event the relay has is refused."),
	nip29("nip29/timeline.2", LevelRule, refNIP29Timeline,
		"A group event may carry previous references (8-hex-digit prefixes of events of the relay): one whose references all match stored events is accepted as it would be without them."),
	nip29("nip29/timeline.3", LevelShould, refNIP29Timeline,
		"Relays enforce that clients include at least three previous references.").
		untestable("the same sentence allows any number of references (including zero); a relay that enforces three refuses the harness's group writes, which carry none, and the scenarios would be blocked rather than observe it (serve --min-previous shows a client such a relay)"),
	nip29("nip29/timeline.4", LevelRule, refNIP29Timeline,
		"Clients pick the references (first 8 hex digits of events among the last 50 they saw on the relay, not their own); checking other events' references is nip29/clients.4.").client(reasonClient),
	nip29("nip29/state-events.10", LevelMay, refNIP29MetaGen+": supported_kinds; and § Normal user-created events",
		"Groups may accept any event kind; a supported_kinds tag in the 39000 lists the kinds the group supports (absent: all kinds; empty: none, as for AV-only groups).").
		untestable("permission: the text says what the tag means to clients but not that a relay refuses kinds outside it, so every behaviour satisfies it"),
	nip29("nip29/state-events.11", LevelMay, refNIP29Meta+": group roles (kind:39003)",
		"A relay may publish a 39003 listing the roles it supports.").
		untestable("a permission: a relay that publishes no 39003 conforms as well as one that does, and which roles it lists is relay policy (the NIP leaves them and their powers unspecified)"),
}
