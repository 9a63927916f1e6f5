package clause

// baselineClauses are the NIP-01/11/29/42/45 statements of the target
// contract (spec/README.md) that the baseline suite checks. They are not a
// catalogue of those NIPs: only what every NIP-CL scenario relies on.
var baselineClauses = []Clause{
	// NIP-01 event validation.
	{ID: "nip01/event-validation.1", Section: "nip01/event-validation", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event whose signature fails verification is refused with an invalid: OK and has no effect."},
	{ID: "nip01/event-validation.2", Section: "nip01/event-validation", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event whose id is not the hash of its serialized fields is refused with an invalid: OK."},
	{ID: "nip01/event-validation.3", Section: "nip01/event-validation", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event stamped more than 900 s before or after the relay's clock is refused with an invalid: OK."},

	// NIP-01 filters and live delivery.
	{ID: "nip01/filters.1", Section: "nip01/filters", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Tag predicates are evaluated before limit is applied, so an older match is not hidden by newer non-matching events."},
	{ID: "nip01/filters.2", Section: "nip01/filters", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Several filters in one REQ return the union of their matches, newest first, followed by EOSE."},
	{ID: "nip01/live.1", Section: "nip01/live", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A subscription left open after EOSE receives newly stored events that match it."},
	{ID: "nip01/malformed.1", Section: "nip01/malformed", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A frame that is not a well-formed client message gets a NOTICE and the connection keeps serving requests."},

	// NIP-11.
	{ID: "nip11/document.1", Section: "nip11/document", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An HTTP request to the relay URL with Accept: application/nostr+json returns the JSON information document."},
	{ID: "nip11/document.2", Section: "nip11/document", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "The document's self field is the 64-hex public key that signs the relay's group-state events."},

	// NIP-42.
	{ID: "nip42/auth.1", Section: "nip42/auth", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A write over a connection that has not authenticated is refused with auth-required:."},
	{ID: "nip42/auth.2", Section: "nip42/auth", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A write signed by a key other than the one the connection authenticated is refused with auth-required:."},
	{ID: "nip42/auth.3", Section: "nip42/auth", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "After a valid kind 22242 answer to the challenge, the relay accepts writes signed by that key."},

	// NIP-45.
	{ID: "nip45/count.1", Section: "nip45/count", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "COUNT answers with the number of stored events the filter matches."},
	{ID: "nip45/count.2", Section: "nip45/count", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "COUNT obeys the same read access as REQ: events a reader cannot read are not counted."},

	// NIP-29 as the target contract uses it.
	{ID: "nip29/create.1", Section: "nip29/create", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A 9007 with a fresh client-chosen UUID creates the channel; its 39000 has d = that UUID and the requested name."},
	{ID: "nip29/create.2", Section: "nip29/create", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "The author of the 9007 becomes a member (39002) and an admin with role owner (39001)."},
	{ID: "nip29/create.3", Section: "nip29/create", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A 9007 naming a UUID that is already in use is refused and the existing channel is untouched."},
	{ID: "nip29/state-events.1", Section: "nip29/state-events", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Kinds 39000, 39001 and 39002 are signed by the relay key with a valid id and signature."},
	{ID: "nip29/state-events.2", Section: "nip29/state-events", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Each replacement state event has a created_at strictly greater than the event it replaces."},
	{ID: "nip29/edit.1", Section: "nip29/edit", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An owner's 9002 with name and about publishes a new 39000 carrying the new values."},
	{ID: "nip29/membership.1", Section: "nip29/membership", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A 9000 adds the user to 39002 with the given role, and admins and owners also to 39001."},
	{ID: "nip29/membership.2", Section: "nip29/membership", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A 9001 takes the user out of 39002."},
	{ID: "nip29/membership.3", Section: "nip29/membership", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Removing the channel's only owner is refused."},
	{ID: "nip29/membership.4", Section: "nip29/membership", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Ownership can be handed over: once a second owner exists, the first owner can be removed."},
	{ID: "nip29/delete.1", Section: "nip29/delete", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "After an accepted 9008 the channel's state events are no longer served."},
	{ID: "nip29/delete.2", Section: "nip29/delete", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A deleted channel's UUID cannot be created again."},
	{ID: "nip29/delete.3", Section: "nip29/delete", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Only an owner can delete a channel; a plain member's 9008 is refused."},
	{ID: "nip29/read-access.1", Section: "nip29/read-access", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Messages of a private channel reach members only, whether asked for by #h or by id, and never anonymous readers."},
	{ID: "nip29/read-access.2", Section: "nip29/read-access", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A private channel's 39000 is served to members and withheld from outsiders."},
	{ID: "nip29/read-access.3", Section: "nip29/read-access", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "Read access is decided before limit: unreadable events, messages or state, do not use up a reader's limit."},
	{ID: "nip29/permissions.1", Section: "nip29/permissions", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A plain member's 9002 is refused and the metadata stays as it was."},
	{ID: "nip29/permissions.2", Section: "nip29/permissions", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A non-member's 9000 is refused and the named user does not become a member."},
}
