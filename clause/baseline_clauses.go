package clause

// NIP references (Clause.Ref) of the baseline clauses. Each names the NIP
// and the heading its sentence stands under in the current
// nostr-protocol/nips text.
const (
	refNIP01Events   = "NIP-01 § Events and signatures"
	refNIP01Filters  = "NIP-01 § From client to relay: sending events and creating subscriptions"
	refNIP01FromRel  = "NIP-01 § From relay to client: sending events and notices"
	refNIP01Kinds    = "NIP-01 § Kinds"
	refNIP11         = "NIP-11 § Self"
	refNIP42Flow     = "NIP-42 § Definitions / Protocol flow"
	refNIP42Prefixes = "NIP-42 § OK and CLOSED machine-readable prefixes"
	refNIP45         = "NIP-45 § Motivation / Filters and return values"
	refNIP29Mod      = "NIP-29 § Group state -- or moderation"
	refNIP29Meta     = "NIP-29 § Group metadata events"
	refNIP29Mgmt     = "NIP-29 § Group management"
	refNIP29Join     = "NIP-29 § User-related group management events: join request"
	refNIP29Leave    = "NIP-29 § User-related group management events: leave request"
	refNIP29Late     = "NIP-29 § Late publication"
	refNIP29Roles    = "NIP-29 § Group metadata events: group roles (kind:39003)"
	refNIP29Intro    = "NIP-29 (introduction): groups are identified by a random string of any length"
	refNIP29Adding   = "NIP-29 § Implementation quirks: adding yourself to a group"
	refNIP29Sub      = "NIP-29 § Subgroups"
	refNIP29SubRules = "NIP-29 § Subgroups: Rules"
	refNIP29Pins     = "NIP-29 § Group metadata events: group pinned events (kind:39005)"
	refNIP29AV       = "NIP-29 § Live audio/video (AV) spaces"
	refNIP29Quirks   = "NIP-29 § Implementation quirks: Checking your own membership"
)

// Reading of the NIP texts: the NIPs write requirement words in lower case
// as often as in capitals. A lower-case "must" in a sentence that states a
// rule counts as MUST, "should" as SHOULD; a declarative definition ("private
// indicates that only members can read") counts as MUST for the behaviour it
// defines once the relay shows the flag. What the harness needs only to
// drive a relay is a contract clause, never a NIP's authority.

