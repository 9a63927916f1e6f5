package reference

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// faultSpec is one row of a fault table: a Fault without its clause, which
// faultClauses gives.
type faultSpec struct {
	Name, Profile, Section, Breaks string
}

// Fault is one switch that makes the reference relay break exactly one
// clause family on purpose. The kill test runs the suite against the relay
// with one fault on and expects at least one case citing Section to fail.
type Fault struct {
	Name    string // switch name, as passed in Config.Faults
	Profile string // "" = any profile; otherwise the only profile it applies to
	Section string // clause.Section ID the fault breaks
	Breaks  string // what the relay does wrong while the fault is on
	// Clause is the clause ID (within Section) the fault breaks, from
	// faultClauses; Faults fills it in.
	Clause string
}

// Fault switch names. Each constant is consulted (r.fault, faults.on) at the
// place of the behaviour it breaks, once per code path of that behaviour;
// TestEveryFaultIsConsulted lists the places.
const (
	faultLimitBeforeAccess        = "limit-before-access"
	faultStateSignedByOtherKey    = "state-signed-by-other-key"
	faultPrivateMessagesReadable  = "private-messages-readable"
	faultNoSignatureCheck         = "no-signature-check"
	faultStaleReplacementTimestmp = "stale-replacement-timestamp"
	faultMemberCanEdit            = "member-can-edit"
	faultOKWithoutPrefix          = "ok-without-prefix"
	faultCountIgnoresAccess       = "count-ignores-access"
	faultLimitBeforeFilter        = "limit-before-filter"
	faultClosedFlagInverted       = "closed-flag-inverted"
	faultMetadataFieldDropped     = "metadata-field-dropped"
	faultJoinMemberNotDuplicate   = "join-member-not-duplicate"
	faultJoinAcceptedNotAdmitted  = "join-accepted-not-admitted"
	faultLeaveIgnored             = "leave-ignored"
	faultHiddenMetadataServed     = "hidden-metadata-served"
	faultRestrictedWritesAccepted = "restricted-writes-accepted"
	faultAuthEventBroadcast       = "auth-event-broadcast"
	faultRolesNotRelaySigned      = "roles-not-relay-signed"
	faultAdminsWithoutRoles       = "admins-without-roles"

	// NIP-29 group ids, invites, closed groups (nip29_invites.go).
	faultGroupIDUUIDOnly       = "group-id-uuid-only"
	faultInviteCodeIgnored     = "invite-code-ignored"
	faultJoinAnyCodeAdmits     = "join-any-code-admits"
	faultMemberCanInvite       = "member-can-invite"
	faultClosedRestrictsWrites = "closed-restricts-writes"

	// NIP-29 subgroups (nip29_subgroups.go).
	faultSubgroupsNotAdvertised       = "subgroups-not-advertised"
	faultSubgroupParentNotShown       = "subgroup-parent-not-shown"
	faultSubgroupChildNotListed       = "subgroup-child-not-listed"
	faultSubgroupReorderIgnored       = "subgroup-reorder-ignored"
	faultSubgroupCycleAccepted        = "subgroup-cycle-accepted"
	faultSubgroupUnknownParent        = "subgroup-unknown-parent-accepted"
	faultSubgroupParentAdminUnchecked = "subgroup-parent-admin-unchecked"
	faultSubgroupChildrenOmitted      = "subgroup-children-omitted-accepted"
	faultSubgroupDetachIgnored        = "subgroup-detach-ignored"
	faultSubgroupOrphansKept          = "subgroup-orphans-kept"
	faultSubgroupAdminInherited       = "subgroup-admin-inherited"

	// NIP-29 pinned events (nip29_pins.go).
	faultPinsOrderLost       = "pins-order-lost"
	faultPinsNotRegenerated  = "pins-not-regenerated"
	faultPinsMemberCanUpdate = "pins-member-can-update"

	// NIP-29 live audio/video endpoints (livekit.go).
	faultLiveKitStatus200       = "livekit-status-200"
	faultLiveKitSubUppercase    = "livekit-sub-uppercase"
	faultLiveKitAccessUnchecked = "livekit-access-unchecked"
)

// faultCatalogue is every fault switch: the core's and each profile's.
var faultCatalogue = slices.Concat(coreFaults, identityFaults, labelsFaults, commandsFaults, racesFaults, readsFaults, moderationFaults, tiesFaults, nip29GroupFaults, subgroupsFaults, pinsFaults, livekitFaults, nipclShapeFaults)

