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
	DocNIP29    = "NIP-29 (target contract)"
	DocIdentity = "nip-cl-identity.md"
	DocLabels   = "nip-cl-labels.md"
)

var sections = []Section{
	// NIP-01/11/42/45 prerequisites.
	{"nip01/event-validation", DocNIP01, "Event id, signature and timestamp window"},
	{"nip01/filters", DocNIP01, "REQ filters, EOSE and limit"},
	{"nip01/live", DocNIP01, "Live delivery to open subscriptions"},
	{"nip01/malformed", DocNIP01, "Malformed frames answered with NOTICE"},
	{"nip11/document", DocNIP11, "Relay information document"},
	{"nip42/auth", DocNIP42, "Authentication of writes"},
	{"nip45/count", DocNIP45, "COUNT"},
	// NIP-29 as the target contract uses it.
	{"nip29/create", DocNIP29, "9007 create group"},
	{"nip29/state-events", DocNIP29, "Relay-signed 39000-39002 state events"},
	{"nip29/edit", DocNIP29, "9002 edit metadata"},
	{"nip29/membership", DocNIP29, "9000 put user / 9001 remove user"},
	{"nip29/delete", DocNIP29, "9008 delete group"},
	{"nip29/read-access", DocNIP29, "Private channels readable only by members"},
	{"nip29/permissions", DocNIP29, "Only owners and admins moderate"},

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
