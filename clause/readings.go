package clause

import (
	"fmt"
	"sort"
	"strings"
)

// Reading is one point where a specification leaves a choice open: a
// careful implementer may take any of its Values, so every check that
// touches the point must accept each of them, and the report says which one
// a target took. Cases that observe the point note it as
// "reading: <ID>=<value>" (see suites.T.Reading); the reference relay has a
// switch per reading (reference.Config.Readings, `serve --reading ID=VALUE`)
// and the readings proof test (conformance/readings) runs the whole suite
// against the reference relay under every value.
type Reading struct {
	ID string // stable switch name, e.g. "identity-created-at"
	// Profile is the only harness profile the reading applies to
	// ("nip29", "identity" or "labels"); "" = every profile (a NIP-29 point
	// that every profile's relay meets).
	Profile string
	Section string // the Section the open sentence belongs to
	Ref     string // where the sentence is ("nip-cl-identity.md § Channel identity tags")
	// Open is the sentence that leaves the choice open, paraphrased, and
	// why it is open.
	Open string
	// Values are the careful readings; the first is the default (what the
	// reference relay does unless told otherwise).
	Values []ReadingValue
	// Cases are the case IDs that observe the point and note which value a
	// target took.
	Cases []string
}

// ReadingValue is one careful reading of an open point.
type ReadingValue struct {
	Name    string // switch value, e.g. "relay-clock"
	Meaning string // what a relay that takes this reading does
}

// Default is the reading the reference relay takes unless told otherwise.
func (r Reading) Default() string { return r.Values[0].Name }

// Has reports whether v is one of the reading's values.
func (r Reading) Has(v string) bool {
	for _, x := range r.Values {
		if x.Name == v {
			return true
		}
	}
	return false
}

// ValueNames lists the reading's values, the default first.
func (r Reading) ValueNames() []string {
	out := make([]string, len(r.Values))
	for i, v := range r.Values {
		out[i] = v.Name
	}
	return out
}

// AppliesTo reports whether the reading applies to a relay of the given
// profile (CanonicalProfile: "none" is the old name of "nip29").
func (r Reading) AppliesTo(profile string) bool {
	profile = CanonicalProfile(profile)
	return r.Profile == "" || r.Profile == profile
}

// Reading IDs. Each has exactly one switch in the reference relay.
const (
	ReadingIdentityCreatedAt     = "identity-created-at"
	ReadingIdentityCreatorNotice = "identity-creator-notice"
	ReadingIdentitySystemNotices = "identity-system-notices"
	ReadingIdentityLabelOrder    = "identity-label-order"
	ReadingIdentityStateKinds    = "identity-state-kinds"
	ReadingLabelsCreatePrefix    = "labels-scope-create-prefix"
	ReadingLabelsMutationPrefix  = "labels-scope-mutation-prefix"
	ReadingLabelsDeletedPrefix   = "labels-deleted-prefix"
	ReadingLabelsLimitPrefix     = "labels-state-limit-prefix"
	ReadingLabelsUUIDAcross      = "labels-uuid-across-communities"
	ReadingLabelsLive            = "labels-live-snapshots"
	ReadingLabelsMixedExtended   = "labels-mixed-extended-fields"
	ReadingLabelsDeletedCreate   = "labels-deleted-create-retry"
	ReadingLabelsMalformedUsedH  = "labels-malformed-used-h"
	ReadingNIP29RolelessPut      = "nip29-roleless-put-user"
	ReadingNIP29EditMetadata     = "nip29-edit-metadata"
	ReadingNIP29JoinOpen         = "nip29-join-open-group"
)

const (
	refIdentityTags    = "nip-cl-identity.md § Channel identity tags"
	refIdentityNotices = "nip-cl-identity.md § System channels: Membership notices carry the channel type"
	refLabelsScope     = "nip-cl-labels.md § Scope, with § Responses and client outcomes"
)

