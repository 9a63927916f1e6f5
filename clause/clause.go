// Package clause names the sections of the specifications the harness tests.
//
// A section ID is "<doc>/<slug>". Every conformance case cites exactly one
// section; every reference-relay fault names the section it breaks. The list
// is the single source the catalogue, the reports and the kill test read.
package clause

import "sort"

// Section is one citable part of a specification.
type Section struct {
	ID    string // stable, e.g. "labels/snapshot"
	Doc   string // document the section belongs to
	Title string // heading in that document
}

// Documents cited by sections.
const (
	DocNIP01    = "NIP-01"
	DocNIP11    = "NIP-11"
	DocNIP42    = "NIP-42"
	DocNIP45    = "NIP-45"
	DocNIP29    = "NIP-29"
	DocContract = "target contract"
	DocIdentity = "nip-cl-identity.md"
	DocLabels   = "nip-cl-labels.md"
)

var sections = []Section{
	// NIP-01/11/42/45, current nostr-protocol/nips text.
	{"nip01/event-validation", DocNIP01, "Events and signatures: id and sig"},
	{"nip01/filters", DocNIP01, "Communication between clients and relays: filters and limit"},
	{"nip01/live", DocNIP01, "Communication between clients and relays: live delivery"},
	{"nip01/subscriptions", DocNIP01, "Subscriptions: REQ under an open id, CLOSE, ids per connection, EOSE"},
	{"nip01/limit", DocNIP01, "Filters: limit on the initial answer, one limit per filter"},
	{"nip01/ok-prefix", DocNIP01, "From relay to client: OK and CLOSED machine-readable prefixes"},
	{"nip01/replaceable", DocNIP01, "Kinds: replaceable and addressable events, equal created_at"},
	{"nip01/replaceable-kinds", DocNIP01, "Kinds: replaceable events (0, 3, 10000-19999), the latest version"},
	{"nip11/document", DocNIP11, "Relay information document"},
	{"nip42/auth", DocNIP42, "Authentication of clients to relays"},
	{"nip42/verify", DocNIP42, "Signed event verification: kind, created_at, challenge"},
	{"nip45/count", DocNIP45, "Event counts"},
	{"nip45/filters", DocNIP45, "Event counts: several filters OR'd into one count"},
	{"nip45/hll", DocNIP45, "Event counts: HyperLogLog registers"},
	// NIP-29, current text.
	{"nip29/create", DocNIP29, "Moderation events: create-group"},
	{"nip29/state-events", DocNIP29, "Group metadata events: relay-signed 39000-39003"},
	{"nip29/state-follow", DocNIP29, "Group metadata events: every state event follows every command that changes it"},
	{"nip29/metadata", DocNIP29, "edit-metadata (9002) and group metadata (39000) fields and flags"},
	{"nip29/membership", DocNIP29, "Group management: put-user / remove-user, 39001 and 39002"},
	{"nip29/roles", DocNIP29, "Group roles (39003)"},
	{"nip29/join", DocNIP29, "User-related group management: join request (9021)"},
	{"nip29/leave", DocNIP29, "User-related group management: leave request (9022)"},
	{"nip29/delete", DocNIP29, "Moderation events: delete-group"},
	{"nip29/deleted-group", DocNIP29, "A group after its accepted delete-group (9008): state, joins, reads"},
	{"nip29/read-access", DocNIP29, "Group metadata: the private flag"},
	{"nip29/hidden", DocNIP29, "Group metadata: the hidden flag"},
	{"nip29/restricted", DocNIP29, "Group metadata: the restricted flag"},
	{"nip29/permissions", DocNIP29, "Group state -- or moderation: who may moderate"},
	{"nip29/late-publication", DocNIP29, "Late publication"},
	{"nip29/moderation", DocNIP29, "Group state -- or moderation: the moderation-event table (9000-9010)"},
	{"nip29/delete-event", DocNIP29, "Moderation events: delete-event (9005)"},
	{"nip29/timeline", DocNIP29, "Timeline references (previous)"},
	{"nip29/admins", DocNIP29, "Group metadata events: group admins (39001)"},
	{"nip29/group-ids", DocNIP29, "Group ids: a random string of any length"},
	{"nip29/invites", DocNIP29, "create-invite (9009) and invite codes on join requests to closed groups"},
	{"nip29/subgroups", DocNIP29, "Subgroups: parent and child tags, rules, membership"},
	{"nip29/pins", DocNIP29, "update-pin-list (9010) and group pinned events (39005)"},
	{"nip29/livekit", DocNIP29, "Live audio/video (AV) spaces: the well-known endpoints"},
	{"nip29/clients", DocNIP29, "What NIP-29 asks of clients: trusting state, flags, membership, timeline references, migration, subgroups, invites"},

	// Identity draft (nip-cl-identity.md).
	{"identity/identity-tags", DocIdentity, "Channel identity tags"},
	{"identity/creator", DocIdentity, "Channel identity tags: Creator"},
	{"identity/creation-time", DocIdentity, "Channel identity tags: Creation time"},
	{"identity/older-events", DocIdentity, "Channel identity tags: Older events"},
	{"identity/labels", DocIdentity, "Channel labels"},
	{"identity/label-rules", DocIdentity, "Channel labels: Rules"},
	{"identity/finding-channels", DocIdentity, "Finding channels"},
	{"identity/match-before-limit", DocIdentity, "Finding channels: #t and #P are matched before limit"},
	{"identity/choosing-one-channel", DocIdentity, "Choosing one channel"},
	{"identity/system-channels", DocIdentity, "System channels"},
	{"identity/reads-leave-out", DocIdentity, "System channels: Reads that leave system channels out"},
	{"identity/naming", DocIdentity, "System channels: a filter names a channel"},
	{"identity/notices", DocIdentity, "System channels: Membership notices carry the channel type"},
	{"identity/asking-for-system", DocIdentity, "System channels: Asking for system channels"},
	{"identity/advertising", DocIdentity, "Advertising support"},
	{"identity/trust", DocIdentity, "Trust"},

	// Labels draft (nip-cl-labels.md).
	{"labels/scope", DocLabels, "Scope"},
	{"labels/capability", DocLabels, "Capability discovery"},
	{"labels/values-and-limits", DocLabels, "Label values and limits"},
	{"labels/events", DocLabels, "Events (command shape, misplaced tags, h tag)"},
	{"labels/initial-labels", DocLabels, "Initial labels: kind 9007"},
	{"labels/add-remove", DocLabels, "Add and remove labels: kind 9002"},
	{"labels/snapshot", DocLabels, "Metadata snapshot: kind 39000"},
	{"labels/finding-channels", DocLabels, "Finding channels"},
	{"labels/authorization", DocLabels, "Authorization and visibility"},
	{"labels/community", DocLabels, "Authorization and visibility: community scope"},
	{"labels/application", DocLabels, "Application and publication guarantees"},
	{"labels/serialization", DocLabels, "Application and publication guarantees: serialized mutations and publication"},
	{"labels/retry-admission", DocLabels, "Acknowledgements, retries and recovery: Retry admission"},
	{"labels/responses", DocLabels, "Acknowledgements, retries and recovery: Responses and client outcomes"},
	{"labels/retention", DocLabels, "Retention"},
	{"labels/compatibility", DocLabels, "Compatibility and security considerations"},
}

var byID = func() map[string]Section {
	m := make(map[string]Section, len(sections))
	for _, s := range sections {
		m[s.ID] = s
	}
	return m
}()

// Sections returns every known section, sorted by ID.
func Sections() []Section {
	out := append([]Section(nil), sections...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the section with the given ID.
func Lookup(id string) (Section, bool) {
	s, ok := byID[id]
	return s, ok
}
