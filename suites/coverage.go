package suites

import (
	"sort"

	"github.com/nipcl/nipcl-conform/clause"
)

// clauseCases maps each testable clause (clause.Clauses) to the cases that
// check it. A case may cover several clauses, and a clause may need several
// cases. Map a case only when its spec really observes the clause; a clause
// without a case stays out of this map until one exists, and
// TestEveryTestableClauseHasACase lists it.
var clauseCases = withReadsMatrix(map[string][]string{
	// Baseline: NIP-01/11/29/42/45 at their own sentences' levels, and the
	// contract points the harness needs to drive a NIP-29 relay.
	"nip01/event-validation.1": {"base/event/1"},
	"nip01/event-validation.2": {"base/event/2"},
	"nip01/filters.1":          {"base/filters/3"},
	"nip01/filters.2":          {"base/filters/1"},
	"nip01/filters.3":          {"base/filters/2"},
	"nip01/filters.4":          {"base/filters/4"},
	"nip01/live.1":             {"base/live/1"},
	"nip01/ok-prefix.1":        {"base/prefix/1", "base/event/1", "base/event/2", "base/create/3", "base/join/2"},
	"nip01/ok-prefix.2":        {"base/read/1", "base/auth/4"},
	"nip01/replaceable.1":      {"base/ties/4"},
	"nip11/document.1":         {"base/nip11/1"},
	"nip11/document.2":         {"base/nip11/1"},
	"nip11/document.3":         {"base/state/1"},
	"nip29/create.1":           {"base/create/1"},
	"nip29/create.2":           {"base/create/2"},
	"nip29/create.3":           {"base/create/3"},
	// Key capabilities, 39001 diagnosis.
	"nip29/admins.1":           {"base/admins/1"},
	"nip29/delete.1":           {"base/delete/1"},
	"nip29/delete.2":           {"base/delete/2"},
	"nip29/hidden.1":           {"base/read/3"},
	"nip29/hidden.2":           {"base/read/4"},
	"nip29/join.1":             {"base/join/1"},
	"nip29/join.2":             {"base/join/2"},
	"nip29/join.3":             {"base/join/3"},
	"nip29/late-publication.1": {"base/event/3"},
	"nip29/leave.1":            {"base/leave/1"},
	"nip29/leave.2":            {"base/leave/2"},
	"nip29/leave.3":            {"base/ties/1"},
	"nip29/membership.1":       {"base/membership/1"},
	"nip29/membership.2":       {"base/membership/1"},
	"nip29/membership.3":       {"base/membership/4"},
	"nip29/membership.4":       {"base/membership/5"},
	"nip29/membership.5":       {"base/membership/6"},
	"nip29/membership.6":       {"base/ties/2"},
	"nip29/metadata.1":         {"base/edit/1", "base/edit/2"},
	"nip29/metadata.2":         {"base/flags/1", "base/flags/2", "base/flags/3", "base/flags/4"},
	"nip29/metadata.3":         {"base/ties/3"},
	"nip29/permissions.1":      {"base/permissions/2"},
	"nip29/permissions.2":      {"base/permissions/1"},
	"nip29/read-access.1":      {"base/read/1", "base/read/2"},
	"nip29/read-access.2":      {"base/read/2"},
	"nip29/read-access.3":      {"base/read/1"},
	"nip29/restricted.1":       {"base/restricted/1"},
	"nip29/restricted.2":       {"base/restricted/2"},
	"nip29/group-ids.1":        {"base/group-ids/1"},
	"nip29/invites.1":          {"base/invites/1"},
	"nip29/invites.2":          {"base/invites/2"},
	"nip29/invites.3":          {"base/invites/3"},
	"nip29/livekit.1":          {"base/livekit/1"},
	"nip29/livekit.2":          {"base/livekit/2"},
	"nip29/livekit.3":          {"base/livekit/3"},
	"nip29/pins.1":             {"base/pins/1"},
	"nip29/pins.2":             {"base/pins/2"},
	"nip29/pins.3":             {"base/pins/3"},
	"nip29/subgroups.1":        {"base/subgroups/1"},
	"nip29/subgroups.2":        {"base/subgroups/2"},
	"nip29/subgroups.3":        {"base/subgroups/3"},
	"nip29/subgroups.4":        {"base/subgroups/4"},
	"nip29/subgroups.5":        {"base/subgroups/5"},
	"nip29/subgroups.6":        {"base/subgroups/6"},
	"nip29/subgroups.7":        {"base/subgroups/7"},
	"nip29/subgroups.8":        {"base/subgroups/8"},
	"nip29/subgroups.9":        {"base/subgroups/9"},
	"nip29/subgroups.10":       {"base/subgroups/10"},
	"nip29/subgroups.11":       {"base/subgroups/11"},
	"nip29/roles.1":            {"base/roles/1"},
	"nip29/state-events.1":     {"base/state/1", "identity/trust/1"},
	"nip29/state-events.2":     {"base/state/2"},
	"nip29/state-events.3":     {"base/state/3", "base/state/7"},
	"nip29/state-events.4":     {"base/state/4"},
	"nip42/auth.1":             {"base/auth/3"},
	"nip42/auth.2":             {"base/auth/4"},
	"nip42/auth.3":             {"base/auth/1", "base/auth/2"},
	"nip45/count.1":            {"base/count/1", "base/count/2"},
	"nip45/count.2":            {"base/count/1"},
	"nip45/count.3":            {"base/count/2"},

	// NIP-29 moderation table, delete-event, state events, timeline
	// references.
	"nip29/moderation.1":   {"base/moderation/1", "base/moderation/2", "base/moderation/3", "base/moderation/4", "base/moderation/5", "base/moderation/6"},
	"nip29/moderation.2":   {"base/moderation/7"},
	"nip29/delete-event.1": {"base/delete-event/1"},
	"nip29/state-events.5": {"base/state/5"},
	"nip29/state-events.6": {"base/state/6"},
	"nip29/state-events.7": {"base/state/8"},
	"nip29/timeline.1":     {"base/timeline/1"},
	"nip29/timeline.2":     {"base/timeline/2"},

	// Identity draft (nip-cl-identity.md).
	"identity/advertising.1":          {"identity/advertise/2"},
	"identity/advertising.2":          {"identity/advertise/1"},
	"identity/asking-for-system.1":    {"identity/optin/1", "identity/optin/6"},
	"identity/asking-for-system.2":    {"identity/optin/2"},
	"identity/asking-for-system.3":    {"identity/optin/5"},
	"identity/asking-for-system.4":    {"identity/optin/1", "identity/optin/2"},
	"identity/asking-for-system.5":    {"identity/optin/4", "identity/leave/1"},
	"identity/asking-for-system.6":    {"identity/optin/3"},
	"identity/asking-for-system.7":    {"identity/optin/1", "identity/optin/2"},
	"identity/choosing-one-channel.1": {"identity/choose/1", "identity/choose/2"},
	"identity/choosing-one-channel.2": {"identity/find/2", "identity/choose/6"},
	"identity/creation-time.1":        {"identity/tags/5", "identity/choose/2", "identity/choose/3"},
	"identity/creation-time.2":        {"identity/tags/6", "identity/choose/4"},
	"identity/creator.1":              {"identity/tags/7"},
	"identity/creator.2":              {"identity/tags/9"},
	"identity/creator.3":              {"identity/tags/8"},
	"identity/creator.4":              {"identity/tags/8", "identity/tags/9"},
	"identity/finding-channels.1":     {"identity/find/1"},
	"identity/finding-channels.2":     {"identity/find/2", "identity/find/6"},
	"identity/finding-channels.3":     {"identity/find/3", "identity/find/7"},
	"identity/finding-channels.4":     {"identity/find/4"},
	"identity/finding-channels.5":     {"identity/find/5"},
	"identity/identity-tags.1":        {"identity/tags/1", "identity/tags/3", "identity/tags/4"},
	"identity/identity-tags.2":        {"identity/tags/1", "identity/tags/2", "identity/tags/4"},
	"identity/identity-tags.3":        {"identity/tags/1", "identity/tags/3", "identity/tags/7"},
	"identity/label-rules.1":          {"identity/labels/2", "identity/labels/15"},
	"identity/label-rules.2":          {"identity/labels/4", "identity/labels/5", "identity/labels/16"},
	"identity/label-rules.3":          {"identity/labels/6"},
	"identity/label-rules.4":          {"identity/labels/7"},
	"identity/label-rules.5":          {"identity/labels/2", "identity/labels/4", "identity/labels/14", "identity/labels/6", "identity/labels/7", "identity/labels/15", "identity/labels/16"},
	"identity/label-rules.6":          {"identity/labels/3"},
	"identity/label-rules.7":          {"identity/labels/10"},
	"identity/labels.2":               {"identity/labels/1"},
	"identity/labels.3":               {"identity/labels/8", "identity/labels/13", "identity/choose/5", "identity/find/6"},
	"identity/labels.4":               {"identity/labels/9", "identity/labels/13"},
	"identity/labels.5":               {"identity/labels/11"},
	"identity/labels.6":               {"identity/labels/13", "identity/choose/5"},
	"identity/labels.7":               {"identity/labels/12"},
	"identity/match-before-limit.1":   {"identity/limit/1", "identity/limit/3"},
	"identity/match-before-limit.2":   {"identity/limit/2", "identity/limit/3"},
	"identity/naming.1":               {"identity/naming/1"},
	"identity/naming.2":               {"identity/naming/2"},
	"identity/naming.3":               {"identity/naming/3"},
	"identity/naming.4":               {"identity/naming/1", "identity/naming/2", "identity/system/2"},
	"identity/naming.5":               {"identity/naming/4"},
	"identity/notices.1":              {"identity/notices/1"},
	"identity/notices.2":              {"identity/notices/1", "identity/notices/6"},
	"identity/notices.3":              {"identity/notices/2"},
	"identity/notices.4":              {"identity/notices/2"},
	"identity/notices.6":              {"identity/notices/5"},
	"identity/notices.7":              {"identity/notices/4"},
	"identity/notices.9":              {"identity/notices/3", "identity/notices/4", "identity/notices/5"},
	"identity/notices.10":             {"identity/notices/3", "identity/notices/4"},
	"identity/notices.12":             {"identity/notices/7"},
	"identity/reads-leave-out.1":      {"identity/leave/1"},
	"identity/reads-leave-out.2":      {"identity/leave/2"},
	"identity/reads-leave-out.3":      {"identity/leave/3"},
	"identity/reads-leave-out.4":      {"identity/leave/4"},
	"identity/reads-leave-out.5":      {"identity/leave/6"},
	"identity/reads-leave-out.6":      {"identity/leave/5"},
	"identity/system-channels.1":      {"identity/system/1"},
	"identity/system-channels.2":      {"identity/system/2", "identity/naming/2"},
	"identity/system-channels.3":      {"identity/system/3"},
	"identity/system-channels.4":      {"identity/system/1"},

	// Labels draft (nip-cl-labels.md). Baseline cases run in the labels
	// profile too, so they cover the labels clauses they check.
	"labels/add-remove.2":  {"labels/add-remove/9"},
	"labels/add-remove.3":  {"labels/add-remove/1"},
	"labels/add-remove.5":  {"labels/add-remove/4"},
	"labels/add-remove.6":  {"labels/add-remove/3"},
	"labels/add-remove.7":  {"labels/add-remove/5", "labels/add-remove/6"},
	"labels/add-remove.8":  {"labels/add-remove/10"},
	"labels/add-remove.9":  {"labels/responses/5"},
	"labels/add-remove.10": {"labels/add-remove/5", "labels/add-remove/6", "labels/add-remove/11"},
	"labels/add-remove.11": {"labels/add-remove/5", "labels/add-remove/6", "labels/add-remove/11"},
	"labels/add-remove.13": {"labels/limits/6"},
	"labels/add-remove.14": {"labels/add-remove/1", "labels/add-remove/2", "labels/add-remove/7"},
	"labels/add-remove.15": {"labels/add-remove/8", "labels/discovery/7"},

	"labels/application.1": {"labels/initial/4", "labels/application/4"},
	"labels/application.2": {
		"labels/application/1", "labels/application/2", "labels/application/3", "labels/initial/4",
	},

	"labels/authorization.2": {"labels/authorization/3", "labels/authorization/4"},
	"labels/authorization.4": {"labels/authorization/1", "labels/authorization/2"},
	"labels/authorization.5": {"labels/authorization/6", "labels/concurrency/7"},
	"labels/authorization.6": {"labels/authorization/5"},
	"labels/authorization.7": {"labels/authorization/8"},
	"labels/authorization.8": {"labels/authorization/7"},
	"labels/authorization.9": {"labels/authorization/7", "labels/community/1"},

	"labels/capability.1": {"labels/capability/1"},
	"labels/capability.2": {"labels/capability/1"},

	"labels/community.1": {"labels/community/1", "labels/community/2"},
	"labels/community.2": {"labels/community/3"},

	"labels/compatibility.1": {"labels/add-remove/8", "labels/retry/1", "labels/retry/2"},
	"labels/compatibility.3": {
		"labels/grammar/7", "labels/grammar/15", "labels/limits/2", "labels/commands/15", "labels/authorization/1",
	},

	"labels/events.1": {"base/state/1", "labels/snapshot/5"},
	"labels/events.2": {"base/auth/1", "base/auth/2", "base/event/1", "base/event/2"},
	"labels/events.3": {"labels/commands/1", "labels/commands/2"},
	"labels/events.4": {"labels/commands/6"},
	"labels/events.5": {
		"labels/commands/3", "labels/commands/4", "labels/commands/5", "labels/commands/7",
		"labels/commands/8", "labels/commands/9",
	},
	"labels/events.6": {
		"labels/commands/1", "labels/commands/2", "labels/commands/3", "labels/commands/4",
		"labels/commands/5", "labels/commands/6", "labels/commands/7", "labels/commands/8",
		"labels/commands/9",
	},
	"labels/events.7":  {"labels/commands/10", "labels/commands/11"},
	"labels/events.8":  {"labels/commands/12", "labels/commands/13"},
	"labels/events.10": {"labels/commands/14"},

	"labels/finding-channels.1":  {"labels/discovery/1"},
	"labels/finding-channels.2":  {"labels/discovery/2", "labels/discovery/3", "labels/snapshot/2"},
	"labels/finding-channels.3":  {"labels/discovery/7"},
	"labels/finding-channels.4":  {"labels/discovery/4"},
	"labels/finding-channels.6":  {"labels/discovery/6"},
	"labels/finding-channels.7":  {"labels/authorization/8"},
	"labels/finding-channels.8":  {"labels/discovery/5"},
	"labels/finding-channels.14": {"labels/discovery/6", "labels/authorization/8"},

	"labels/initial-labels.1": {"labels/initial/3", "labels/initial/4"},
	"labels/initial-labels.2": {"labels/initial/1"},
	"labels/initial-labels.4": {"labels/initial/2"},
	"labels/initial-labels.5": {"labels/initial/4"},
	"labels/initial-labels.6": {
		"labels/scope/1", "labels/scope/3", "labels/commands/1", "labels/commands/5",
		"labels/commands/10", "labels/application/1", "labels/application/3",
	},
	"labels/initial-labels.7":  {"labels/initial/7"},
	"labels/initial-labels.8":  {"labels/initial/5"},
	"labels/initial-labels.9":  {"labels/initial/6", "labels/scope/7"},
	"labels/initial-labels.10": {"labels/initial/5", "labels/initial/6"},

	"labels/responses.1": {"labels/responses/1", "labels/responses/2", "labels/responses/6"},
	"labels/responses.2": {"labels/responses/6"},
	"labels/responses.5": {"labels/add-remove/4", "labels/add-remove/9"},
	"labels/responses.6": {"labels/initial/7", "labels/add-remove/4"},
	"labels/responses.8": {"labels/initial/2", "labels/add-remove/5", "labels/responses/1", "labels/responses/2"},
	"labels/responses.9": {
		"labels/initial/7", "labels/responses/3", "labels/responses/5", "labels/responses/8",
		"labels/responses/9",
	},
	"labels/responses.10": {"labels/add-remove/4", "labels/commands/1", "labels/grammar/7"},
	"labels/responses.11": {"labels/responses/7"},
	"labels/responses.12": {"labels/authorization/1", "labels/scope/5", "labels/retry/1"},
	"labels/responses.13": {"labels/initial/5", "labels/initial/6", "labels/scope/7"},
	"labels/responses.17": {"labels/initial/5", "labels/initial/6"},

	"labels/retention.5": {"labels/retry/7"},

	"labels/retry-admission.2":  {"labels/retry/7"},
	"labels/retry-admission.4":  {"labels/retry/3", "labels/retry/6"},
	"labels/retry-admission.5":  {"labels/retry/4", "labels/retry/6"},
	"labels/retry-admission.6":  {"labels/retry/1", "labels/retry/2", "labels/retry/5"},
	"labels/retry-admission.8":  {"labels/initial/7", "labels/responses/3", "labels/responses/9", "labels/retry/3"},
	"labels/retry-admission.9":  {"labels/responses/4", "labels/retry/3"},
	"labels/retry-admission.10": {"labels/concurrency/1", "labels/concurrency/2"},
	"labels/retry-admission.11": {"labels/retry/1", "labels/retry/2", "labels/retry/7"},
	"labels/retry-admission.12": {"labels/responses/4", "labels/retry/3", "labels/retry/4"},

	"labels/scope.1":  {"labels/initial/2", "labels/responses/1"},
	"labels/scope.2":  {"labels/snapshot/4"},
	"labels/scope.3":  {"labels/add-remove/7", "labels/authorization/5", "labels/snapshot/3", "labels/grammar/5"},
	"labels/scope.4":  {"labels/scope/1", "labels/scope/3"},
	"labels/scope.5":  {"labels/scope/2", "labels/scope/4"},
	"labels/scope.6":  {"labels/scope/5"},
	"labels/scope.7":  {"labels/scope/5"},
	"labels/scope.8":  {"labels/scope/6"},
	"labels/scope.9":  {"labels/scope/6"},
	"labels/scope.10": {"base/delete/1", "labels/scope/7", "labels/initial/6"},

	"labels/serialization.1": {"labels/concurrency/3", "labels/concurrency/4", "labels/concurrency/8"},
	"labels/serialization.2": {"labels/concurrency/5", "labels/concurrency/6"},
	"labels/serialization.3": {"labels/add-remove/8", "labels/concurrency/8"},
	"labels/serialization.4": {"labels/concurrency/4", "labels/concurrency/8"},
	"labels/serialization.5": {"labels/application/4", "labels/concurrency/3", "labels/concurrency/4", "labels/concurrency/8"},
	"labels/serialization.6": {"labels/concurrency/6"},

	"labels/snapshot.1":  {"labels/snapshot/1", "labels/snapshot/5"},
	"labels/snapshot.2":  {"labels/snapshot/1"},
	"labels/snapshot.3":  {"labels/snapshot/1"},
	"labels/snapshot.4":  {"labels/snapshot/1", "labels/initial/1"},
	"labels/snapshot.5":  {"labels/initial/2", "labels/add-remove/11", "labels/snapshot/5"},
	"labels/snapshot.6":  {"labels/snapshot/1", "labels/snapshot/5"},
	"labels/snapshot.8":  {"labels/snapshot/2", "labels/snapshot/3", "labels/initial/2"},
	"labels/snapshot.9":  {"labels/snapshot/2", "labels/snapshot/3", "labels/grammar/5"},
	"labels/snapshot.10": {"labels/snapshot/1", "labels/snapshot/5"},

	"labels/values-and-limits.1": {
		"labels/grammar/1", "labels/grammar/2", "labels/grammar/3", "labels/grammar/6",
		"labels/grammar/7", "labels/grammar/8", "labels/grammar/9", "labels/grammar/10",
		"labels/grammar/11", "labels/grammar/12", "labels/grammar/13", "labels/grammar/14",
		"labels/grammar/16", "labels/grammar/17",
	},
	"labels/values-and-limits.2":  {"labels/grammar/4", "labels/grammar/15"},
	"labels/values-and-limits.3":  {"labels/grammar/7", "labels/grammar/13", "labels/grammar/17"},
	"labels/values-and-limits.5":  {"labels/limits/1", "labels/limits/2"},
	"labels/values-and-limits.6":  {"labels/limits/3", "labels/limits/4"},
	"labels/values-and-limits.7":  {"labels/limits/7", "labels/limits/8"},
	"labels/values-and-limits.8":  {"labels/commands/15"},
	"labels/values-and-limits.10": {"labels/limits/5"},

	// Labels clauses checked by labels_extra.go.
	"labels/add-remove.4":        {"labels/add-remove/12"},
	"labels/events.9":            {"labels/commands/16"},
	"labels/finding-channels.5":  {"labels/discovery/8"},
	"labels/finding-channels.10": {"labels/discovery/9"},
	"labels/finding-channels.11": {"labels/discovery/10"},
	"labels/retention.1":         {"labels/retention/1"},
	"labels/retention.2":         {"labels/retention/2"},
	"labels/retry-admission.1":   {"labels/retry/8"},
	"labels/retry-admission.7":   {"labels/retry/9"},
	"labels/retry-admission.13":  {"labels/retry/10"},
	"labels/retry-admission.14":  {"labels/retry/11", "labels/retention/1"},
	"labels/scope.11":            {"labels/scope/8"},
})