var readings = []Reading{
	{ID: ReadingIdentityCreatedAt, Profile: "identity", Section: "identity/creation-time", Ref: refIdentityTags + ": Creation time",
		Open: `kind:39000 carries ["created_at", <unix seconds>], "the time the channel was created". The draft does not say whose clock: the relay's when it applied the 9007, or the 9007's own created_at (the relay admitted it, so it lies within the ±900 s window).`,
		Values: []ReadingValue{
			{"relay-clock", "the tag is the relay's clock when it applied the 9007"},
			{"command", "the tag is the created_at of the 9007 that created the channel"},
		},
		Cases: []string{"identity/tags/5"}},
	{ID: ReadingIdentityCreatorNotice, Profile: "identity", Section: "identity/notices", Ref: refIdentityNotices,
		Open: "The draft says what every 44100/44101 carries and who may read it; it never says whether the creator, who becomes a member (owner) by the 9007 itself, gets a 44100 for that.",
		Values: []ReadingValue{
			{"sent", "the creator gets a 44100 for the channel it created"},
			{"not-sent", "creating a channel produces no notice; only later membership changes do"},
		},
		Cases: []string{"identity/notices/1"}},
	{ID: ReadingIdentitySystemNotices, Profile: "identity", Section: "identity/notices", Ref: refIdentityNotices,
		Open: `The newest text defines what a notice carries (["t", "system"] for a system channel) and which filters see it, not that a system channel's membership changes produce notices; "the relay MUST NOT send push notifications for system channels" may be read to cover them.`,
		Values: []ReadingValue{
			{"sent", "a system channel's membership changes produce 44100/44101 like any channel's"},
			{"not-sent", "a system channel's membership changes produce no notices"},
		},
		Cases: []string{"identity/notices/1", "identity/notices/2", "identity/notices/4", "identity/notices/8"}},
	{ID: ReadingIdentityLabelOrder, Profile: "identity", Section: "identity/identity-tags", Ref: refIdentityTags,
		Open: `The label t tags come "in stored order"; the draft does not define the stored order beyond that repeated labels are stored once.`,
		Values: []ReadingValue{
			{"command", "labels are stored (and listed) in the order of the command's first t tag for each"},
			{"sorted", "labels are stored (and listed) sorted"},
		},
		Cases: []string{"identity/tags/1"}},
	{ID: ReadingIdentityStateKinds, Profile: "identity", Section: "identity/identity-tags", Ref: refIdentityTags + ", with § System channels",
		Open: "The identity tags go on every channel-state event the relay signs; the tag table and the introduction name kinds 39000-39002, the system-channel section names 39000-39003.",
		Values: []ReadingValue{
			{"39000-39002", "a 39003 (group roles) carries no identity tags"},
			{"39000-39003", "a 39003 carries the identity tags too"},
		},
		Cases: []string{"identity/tags/1"}},
	{ID: ReadingLabelsCreatePrefix, Profile: "labels", Section: "labels/scope", Ref: refLabelsScope,
		Open: "Relays MUST reject initial labels for every channel type but stream and forum (dm, workflow …). The prefix table gives invalid: to malformed commands and restricted: to permission or lifecycle denials; an out-of-scope type is neither, so either prefix (with the fixed nip-cl-rejected marker) is careful.",
		Values: []ReadingValue{
			{"invalid", "a labeled 9007 of a dm or workflow channel is refused invalid: nip-cl-rejected (the command is malformed for its type)"},
			{"restricted", "it is refused restricted: nip-cl-rejected (labels are not permitted on that type)"},
		},
		Cases: []string{"labels/scope/1", "labels/scope/3"}},
	{ID: ReadingLabelsMutationPrefix, Profile: "labels", Section: "labels/scope", Ref: refLabelsScope,
		Open: "The same open point for label mutations: relays MUST reject label mutations on dm and workflow channels, with no prefix fixed for it.",
		Values: []ReadingValue{
			{"restricted", "a label mutation on a dm or workflow channel is refused restricted: nip-cl-rejected"},
			{"invalid", "it is refused invalid: nip-cl-rejected"},
		},
		Cases: []string{"labels/scope/2", "labels/scope/4"}},
	{ID: ReadingLabelsDeletedPrefix, Profile: "labels", Section: "labels/scope", Ref: "nip-cl-labels.md § Scope, with § Retry admission and § Responses and client outcomes",
		Open: "Deleted channels MUST NOT accept label mutations, and a retry needs the channel to exist and be undeleted. A deletion is a lifecycle denial (restricted:), but a relay that treats a deleted channel as gone reads the command as naming an unknown channel (invalid:).",
		Values: []ReadingValue{
			{"restricted", "a label mutation or retry on a deleted channel is refused restricted: nip-cl-rejected"},
			{"invalid", "it is refused invalid: nip-cl-rejected (unknown channel)"},
		},
		Cases: []string{"labels/scope/6", "labels/retry/4", "labels/retry/6"}},
	{ID: ReadingLabelsLimitPrefix, Profile: "labels", Section: "labels/values-and-limits", Ref: "nip-cl-labels.md § Label values and limits, with § Responses and client outcomes",
		Open: "A relay MUST reject a command whose resulting snapshot would exceed a limit (32 stored labels). A well-formed mutation that exceeds it only because of the channel's current labels is neither a malformed command (invalid:) nor a permission or lifecycle denial (restricted:); the prefix table names no prefix for a state limit.",
		Values: []ReadingValue{
			{"invalid", "a mutation whose result would exceed 32 labels is refused invalid: nip-cl-rejected"},
			{"restricted", "it is refused restricted: nip-cl-rejected"},
		},
		Cases: []string{"labels/limits/5"}},
	{ID: ReadingLabelsUUIDAcross, Profile: "labels", Section: "labels/community", Ref: "nip-cl-labels.md § Authorization and visibility, with § Initial labels: kind 9007",
		Open: "Label state, evidence and delivery are scoped to the community (Host), and a used or deleted UUID MUST NOT be reused for creation; the draft does not say whether a UUID used in one community is used in another.",
		Values: []ReadingValue{
			{"separate", "each community has its own UUIDs: the same UUID creates an independent channel in another community"},
			{"refused", "a UUID used in any community is taken: a create of it in another community is refused duplicate: nip-cl-rejected, disclosing nothing"},
		},
		Cases: []string{"labels/community/2"}},
	{ID: ReadingLabelsLive, Profile: "labels", Section: "labels/application", Ref: "nip-cl-labels.md § Application and publication guarantees, with § Finding channels",
		Open: "The guarantees do not require successful delivery of every live notification, and the draft promises no global live metadata feed: a relay may deliver every snapshot live or coalesce a burst into the latest one.",
		Values: []ReadingValue{
			{"every", "every 39000 snapshot is delivered live to the subscriptions it matches"},
			{"latest", "snapshots of one channel published in quick succession are coalesced: only the latest still current one is delivered live"},
		},
		Cases: []string{"labels/snapshot/5"}},
	{ID: ReadingLabelsMixedExtended, Profile: "labels", Section: "labels/add-remove", Ref: "nip-cl-labels.md § Label mutations, with § Authorization and visibility",
		Open: "A label mutation MUST be label-only: it MUST NOT also change topic, purpose or TTL, and unknown-tag handling MUST NOT let a label operation bypass metadata authorization. The draft gives no tag names for topic, purpose or TTL, so a relay without such fields may ignore the tags (nothing but labels changes) or reject the command.",
		Values: []ReadingValue{
			{"rejected", "a label mutation carrying [\"topic\"], [\"purpose\"] or [\"ttl\"] is refused invalid: nip-cl-rejected and applies nothing"},
			{"ignored", "those tags are ignored: the label operation applies and no other field changes"},
		},
		Cases: []string{"labels/add-remove/9", "labels/add-remove/13"}},
	{ID: ReadingLabelsDeletedCreate, Profile: "labels", Section: "labels/retry-admission", Ref: "nip-cl-labels.md § Retry admission, with § Initial labels: kind 9007",
		Open: "A retry needs the channel to exist and be undeleted, and a different creation event targeting an existing or deleted UUID MUST be rejected as a conflict. A retried create of a deleted channel is refused either way; a relay may answer it as a lifecycle denial (as the reading labels-deleted-prefix says) or as a create of a used UUID (duplicate:).",
		Values: []ReadingValue{
			{"lifecycle", "a retried create of a deleted channel is refused like any command on a deleted channel (restricted: or invalid:, nip-cl-rejected)"},
			{"conflict", "it is refused as a create of a used UUID: duplicate: nip-cl-rejected"},
		},
		Cases: []string{"labels/retry/6"}},
	{ID: ReadingLabelsMalformedUsedH, Profile: "labels", Section: "labels/events", Ref: "nip-cl-labels.md § Responses and client outcomes, with § Initial labels: kind 9007",
		Open: "A 9007 whose h tag has extra elements but names an existing channel is both malformed (invalid:) and a create of a used UUID (duplicate:); the draft does not order the two checks.",
		Values: []ReadingValue{
			{"invalid", "the malformed h tag is refused first: invalid: nip-cl-rejected"},
			{"duplicate", "the used UUID its first value names is refused first: duplicate: nip-cl-rejected"},
		},
		Cases: []string{"labels/commands/17"}},
	{ID: ReadingNIP29RolelessPut, Section: "nip29/membership", Ref: "NIP-29 § Group management, with § Moderation events (put-user)",
		Open: `put-user takes "p with pubkey hex and optional roles", and a 9000 on an existing member means "the user roles must just be updated". A 9000 with no roles on a member who has one may update nothing (keep) or update the roles to none (reset).`,
		Values: []ReadingValue{
			{"keep", "a role-less 9000 on an existing member keeps the member's role"},
			{"reset", "a role-less 9000 on an existing member resets it to a plain member (no privileged role)"},
		},
		Cases: []string{"base/membership/6"}},
	{ID: ReadingNIP29EditMetadata, Section: "nip29/metadata", Ref: "NIP-29 § Moderation events (edit-metadata), with § Group metadata events",
		Open: `edit-metadata carries "all the fields of group-metadata", and the group state must be reconstructible from the sequence of moderation events. A 9002 may be read as a patch (absent fields and flags are kept) or as the whole new metadata (absent name/about/picture cleared, absent flags cleared). Only 9002s that carry NIP-29 metadata fields are concerned: a label-only 9002 never touches metadata.`,
		Values: []ReadingValue{
			{"patch", "a 9002 changes only the fields and flags it carries"},
			{"replace", "a 9002 that carries any NIP-29 metadata field or flag replaces them all: absent fields are cleared and absent flags unset"},
		},
		Cases: []string{"base/edit/2"}},
	{ID: ReadingNIP29JoinOpen, Section: "nip29/join", Ref: "NIP-29 § User-related group management events: join request, with § Implementation quirks",
		Open: `On a join request to a group that is not closed, "the relay may then generate a kind:9000 event immediately, or defer that decision to an administrator"; a request that does not add the user MUST be rejected, ideally saying it is pending review.`,
		Values: []ReadingValue{
			{"admit", "a join request to an open group adds the user at once (OK true, relay-signed 9000)"},
			{"review", "every join request waits for an administrator: it is refused (restricted: pending review) and nobody is added"},
		},
		Cases: []string{"base/join/1"}},
}

