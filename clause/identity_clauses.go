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
	identityDraft("identity/identity-tags.1", LevelMust,
		"On each relay-signed 39000, 39001 and 39002 of a channel, the first t tag holds the channel type."),
	identityDraft("identity/identity-tags.2", LevelMust,
		"The type tag is followed by one t tag per channel label, in the channel's stored label order."),
	identityDraft("identity/identity-tags.3", LevelMust,
		"A P tag with the creator's hex key comes after the type and label t tags, and no other t or P tag precedes these identity tags."),
	identityDraft("identity/identity-tags.4", LevelMust,
		"Clients take the channel type from the first t tag only and treat every later t tag as a label.").client(reasonClient),

	// Creator.
	identityDraft("identity/creator.1", LevelRule,
		"P holds the key that signed the 9007 that created the channel, taken from the relay's own record."),
	identityDraft("identity/creator.2", LevelRule,
		"No client can choose P: a P tag sent in a 9007 or 9002 does not alter the creator the relay writes."),
	identityDraft("identity/creator.3", LevelRule,
		"P stays the original creator after ownership passes to another member."),
	identityDraft("identity/creator.4", LevelRule,
		"P stays the original creator after the channel is edited."),

	// Creation time.
	identityDraft("identity/creation-time.1", LevelRule,
		"The 39000 carries a created_at tag: the channel's creation time as decimal unix seconds (relay clock or the 9007's created_at)."),
	identityDraft("identity/creation-time.2", LevelRule,
		"The created_at tag keeps its value when the channel is edited or its membership changes."),
	identityDraft("identity/creation-time.3", LevelRule,
		"Clients compare channel ages by the created_at tag, not by the state event's own created_at.").client(reasonClient),

	// Older events.
	identityDraft("identity/older-events.1", LevelRule,
		"Identity tags appear only on state events published after the relay gained the draft; older ones may lack them until the channel next changes.").untestable(reasonPreUpgrade),
	identityDraft("identity/older-events.2", LevelMust,
		"Clients read an absent identity tag as unknown; a missing P says nothing about who created the channel.").client(reasonClient),

	// Channel labels.
	identityDraft("identity/labels.1", LevelRule,
		"Label values carry no meaning for the relay.").
		untestable("an unbounded negative (no relay behaviour depends on a label value); its observable parts are identity/choosing-one-channel.1 and identity/asking-for-system.5"),
	identityDraft("identity/labels.2", LevelMay,
		"A 9007 may set up to 8 distinct labels as t tags, and the relay publishes them on the new channel."),
	identityDraft("identity/labels.3", LevelRule,
		"On a 9002, the t tags present become the complete new label set (replace-all)."),
	identityDraft("identity/labels.4", LevelRule,
		"On a 9002, t tags that are all empty-valued empty the label set."),
	identityDraft("identity/labels.5", LevelRule,
		"A 9002 without any t tag leaves the label set unchanged."),
	identityDraft("identity/labels.6", LevelMay,
		"Owners and admins (not only owners) may change a channel's labels."),
	identityDraft("identity/labels.7", LevelRule,
		"A label change from a plain member or a non-member is refused and the labels stay as they were."),

	// Label rules.
	identityDraft("identity/label-rules.1", LevelMust,
		"An event with more than 8 distinct labels is refused as a whole."),
	identityDraft("identity/label-rules.2", LevelMust,
		"An event with a label outside 1-64 characters of a-z, 0-9, '.', ':' and '-' is refused as a whole."),
	identityDraft("identity/label-rules.3", LevelMustNot,
		"A channel-type name (stream, forum, dm, workflow, system) is never accepted as a label; the event carrying it is refused."),
	identityDraft("identity/label-rules.4", LevelMust,
		"An event mixing an empty-valued t tag with real labels is refused as a whole."),
	identityDraft("identity/label-rules.5", LevelMust,
		"A refused label event changes nothing: no channel from a 9007, no name or other field from a 9002."),
	identityDraft("identity/label-rules.6", LevelRule,
		"A repeated label is stored once and counts once toward the limit of 8."),
	identityDraft("identity/label-rules.7", LevelRule,
		"Several empty-valued t tags on a 9002 clear the label set exactly as a single one does."),

	// Finding channels.
	identityDraft("identity/finding-channels.1", LevelRule,
		"A 39000 filter with #P lists the channels the given keys created."),
	identityDraft("identity/finding-channels.2", LevelRule,
		"A 39000 filter with #t on a label lists the channels carrying that label."),
	identityDraft("identity/finding-channels.3", LevelRule,
		"#P and #t in one filter both have to match (one creator's channels with a label)."),
	identityDraft("identity/finding-channels.4", LevelRule,
		"A 39000 filter with #t on a type name lists the channels of that type."),
	identityDraft("identity/finding-channels.5", LevelRule,
		"Several values in one tag filter are alternatives: #t with two labels finds channels having either."),
	identityDraft("identity/finding-channels.6", LevelRule,
		"A #P filter cannot return channels whose state events predate the draft and so lack P.").untestable(reasonPreUpgrade),
	identityDraft("identity/match-before-limit.1", LevelMust,
		"#t is matched before limit: an older channel with the label is returned even behind newer channels without it."),
	identityDraft("identity/match-before-limit.2", LevelMust,
		"#P is matched before limit: an older channel of the creator is returned even behind newer channels of other keys."),

	// Choosing one channel.
	identityDraft("identity/choosing-one-channel.1", LevelRule,
		"Labels are not unique: two creates with the same label, even by the same key, both succeed."),
	identityDraft("identity/choosing-one-channel.2", LevelRule,
		"Any owner or admin may put any label on their channel, including one other keys already use."),
	identityDraft("identity/choosing-one-channel.3", LevelRule,
		"A client wanting one channel per creator and label queries #P+#t first, creates only on an empty result, and keeps the oldest when several exist.").client(reasonClient),
	identityDraft("identity/choosing-one-channel.4", LevelRule,
		"Oldest means the smallest integer created_at tag, ties broken by the smaller d string; channels without the tag rank last and among themselves by d.").client(reasonClient),

	// System channels.
	identityDraft("identity/system-channels.1", LevelRule,
		"A 9007 with channel_type system creates a channel whose type tag reads system."),
	identityDraft("identity/system-channels.2", LevelRule,
		"A system channel is private unless its 9007 also asks for open visibility."),
	identityDraft("identity/system-channels.3", LevelRule,
		"The 39000 of a private system channel carries the NIP-29 hidden tag."),
	identityDraft("identity/system-channels.4", LevelRule,
		"Apart from discovery, a system channel behaves like any channel: members, roles, messages and labels work as usual."),

	// Reads that leave system channels out.
	identityDraft("identity/reads-leave-out.1", LevelRule,
		"A filter without #h that does not name a channel or opt in returns no state events of system channels, even to members."),
	identityDraft("identity/reads-leave-out.2", LevelRule,
		"A message filter without #h returns no messages posted in system channels, even to members."),
	identityDraft("identity/reads-leave-out.3", LevelRule,
		"A 39002 filter on #p of the reader (their memberships) leaves system channels out unless it opts in."),
	identityDraft("identity/reads-leave-out.4", LevelRule,
		"COUNT leaves system channels out on the same terms as REQ."),
	identityDraft("identity/reads-leave-out.5", LevelRule,
		"NIP-50 search leaves system channels out on the same terms as REQ (where the relay offers search)."),
	identityDraft("identity/reads-leave-out.6", LevelRule,
		"An open subscription that does not name a system channel is not sent its new state events or messages."),
	identityDraft("identity/reads-leave-out.7", LevelRule,
		"Relay-specific query APIs performing the same reads leave system channels out too.").untestable(reasonRelayAPI),
	identityDraft("identity/reads-leave-out.8", LevelRule,
		"Unnamed reads return only the frozen legacy types (stream, forum, dm, workflow); any type added later is left out as well.").untestable(reasonNoLaterType),
	identityDraft("identity/reads-leave-out.9", LevelMustNot,
		"The relay sends no push notifications for system channels.").
		untestable("push notifications travel through platform push services, not the Nostr connection the harness observes"),

	// A filter names a channel.
	identityDraft("identity/naming.1", LevelRule,
		"A filter with the channel's UUID in #h names it: a member (or anyone, if open) reads a system channel's messages that way."),
	identityDraft("identity/naming.2", LevelRule,
		"#d with the UUID names the channel only when every kind in the filter lies in 39000-39003; then its state events are returned."),
	identityDraft("identity/naming.3", LevelRule,
		"#d on a filter with no kinds or with a kind outside 39000-39003 does not name the channel, so system channels stay out."),
	identityDraft("identity/naming.4", LevelRule,
		"Naming does not bypass access: a non-member naming a private system channel reads nothing; an open one is readable by anyone."),
	identityDraft("identity/naming.5", LevelRule,
		"The decision is per filter: a filter that names a system channel does not make it appear in another filter of the same request."),
	identityDraft("identity/naming.6", LevelRule,
		"Naming works the same for a channel of a type added later as for a system channel.").untestable(reasonNoLaterType),

	// Membership notices.
	identityDraft("identity/notices.1", LevelRule,
		"Every 44100 and 44101 notice carries a t tag with the channel's type (system for system channels)."),
	identityDraft("identity/notices.2", LevelRule,
		"Notices are stored: the member they name can read them back later in REQ history."),
	identityDraft("identity/notices.3", LevelMust,
		"On 44100/44101, a filter with #t matches a notice only if the notice's type is among the #t values."),
	identityDraft("identity/notices.4", LevelMust,
		"On 44100/44101, a filter without #t matches only notices of legacy types, so system-channel notices are left out."),
	identityDraft("identity/notices.5", LevelMust,
		"A stored notice without a t tag counts as every legacy type: it matches a filter without #t and one whose #t names a legacy type.").untestable(reasonPreUpgrade),
	identityDraft("identity/notices.6", LevelMust,
		"The notice type rule also governs live delivery to open subscriptions."),
	identityDraft("identity/notices.7", LevelMust,
		"The notice type rule also governs COUNT."),
	identityDraft("identity/notices.8", LevelMust,
		"The notice type rule also governs relay-specific query APIs.").untestable(reasonRelayAPI),
	identityDraft("identity/notices.9", LevelRule,
		"A 44100/44101 is returned, counted or delivered only to the key in its p tag; a #p naming someone else yields nothing."),
	identityDraft("identity/notices.10", LevelRule,
		"Knowing a notice's id does not help: an ids filter from anyone but the named member returns, counts and delivers nothing."),
	identityDraft("identity/notices.11", LevelRule,
		"Clients treat a notice as a hint and take membership from the group-state events.").client(reasonClient),
	identityDraft("identity/notices.12", LevelRule,
		"A channel keeps the type it was created with, so later notices carry the same type tag; an edit cannot change it."),

	// Asking for system channels.
	identityDraft("identity/asking-for-system.1", LevelRule,
		"A filter whose kinds all lie in 39000-39003 and whose #t includes system also returns the system channels the reader may read."),
	identityDraft("identity/asking-for-system.2", LevelRule,
		"A filter whose kinds all lie in 39000-39003 and that has any #P also returns readable system channels."),
	identityDraft("identity/asking-for-system.3", LevelRule,
		"The opt-in needs every kind in 39000-39003: #t system or #P on a filter with other kinds or no kinds adds no system channel."),
	identityDraft("identity/asking-for-system.4", LevelRule,
		"Once opted in, the filter still matches normally: #P returns only the named creators' channels, #t system only system-typed ones."),
	identityDraft("identity/asking-for-system.5", LevelRule,
		"A label value in #t on its own does not opt in to system channels."),
	identityDraft("identity/asking-for-system.6", LevelRule,
		"#t with system and a label is an OR: it returns system channels plus any channel carrying the label, not system channels with that label."),
	identityDraft("identity/asking-for-system.7", LevelRule,
		"Opting in never reveals a private system channel to a non-member."),
	identityDraft("identity/asking-for-system.8", LevelRule,
		"The opt-in adds system channels only; channels of later types reach only filters that name them.").untestable(reasonNoLaterType),

	// Advertising support.
	identityDraft("identity/advertising.1", LevelMustNot,
		"Until the draft has an upstream NIP number, NIP-11 supported_nips does not advertise it (no entry naming NIP-CL, such as nip-cl)."),
	identityDraft("identity/advertising.2", LevelRule,
		"A supporting relay lists nip-cl in the NIP-11 supported_extensions array."),
	identityDraft("identity/advertising.3", LevelShouldNot,
		"Clients avoid creating labeled or system channels on relays whose NIP-11 lacks nip-cl.").client(reasonClient),
	identityDraft("identity/advertising.4", LevelRule,
		"A relay lacking the draft ignores label t tags on a 9007 and refuses system as a channel type.").
		untestable("describes relays that lack the draft (they drop label tags and refuse system); a target under this profile claims the draft"),

	// Trust.
	identityDraft("identity/trust.1", LevelMust,
		"Clients relying on identity tags verify that the relay's key signed the state event.").client(reasonClient),
	identityDraft("identity/trust.2", LevelRule,
		"Clients draw no trust from labels; only P identifies a channel's creator.").client(reasonClient),
}