// baselineClauses are the NIP-01/11/29/42/45 statements the baseline cases
// check, each at the level of its own sentence, plus the contract points
// (Source contract) the harness needs to drive a NIP-29 relay at all.
var baselineClauses = []Clause{
	// NIP-01 events.
	nip01("nip01/event-validation.1", LevelMust, refNIP01Events,
		"An event whose signature does not verify over its id is not accepted (OK false) and has no effect."),
	nip01("nip01/event-validation.2", LevelMust, refNIP01Events,
		"An event whose id is not the hash of its serialized fields is not accepted (OK false)."),

	// NIP-01 filters and live delivery.
	nip01("nip01/filters.1", LevelMust, refNIP01Filters,
		"Every event a REQ returns matches one of its filters: all the conditions a filter states hold for it."),
	nip01("nip01/filters.2", LevelShould, refNIP01Filters,
		"With limit n, the initial answer is the newest n matching events: an older match is not hidden by newer events that do not match."),
	nip01("nip01/filters.3", LevelMust, refNIP01Filters,
		"A REQ with several filters returns events matching any of them."),
	nip01("nip01/filters.4", LevelShould, refNIP01Filters,
		"With a limit, stored events come newest first (NIP-01 orders them only \"when limit: n is present\")."),
	nip01("nip01/filters.5", LevelShould, refNIP01Filters,
		"A list condition (ids, authors, kinds, a tag) holds when any one of its values matches, wherever that value stands in the list: a REQ returns the stored events matching its second or last value as it returns those matching its first."),
	nip01("nip01/filters.6", LevelShould, refNIP01Filters,
		"since and until are inclusive: a stored event whose created_at equals since or until matches and is returned."),
	nip01("nip01/live.1", LevelShould, refNIP01Filters,
		"A subscription left open after EOSE receives newly stored events that match it."),
	nip01("nip01/ok-prefix.1", LevelMust, refNIP01FromRel,
		"The message of an OK false is a machine-readable single-word prefix, a colon, then a human-readable text."),
	nip01("nip01/ok-prefix.2", LevelMust, refNIP01FromRel,
		"A refused REQ is answered with CLOSED, whose message has the same prefix form."),
	nip01("nip01/ok-prefix.3", LevelMust, refNIP01FromRel,
		"An OK tells the truth: false only for an event the relay did not accept, so a refused event is not stored and served afterwards, nor does it take effect."),

	// NIP-01 replaceable and addressable events (same-second ties).
	nip01("nip01/replaceable.1", LevelShould, refNIP01Kinds,
		"Of two versions of an addressable event (same kind, pubkey and d) with the same created_at, the relay keeps and serves the one with the lowest id and discards the other."),

	// NIP-11.
	nip11("nip11/document.1", LevelShould, "NIP-11 § Relay information document",
		"An HTTP request to the relay URL with Accept: application/nostr+json returns the JSON information document."),
	nip11("nip11/document.2", LevelMust, refNIP11,
		"When the document has a self field, it is a 32-byte lowercase hex public key."),
	contract("nip11/document.3", LevelRule, "harness: the key NIP-29 state events are checked against",
		"The document names the key that signs group state: self (NIP-29 points there), or --relay-pubkey tells the harness."),

	// NIP-42.
	nip42("nip42/auth.1", LevelMust, refNIP42Flow,
		"An AUTH message from a client is answered with an OK."),
	nip42("nip42/auth.2", LevelMust, refNIP42Flow,
		"Kind 22242 events are never broadcast to any client."),
	nip42("nip42/auth.3", LevelShould, refNIP42Prefixes,
		"A write refused because the connection has not authenticated says auth-required:; one refused for an authenticated key that is not allowed says restricted:."),
	nip42("nip42/auth.4", LevelShould, refNIP42AuthEvent,
		"A client's AUTH event carries a relay tag naming the relay and the challenge the relay sent on this connection (a challenge is valid only for the connection it came on), and a current created_at.").
		client("client obligation: judged by client mode (nipcl-conform client --profile nip29), whose scripted relay verifies AUTH events as NIP-42 tells relays to"),

	// NIP-45 (optional: checked when advertised or answered).
	nip45("nip45/count.1", LevelMust, refNIP45,
		"A relay that serves COUNT answers with the number of events the filters match. Reading: an answer flagged \"approximate\": true is an estimate, which NIP-45 allows (\"Relays may use probabilistic counts\"), and is not judged against the number; an unflagged answer is read as exact."),
	nip45("nip45/count.2", LevelMust, refNIP45,
		"A relay that refuses a COUNT answers with CLOSED."),
	nip45("nip45/count.3", LevelShould, "NIP-45 with NIP-29 § group metadata: private",
		"COUNT does not count messages of a private group for a reader who may not read them."),

	// NIP-29: what the harness needs to drive a relay (contract), then the NIP's own rules.
	contract("nip29/create.1", LevelRule, "harness: every scenario needs groups of its own (NIP-29 defines 9007 create-group but no duty to honour it)",
		"A fresh key's bare 9007 (only an h tag with a new id) creates a group, and its relay-signed 39000 has d = that id."),
	contract("nip29/create.2", LevelRule, "harness: moderation scenarios need a role that can moderate (NIP-29 leaves roles to the relay)",
		"The creator of a group holds a role that may moderate it: put and remove users, edit metadata."),
	nip29("nip29/create.3", LevelShould, refNIP29Mod,
		"A 9007 from a key with no role in an existing group with that id is refused and the group is untouched."),
	nip29("nip29/admins.1", LevelMust, refNIP29Meta+": group admins (kind:39001)",
		"Every admin a published 39001 lists carries one or more role names after its pubkey in its p tag."),
	nip29("nip29/state-events.1", LevelMust, refNIP29Meta,
		"Group state events (39000-39003) are signed by the relay key named by NIP-11 self, with a valid id and signature."),
	nip29("nip29/state-events.2", LevelShould, refNIP29Meta+" with NIP-01 § Kinds (addressable)",
		"Each replacement state event has a created_at greater than the one it replaces, so clients keep the newest."),
	nip29("nip29/state-events.3", LevelShould, refNIP29Meta,
		"A single instance of each state event exists per group: a #d read returns one head per kind, not superseded ones."),
	nip29("nip29/state-events.4", LevelShould, refNIP01Filters,
		"A state-event REQ with limit n returns at most n events."),
	nip29("nip29/metadata.1", LevelShould, refNIP29Meta,
		"After an authorized 9002, the 39000 reflects the name, about and picture it carried."),
	nip29("nip29/metadata.2", LevelShould, refNIP29Meta,
		"After an authorized 9002 carrying the private, closed, hidden or restricted flag, the 39000 carries that flag."),
	nip29("nip29/metadata.3", LevelShould, refNIP29Meta+", with NIP-01 § Kinds",
		"After two 9002 edits in the same second, the 39000 reflects the latest: the second when it is the latest under both careful readings of a tie (accepted later, and its id sorts first); where the readings disagree, either edit."),
	nip29("nip29/membership.1", LevelShould, refNIP29Meta+": group members (kind:39002)",
		"After an authorized 9000, a relay that publishes 39002 lists the user there."),
	nip29("nip29/membership.2", LevelShould, refNIP29Meta+": group members (kind:39002)",
		"After an authorized 9001, a relay that publishes 39002 no longer lists the user."),
	nip29("nip29/membership.3", LevelMust, refNIP29Mgmt,
		"A 9000 naming an existing member with roles updates that member's roles (39001 shows the new role)."),
	nip29("nip29/membership.4", LevelShould, refNIP29Mgmt,
		"A user given a privileged role by 9000 is listed in 39001 with that role."),
	nip29("nip29/membership.5", LevelShould, refNIP29Mgmt+", with Moderation events: put-user",
		"A 9000 without roles naming an existing member leaves the user a member (39002 still lists it); whether its role is kept or cleared is open (reading nip29-roleless-put-user)."),
	nip29("nip29/membership.6", LevelShould, refNIP29Quirks+", with NIP-01 § Kinds",
		"Of a 9000 and a 9001 naming a user in the same second, the latest decides membership: the 9001 takes the user out when it is the latest under both careful readings of a tie (accepted later, and its id sorts first); where the readings disagree either outcome is lawful."),
	nip29("nip29/roles.1", LevelShould, refNIP29Roles,
		"The roles 39001 lists correspond to roles the relay advertises in 39003, when it publishes one."),
	nip29("nip29/join.1", LevelMust, refNIP29Join,
		"A join request that does not add the user to the group is rejected (OK false); an accepted one means the user was added."),
	nip29("nip29/join.2", LevelMust, refNIP29Join,
		"A join request from a user who is already a member is rejected with the duplicate: prefix."),
	nip29("nip29/join.3", LevelMust, refNIP29Join+" with group metadata: closed",
		"A join request without an invite code to a closed group is not honoured, so it is rejected and the user is not added."),
	nip29("nip29/leave.1", LevelMust, refNIP29Leave,
		"A member's leave request removes the member from the group."),
	nip29("nip29/leave.2", LevelShould, refNIP29Leave,
		"The relay answers an honoured leave request with a 9001 removing the user."),
	nip29("nip29/leave.3", LevelMust, refNIP29Leave+", with "+refNIP29Quirks,
		"A member's accepted leave request removes the member even when it shares its second with the 9000 that added the member (and its id sorts first, so every reading of the tie makes it the latest)."),
	contract("nip29/delete.1", LevelRule, "harness: safe mode deletes the groups a run made (NIP-29 names 9008 but gives it no required effect)",
		"A group creator's 9008 is accepted and the group's 39000 is no longer served."),
	nip29("nip29/delete.2", LevelShould, refNIP29Mod,
		"A 9008 from a member without a privileged role is refused and the group stays."),
	nip29("nip29/read-access.1", LevelMust, refNIP29Meta+": private",
		"Messages of a private group reach members only: not outsiders or anonymous readers, whether asked for by #h or by id."),
	nip29("nip29/read-access.2", LevelShould, refNIP29Meta+": private, with NIP-01 limit",
		"Unreadable private messages do not use up an outsider's limit."),
	nip29("nip29/read-access.3", LevelMust, refNIP29Meta+": private",
		"A member reads the messages of a private group."),
	nip29("nip29/hidden.1", LevelShould, refNIP29Meta+": hidden",
		"The metadata of a hidden group is withheld from non-members."),
	nip29("nip29/hidden.2", LevelShould, refNIP29Meta+": hidden, with NIP-01 limit",
		"Withheld group metadata does not use up a non-member's limit."),
	nip29("nip29/restricted.1", LevelMust, refNIP29Meta+": restricted",
		"Only members can write messages to a restricted group: a non-member's message is refused."),
	nip29("nip29/permissions.1", LevelMust, refNIP29Mod,
		"A moderation event from a key with no role in the group (an outsider's 9000) is refused and has no effect."),
	nip29("nip29/permissions.2", LevelShould, refNIP29Mod,
		"A 9002 from a member without a privileged role is refused and the metadata stays."),
	nip29("nip29/late-publication.1", LevelShould, refNIP29Late,
		"A group message stamped hours in the past is refused (any prefix)."),
	nip29("nip29/join.4", LevelShould, refNIP29Join,
		"The message of a rejected join request says whether the rejection is final, the request is pending review, or other handling (such as payment) applies.").
		untestable("needs a human: the message is free text with no prescribed prefix or wording, so only a reader can judge whether it explains the outcome"),
	nip29("nip29/join.5", LevelMay, refNIP29Adding,
		"On a join request the relay may add the user at once (a 9000) or leave the decision to an admin.").
		untestable("permission: every behaviour satisfies it (adding at once and deferring are both allowed outcomes)"),
	nip29("nip29/late-publication.2", LevelMay, "NIP-29 § Group identity, migration and forking",
		"A group is its id plus the relay enforcing its rules; another relay may take over (migration) or fork a group by receiving copies of its events, and keeps its own 39000, 39001 and history.").
		untestable("permission: every behaviour satisfies it; receiving a moved group happens before the relay is under test and involves two relays the harness does not control"),

	// NIP-29 group ids, invites and the closed/restricted flags.
	nip29("nip29/group-ids.1", LevelRule, refNIP29Intro,
		"A group id need not be a UUID: a relay that creates groups creates one with an ordinary id and accepts its members' messages."),
	nip29("nip29/invites.1", LevelShould, refNIP29Adding+", with join request: code and create-invite (9009)",
		"When the relay accepts a group admin's 9009 create-invite, a join request carrying that code to the closed group is honoured: accepted and the user added."),
	nip29("nip29/invites.2", LevelMust, refNIP29Join+", with group metadata: closed",
		"A join request to a closed group carrying a code that no 9009 created is not honoured: it is rejected and the user is not added."),
	nip29("nip29/invites.3", LevelShould, refNIP29Mod,
		"A 9009 create-invite from a member without a privileged role is refused, and its code does not admit anyone to the closed group."),
	nip29("nip29/restricted.2", LevelMust, refNIP29Meta+": restricted and closed",
		"A group that is closed but not restricted (nor private) accepts a non-member's message: closed limits joining, not writing."),

	// NIP-29 subgroups (optional: "Groups MAY be organized hierarchically").
	nip29("nip29/subgroups.1", LevelShould, refNIP29Sub+": Relay support detection",
		`A relay that supports subgroups advertises "nip29": {"subgroups": true} in its NIP-11 document.`),
	nip29("nip29/subgroups.2", LevelMust, refNIP29SubRules,
		"After an authorized 9002 with one parent tag, the group's 39000 carries exactly that one parent tag; a 9002 with two parent tags never leaves two."),
	nip29("nip29/subgroups.3", LevelMust, refNIP29SubRules,
		"A parent's 39000 lists its children as child tags, in order; a newly adopted child is added to the list (by default at the end)."),
	nip29("nip29/subgroups.4", LevelShould, refNIP29SubRules,
		"A parent admin's 9002 carrying every child as child tags in a new order replaces the list: the parent's 39000 shows the new order."),
	nip29("nip29/subgroups.5", LevelMust, refNIP29SubRules,
		"A 9002 whose parent would create a cycle (the group itself, or one of its descendants) is rejected and the tree is unchanged."),
	nip29("nip29/subgroups.6", LevelMust, refNIP29SubRules,
		"A 9002 whose parent does not exist on the relay is rejected."),
	nip29("nip29/subgroups.7", LevelMust, refNIP29SubRules,
		"A 9002 with [\"parent\", X] from a key that is not an admin of X (per X's 39001) is rejected, even when it administers the group itself."),
	nip29("nip29/subgroups.8", LevelMust, refNIP29SubRules,
		"A 9002 on a parent whose child tags leave out an existing child is rejected and the child list is unchanged."),
	nip29("nip29/subgroups.9", LevelMust, refNIP29SubRules,
		"A child's authorized 9002 naming another parent moves it (the previous parent's 39000 no longer lists it); one without a parent tag makes it a root: its 39000 has no parent tag and the former parent's 39000 no longer lists it."),
	nip29("nip29/subgroups.10", LevelShould, refNIP29SubRules,
		"When a parent is deleted (9008), its remaining children become roots: their 39000 no longer carry the parent tag."),
	nip29("nip29/subgroups.11", LevelMust, refNIP29Sub+": Membership",
		"Nothing is inherited across the parent-child link: a parent's admin who is not an admin of the child may not put users into it, and a parent's member is not listed in the child's 39002 without a 9000 of the child."),
	nip29("nip29/subgroups.12", LevelMay, refNIP29Sub,
		"Groups may be organized in a hierarchy (parent and child tags).").
		untestable("permission: every behaviour satisfies it; a relay that offers subgroups is checked by the other nip29/subgroups clauses once it advertises them (nip29/subgroups.1)"),
	nip29("nip29/subgroups.13", LevelRule, refNIP29SubRules,
		"Events already stored under a group's h tag stay valid when the group gains, changes or loses a parent."),

	// NIP-29 pinned events (optional: 39005).
	nip29("nip29/pins.1", LevelMust, refNIP29Pins,
		"After an accepted 9010, the relay-signed 39005 of the group lists the 9010's e and a references, in the 9010's order."),
	nip29("nip29/pins.2", LevelMust, refNIP29Pins,
		"Each accepted 9010 replaces the list: unpinning, reordering and clearing (a 9010 without references) are mirrored by the regenerated 39005."),
	nip29("nip29/pins.3", LevelShould, refNIP29Mod,
		"A 9010 from a member without a privileged role is refused and the 39005 is unchanged."),
	nip29("nip29/pins.4", LevelMay, refNIP29Pins,
		"The relay may limit the number of pins.").
		untestable("permission: every behaviour satisfies it (the text sets no minimum and no way to announce the limit)"),

	// NIP-29 live audio/video endpoints (optional).
	nip29("nip29/livekit.1", LevelShould, refNIP29AV,
		"A relay that issues LiveKit tokens answers 204 at /.well-known/nip29/livekit."),
	nip29("nip29/livekit.2", LevelMust, refNIP29AV+", with NIP-98",
		"A JWT the token endpoint issues for a NIP-98-authorized caller has a sub whose first 64 characters are the caller's lowercase hex pubkey."),
	nip29("nip29/livekit.3", LevelShould, refNIP29AV,
		"The token endpoint enforces the group's settings: it refuses a private group's token to a caller who is not a member."),
	nip29("nip29/livekit.4", LevelRule, refNIP29AV,
		"Since one user may hold several JWTs for the same room, the relay appends a random identifier after the 64 hex characters of the sub."),
	nip29("nip29/livekit.5", LevelMay, refNIP29AV+" and § Group metadata events: livekit",
		"A group that offers LiveKit audio/video carries a livekit tag in its 39000; an AV-only group carries an empty supported_kinds tag.").
		untestable("permission: whether a group offers AV is the operator's choice, so every 39000 satisfies it; the token endpoint itself is checked by nip29/livekit.1-3"),
}

// refNIP42AuthEvent: the sentences of NIP-42 that bind a client's AUTH
// event (nip42/auth.4).
const refNIP42AuthEvent = `NIP-42 § Canonical authentication event: "it should have at least two tags, one for the relay URL and one for the challenge string as received from the relay" and § Protocol flow: "The challenge is valid for the duration of the connection"`