// coreFaults break baseline NIP-01/11/42/45/29 behaviour.
var coreFaults = []faultSpec{
	{faultLimitBeforeAccess, "", "nip29/read-access",
		"REQ applies LIMIT to the newest events first and drops inaccessible private-channel events afterwards, so a page comes back short"},
	{faultStateSignedByOtherKey, "", "nip29/state-events",
		"relay-signed 39000-39003 state events are signed by a random key that is not the NIP-11 self key"},
	{faultPrivateMessagesReadable, "", "nip29/read-access",
		"kind 9 messages of a private channel are returned, counted and delivered to non-members"},
	{faultNoSignatureCheck, "", "nip01/event-validation",
		"EVENTs with a bad signature are accepted (the id is still checked)"},
	{faultStaleReplacementTimestmp, "", "nip29/state-events",
		"a replacement state event reuses the created_at of the event it replaces instead of a strictly greater one"},
	{faultMemberCanEdit, "", "nip29/permissions",
		"plain members (role member) may 9002-edit channel metadata"},
	{faultOKWithoutPrefix, "", "nip01/ok-prefix",
		"OK false messages lose their machine-readable prefix (\"bad signature\" instead of \"invalid: bad signature\")"},
	{faultCountIgnoresAccess, "", "nip45/count",
		"COUNT counts private-channel events for readers who are not members"},
	{faultLimitBeforeFilter, "", "nip01/filters",
		"tag filters (#x) are applied in Go after the SQL LIMIT, so matching events hide behind newer non-matching ones"},
	{faultClosedFlagInverted, "", "nip29/metadata",
		`a 9002 ["closed"] leaves the group open and a 9002 ["open"] closes it (relay29's bug; a 9007's flags too)`},
	{faultMetadataFieldDropped, "", "nip29/metadata",
		"the about and picture values of a 9002 are not carried into the 39000"},
	{faultJoinMemberNotDuplicate, "", "nip29/join",
		`a current member's 9021 join request is refused with "blocked: already a member" instead of the duplicate: prefix`},
	{faultJoinAcceptedNotAdmitted, "", "nip29/join",
		"a 9021 join request to a closed group is accepted (OK true) but the user is not added"},
	{faultLeaveIgnored, "", "nip29/leave",
		"a member's 9022 leave request is accepted but the member stays (and no 9001 is issued)"},
	{faultHiddenMetadataServed, "", "nip29/hidden",
		"a hidden group's 39000 is served, counted and delivered to non-members (39001-39003 stay withheld)"},
	{faultRestrictedWritesAccepted, "", "nip29/restricted",
		"non-members may post to a restricted (not private) group"},
	{faultAuthEventBroadcast, "", "nip42/auth",
		"a client's kind 22242 AUTH event is delivered to open subscriptions whose filter matches it (kinds [22242])"},
	{faultAdminsWithoutRoles, "", "nip29/admins",
		`39001 lists each admin as ["p", <pubkey>] with no role (NIP-29: "Each admin is listed along with one or more roles"; a fault, not a policy)`},
	{faultRolesNotRelaySigned, "", "nip29/state-events",
		"the 39003 roles event is signed by a random key that is not the NIP-11 self key (39000-39002 are not)"},
}

// Faults returns the catalogue of every fault switch, sorted by name.
func Faults() []Fault {
	out := make([]Fault, 0, len(faultCatalogue))
	for _, f := range faultCatalogue {
		out = append(out, Fault{Name: f.Name, Profile: f.Profile, Section: f.Section, Breaks: f.Breaks, Clause: faultClauses[f.Name]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func faultNames() []string {
	names := make([]string, 0, len(faultCatalogue))
	for _, f := range faultCatalogue {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// parseFaults validates the requested switches against the catalogue and the
// chosen profile.
func parseFaults(names []string, profile string) (map[string]bool, error) {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		var found *faultSpec
		for i := range faultCatalogue {
			if faultCatalogue[i].Name == n {
				found = &faultCatalogue[i]
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("reference: unknown fault %q (valid: %s)", n, strings.Join(faultNames(), ", "))
		}
		if found.Profile != "" && found.Profile != profile {
			return nil, fmt.Errorf("reference: fault %q applies only to profile %q, not %q", n, found.Profile, profile)
		}
		set[n] = true
	}
	return set, nil
}

// fault reports whether the named switch is on. Names must come from the
// constants above; an unknown name is a programming error.
func (r *Relay) fault(name string) bool {
	return r.faults[name]
}