// ClauseCases returns the IDs of the cases that check the clause, sorted.
func ClauseCases(clauseID string) []string {
	out := append([]string(nil), clauseCases[clauseID]...)
	sort.Strings(out)
	return out
}

// CasesClauses returns the IDs of the clauses a case checks, in clause
// order.
func CasesClauses(caseID string) []string {
	var out []string
	for _, c := range clause.Clauses() {
		for _, id := range clauseCases[c.ID] {
			if id == caseID {
				out = append(out, c.ID)
				break
			}
		}
	}
	return out
}

// CaseSource returns whose rule a case enforces, from the clauses it
// covers, preferring those of the case's own section: the first NIP or
// draft clause's source and reference; "contract" only when every clause
// of that section it covers is a contract clause (such a case can block,
// never fail, a relay).
func CaseSource(caseID string) (source, ref string, clauses []string) {
	clauses = CasesClauses(caseID)
	section := ""
	if c, ok := Lookup(caseID); ok {
		section = c.Section
	}
	for _, own := range []bool{true, false} {
		for _, id := range clauses {
			cl, _ := clause.LookupClause(id)
			if (cl.Section == section) != own {
				continue
			}
			if cl.Source != clause.SourceContract {
				return cl.Source, cl.Ref, clauses
			}
			if source == "" {
				source, ref = cl.Source, cl.Ref
			}
		}
		if source != "" {
			return source, ref, clauses
		}
	}
	return source, ref, clauses
}