var readingByID = func() map[string]Reading {
	m := make(map[string]Reading, len(readings))
	for _, r := range readings {
		m[r.ID] = r
	}
	return m
}()

// Readings returns every reading, sorted by ID.
func Readings() []Reading {
	out := append([]Reading(nil), readings...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LookupReading returns the reading with the given ID.
func LookupReading(id string) (Reading, bool) {
	r, ok := readingByID[id]
	return r, ok
}

// ReadingIDs lists the reading IDs, sorted.
func ReadingIDs() []string {
	out := make([]string, 0, len(readings))
	for _, r := range readings {
		out = append(out, r.ID)
	}
	sort.Strings(out)
	return out
}

// ParseReading splits "ID=VALUE" and checks both against the catalogue.
func ParseReading(s string) (id, value string, err error) {
	id, value, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok || id == "" || value == "" {
		return "", "", fmt.Errorf("reading %q: want ID=VALUE", s)
	}
	return id, value, CheckReading(id, value)
}

// CheckReading checks that id names a reading and value is one of its
// values.
func CheckReading(id, value string) error {
	r, ok := readingByID[id]
	if !ok {
		return fmt.Errorf("unknown reading %q (valid: %s)", id, strings.Join(ReadingIDs(), ", "))
	}
	if !r.Has(value) {
		return fmt.Errorf("reading %s has no value %q (valid: %s)", id, value, strings.Join(r.ValueNames(), ", "))
	}
	return nil
}
