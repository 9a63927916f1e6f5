package reference

// Fault switches of the read-path matrix (suites/reads*.go): each breaks a
// read rule on one shape of request only, where the rest of the relay
// keeps it, so only a matrix row reading through that shape sees it.
const (
	faultReadsIDsSkipAccess       = "reads-ids-skip-access"
	faultReadsRemovedMemberReads  = "reads-removed-member-reads"
	faultReadsLaterFiltersNoCheck = "reads-later-filters-skip-access"
	faultReadsIDsNameSystem       = "identity-ids-name-system-channels"
	faultReadsLaterValuesIndexed  = "labels-tag-later-values-indexed"
)

// readsFaults are the read-path matrix's fault switches.
var readsFaults = []faultSpec{
	{faultReadsIDsSkipAccess, "", "nip29/read-access",
		"a filter with ids skips the read-access rule (REQ and COUNT): whoever knows an event's id reads it"},
	{faultReadsRemovedMemberReads, "", "nip29/read-access",
		"stored reads (REQ history, COUNT) admit anyone ever put into the channel by a 9000: a member removed by a 9001 keeps reading"},
	{faultReadsLaterFiltersNoCheck, "", "nip29/read-access",
		"only the first filter of a REQ is access-checked; the second and later filters read private channels unchecked"},
	{faultReadsIDsNameSystem, "identity", "identity/reads-leave-out",
		"an ids filter counts as naming a channel, so it returns system channels' events to filters without #h or #d"},
	{faultReadsLaterValuesIndexed, "labels", "nip01/filters",
		"every value of a tag is indexed, not only the first: #l [\"nip-cl\"] finds snapshots by the namespace element of their l tags"},
}
