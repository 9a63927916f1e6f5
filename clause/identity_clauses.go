package clause

// Reasons specific to the identity draft.
const (
	reasonNoLaterType = "needs a channel type beyond the legacy four and system; none exists yet, and a relay that refuses unknown channel_type values gives nothing to observe"
	reasonPreUpgrade  = "needs state stored by a relay version without the draft; the harness sees one relay version and cannot plant relay-signed events"
	reasonRelayAPI    = "concerns a relay-specific query API outside NIP-01; the harness speaks only the Nostr wire protocol"
)

// identityClauses are the normative statements of nip-cl-identity.md
// ("Channel Identity and Discovery", newest revision).
var identityClauses = []Clause{
	// Channel identity tags.
	{ID: "identity/identity-tags.1", Section: "identity/identity-tags", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "On each relay-signed 39000, 39001 and 39002 of a channel, the first t tag holds the channel type."},
	{ID: "identity/identity-tags.2", Section: "identity/identity-tags", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "The type tag is followed by one t tag per channel label, in the channel's stored label order."},
	{ID: "identity/identity-tags.3", Section: "identity/identity-tags", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A P tag with the creator's hex key comes after the type and label t tags, and no other t or P tag precedes these identity tags."},
	{ID: "identity/identity-tags.4", Section: "identity/identity-tags", Level: LevelMust, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients take the channel type from the first t tag only and treat every later t tag as a label."},

	// Creator.
	{ID: "identity/creator.1", Section: "identity/creator", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "P holds the key that signed the 9007 that created the channel, taken from the relay's own record."},
	{ID: "identity/creator.2", Section: "identity/creator", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "No client can choose P: a P tag sent in a 9007 or 9002 does not alter the creator the relay writes."},
	{ID: "identity/creator.3", Section: "identity/creator", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "P stays the original creator after ownership passes to another member."},
	{ID: "identity/creator.4", Section: "identity/creator", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "P stays the original creator after the channel is edited."},

	// Creation time.
	{ID: "identity/creation-time.1", Section: "identity/creation-time", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "The 39000 carries a created_at tag: the channel's creation time as decimal unix seconds (relay clock or the 9007's created_at)."},
	{ID: "identity/creation-time.2", Section: "identity/creation-time", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "The created_at tag keeps its value when the channel is edited or its membership changes."},
	{ID: "identity/creation-time.3", Section: "identity/creation-time", Level: LevelRule, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients compare channel ages by the created_at tag, not by the state event's own created_at."},

	// Older events.
	{ID: "identity/older-events.1", Section: "identity/older-events", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonPreUpgrade,
		Text: "Identity tags appear only on state events published after the relay gained the draft; older ones may lack them until the channel next changes."},
	{ID: "identity/older-events.2", Section: "identity/older-events", Level: LevelMust, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients read an absent identity tag as unknown; a missing P says nothing about who created the channel."},

	// Channel labels.
	{ID: "identity/labels.1", Section: "identity/labels", Level: LevelRule, Subject: SubjectRelay, Testable: false,
		Reason: "an unbounded negative (no relay behaviour depends on a label value); its observable parts are identity/choosing-one-channel.1 and identity/asking-for-system.5",
		Text:   "Label values carry no meaning for the relay."},
	{ID: "identity/labels.2", Section: "identity/labels", Level: LevelMay, Subject: SubjectRelay, Testable: true,
		Text: "A 9007 may set up to 8 distinct labels as t tags, and the relay publishes them on the new channel."},
	{ID: "identity/labels.3", Section: "identity/labels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "On a 9002, the t tags present become the complete new label set (replace-all)."},
	{ID: "identity/labels.4", Section: "identity/labels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "On a 9002, t tags that are all empty-valued empty the label set."},
	{ID: "identity/labels.5", Section: "identity/labels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 9002 without any t tag leaves the label set unchanged."},
	{ID: "identity/labels.6", Section: "identity/labels", Level: LevelMay, Subject: SubjectRelay, Testable: true,
		Text: "Owners and admins (not only owners) may change a channel's labels."},
	{ID: "identity/labels.7", Section: "identity/labels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A label change from a plain member or a non-member is refused and the labels stay as they were."},

	// Label rules.
	{ID: "identity/label-rules.1", Section: "identity/label-rules", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event with more than 8 distinct labels is refused as a whole."},
	{ID: "identity/label-rules.2", Section: "identity/label-rules", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event with a label outside 1-64 characters of a-z, 0-9, '.', ':' and '-' is refused as a whole."},
	{ID: "identity/label-rules.3", Section: "identity/label-rules", Level: LevelMustNot, Subject: SubjectRelay, Testable: true,
		Text: "A channel-type name (stream, forum, dm, workflow, system) is never accepted as a label; the event carrying it is refused."},
	{ID: "identity/label-rules.4", Section: "identity/label-rules", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "An event mixing an empty-valued t tag with real labels is refused as a whole."},
	{ID: "identity/label-rules.5", Section: "identity/label-rules", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "A refused label event changes nothing: no channel from a 9007, no name or other field from a 9002."},
	{ID: "identity/label-rules.6", Section: "identity/label-rules", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A repeated label is stored once and counts once toward the limit of 8."},
	{ID: "identity/label-rules.7", Section: "identity/label-rules", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Several empty-valued t tags on a 9002 clear the label set exactly as a single one does."},

	// Finding channels.
	{ID: "identity/finding-channels.1", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 39000 filter with #P lists the channels the given keys created."},
	{ID: "identity/finding-channels.2", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 39000 filter with #t on a label lists the channels carrying that label."},
	{ID: "identity/finding-channels.3", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "#P and #t in one filter both have to match (one creator's channels with a label)."},
	{ID: "identity/finding-channels.4", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 39000 filter with #t on a type name lists the channels of that type."},
	{ID: "identity/finding-channels.5", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Several values in one tag filter are alternatives: #t with two labels finds channels having either."},
	{ID: "identity/finding-channels.6", Section: "identity/finding-channels", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonPreUpgrade,
		Text: "A #P filter cannot return channels whose state events predate the draft and so lack P."},
	{ID: "identity/match-before-limit.1", Section: "identity/match-before-limit", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "#t is matched before limit: an older channel with the label is returned even behind newer channels without it."},
	{ID: "identity/match-before-limit.2", Section: "identity/match-before-limit", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "#P is matched before limit: an older channel of the creator is returned even behind newer channels of other keys."},

	// Choosing one channel.
	{ID: "identity/choosing-one-channel.1", Section: "identity/choosing-one-channel", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Labels are not unique: two creates with the same label, even by the same key, both succeed."},
	{ID: "identity/choosing-one-channel.2", Section: "identity/choosing-one-channel", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Any owner or admin may put any label on their channel, including one other keys already use."},
	{ID: "identity/choosing-one-channel.3", Section: "identity/choosing-one-channel", Level: LevelRule, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "A client wanting one channel per creator and label queries #P+#t first, creates only on an empty result, and keeps the oldest when several exist."},
	{ID: "identity/choosing-one-channel.4", Section: "identity/choosing-one-channel", Level: LevelRule, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Oldest means the smallest integer created_at tag, ties broken by the smaller d string; channels without the tag rank last and among themselves by d."},

	// System channels.
	{ID: "identity/system-channels.1", Section: "identity/system-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 9007 with channel_type system creates a channel whose type tag reads system."},
	{ID: "identity/system-channels.2", Section: "identity/system-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A system channel is private unless its 9007 also asks for open visibility."},
	{ID: "identity/system-channels.3", Section: "identity/system-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "The 39000 of a private system channel carries the NIP-29 hidden tag."},
	{ID: "identity/system-channels.4", Section: "identity/system-channels", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Apart from discovery, a system channel behaves like any channel: members, roles, messages and labels work as usual."},

	// Reads that leave system channels out.
	{ID: "identity/reads-leave-out.1", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A filter without #h that does not name a channel or opt in returns no state events of system channels, even to members."},
	{ID: "identity/reads-leave-out.2", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A message filter without #h returns no messages posted in system channels, even to members."},
	{ID: "identity/reads-leave-out.3", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 39002 filter on #p of the reader (their memberships) leaves system channels out unless it opts in."},
	{ID: "identity/reads-leave-out.4", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "COUNT leaves system channels out on the same terms as REQ."},
	{ID: "identity/reads-leave-out.5", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "NIP-50 search leaves system channels out on the same terms as REQ (where the relay offers search)."},
	{ID: "identity/reads-leave-out.6", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "An open subscription that does not name a system channel is not sent its new state events or messages."},
	{ID: "identity/reads-leave-out.7", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonRelayAPI,
		Text: "Relay-specific query APIs performing the same reads leave system channels out too."},
	{ID: "identity/reads-leave-out.8", Section: "identity/reads-leave-out", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonNoLaterType,
		Text: "Unnamed reads return only the frozen legacy types (stream, forum, dm, workflow); any type added later is left out as well."},
	{ID: "identity/reads-leave-out.9", Section: "identity/reads-leave-out", Level: LevelMustNot, Subject: SubjectRelay, Testable: false,
		Reason: "push notifications travel through platform push services, not the Nostr connection the harness observes",
		Text:   "The relay sends no push notifications for system channels."},

	// A filter names a channel.
	{ID: "identity/naming.1", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A filter with the channel's UUID in #h names it: a member (or anyone, if open) reads a system channel's messages that way."},
	{ID: "identity/naming.2", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "#d with the UUID names the channel only when every kind in the filter lies in 39000-39003; then its state events are returned."},
	{ID: "identity/naming.3", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "#d on a filter with no kinds or with a kind outside 39000-39003 does not name the channel, so system channels stay out."},
	{ID: "identity/naming.4", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Naming does not bypass access: a non-member naming a private system channel reads nothing; an open one is readable by anyone."},
	{ID: "identity/naming.5", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "The decision is per filter: a filter that names a system channel does not make it appear in another filter of the same request."},
	{ID: "identity/naming.6", Section: "identity/naming", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonNoLaterType,
		Text: "Naming works the same for a channel of a type added later as for a system channel."},

	// Membership notices.
	{ID: "identity/notices.1", Section: "identity/notices", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Every 44100 and 44101 notice carries a t tag with the channel's type (system for system channels)."},
	{ID: "identity/notices.2", Section: "identity/notices", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Notices are stored: the member they name can read them back later in REQ history."},
	{ID: "identity/notices.3", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "On 44100/44101, a filter with #t matches a notice only if the notice's type is among the #t values."},
	{ID: "identity/notices.4", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "On 44100/44101, a filter without #t matches only notices of legacy types, so system-channel notices are left out."},
	{ID: "identity/notices.5", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: false, Reason: reasonPreUpgrade,
		Text: "A stored notice without a t tag counts as every legacy type: it matches a filter without #t and one whose #t names a legacy type."},
	{ID: "identity/notices.6", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "The notice type rule also governs live delivery to open subscriptions."},
	{ID: "identity/notices.7", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: true,
		Text: "The notice type rule also governs COUNT."},
	{ID: "identity/notices.8", Section: "identity/notices", Level: LevelMust, Subject: SubjectRelay, Testable: false, Reason: reasonRelayAPI,
		Text: "The notice type rule also governs relay-specific query APIs."},
	{ID: "identity/notices.9", Section: "identity/notices", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A 44100/44101 is returned, counted or delivered only to the key in its p tag; a #p naming someone else yields nothing."},
	{ID: "identity/notices.10", Section: "identity/notices", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Knowing a notice's id does not help: an ids filter from anyone but the named member returns, counts and delivers nothing."},
	{ID: "identity/notices.11", Section: "identity/notices", Level: LevelRule, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients treat a notice as a hint and take membership from the group-state events."},
	{ID: "identity/notices.12", Section: "identity/notices", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A channel keeps the type it was created with, so later notices carry the same type tag; an edit cannot change it."},

	// Asking for system channels.
	{ID: "identity/asking-for-system.1", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A filter whose kinds all lie in 39000-39003 and whose #t includes system also returns the system channels the reader may read."},
	{ID: "identity/asking-for-system.2", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A filter whose kinds all lie in 39000-39003 and that has any #P also returns readable system channels."},
	{ID: "identity/asking-for-system.3", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "The opt-in needs every kind in 39000-39003: #t system or #P on a filter with other kinds or no kinds adds no system channel."},
	{ID: "identity/asking-for-system.4", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Once opted in, the filter still matches normally: #P returns only the named creators' channels, #t system only system-typed ones."},
	{ID: "identity/asking-for-system.5", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A label value in #t on its own does not opt in to system channels."},
	{ID: "identity/asking-for-system.6", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "#t with system and a label is an OR: it returns system channels plus any channel carrying the label, not system channels with that label."},
	{ID: "identity/asking-for-system.7", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "Opting in never reveals a private system channel to a non-member."},
	{ID: "identity/asking-for-system.8", Section: "identity/asking-for-system", Level: LevelRule, Subject: SubjectRelay, Testable: false, Reason: reasonNoLaterType,
		Text: "The opt-in adds system channels only; channels of later types reach only filters that name them."},

	// Advertising support.
	{ID: "identity/advertising.1", Section: "identity/advertising", Level: LevelMustNot, Subject: SubjectRelay, Testable: true,
		Text: "Until the draft has an upstream NIP number, NIP-11 supported_nips does not advertise it (no entry naming NIP-CL, such as nip-cl)."},
	{ID: "identity/advertising.2", Section: "identity/advertising", Level: LevelRule, Subject: SubjectRelay, Testable: true,
		Text: "A supporting relay lists nip-cl in the NIP-11 supported_extensions array."},
	{ID: "identity/advertising.3", Section: "identity/advertising", Level: LevelShouldNot, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients avoid creating labeled or system channels on relays whose NIP-11 lacks nip-cl."},
	{ID: "identity/advertising.4", Section: "identity/advertising", Level: LevelRule, Subject: SubjectRelay, Testable: false,
		Reason: "describes relays that lack the draft (they drop label tags and refuse system); a target under this profile claims the draft",
		Text:   "A relay lacking the draft ignores label t tags on a 9007 and refuses system as a channel type."},

	// Trust.
	{ID: "identity/trust.1", Section: "identity/trust", Level: LevelMust, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients relying on identity tags verify that the relay's key signed the state event."},
	{ID: "identity/trust.2", Section: "identity/trust", Level: LevelRule, Subject: SubjectClient, Testable: false, Reason: reasonClient,
		Text: "Clients draw no trust from labels; only P identifies a channel's creator."},
}
