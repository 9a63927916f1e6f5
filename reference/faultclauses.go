package reference

// faultClauses names, per fault switch, the clause (clause.Clause ID, e.g.
// "nip29/leave.1") the fault breaks. The kill test counts a fault as killed
// only when a case citing that clause fails. Every fault in the catalogue
// has an entry; a new fault adds its line here.
var faultClauses = map[string]string{
	// NIP-CL labels and identity (issue 28): weak cases and new shapes.
	faultLabelsDeletionDeferred: "labels/retention.1",
	faultLabelsLimitReadRefused: "labels/finding-channels.7",
	faultIDLimitReadRefused:     "identity/reads-leave-out.1",
	faultLabelsLiveStaleLabels:  "labels/snapshot.1",
	faultLabelsRepeatsStored:    "labels/values-and-limits.7",
	faultLabelsLimitBeforeApply: "labels/values-and-limits.5",
	faultLabelsFlagEditDrops:    "labels/serialization.3",
	faultLabelsMixedKindsRead:   "labels/finding-channels.1",
	faultLabelsDiscoveryTLost:   "labels/finding-channels.2",
	faultIDPOptInSkipsACL:       "identity/asking-for-system.7",
	faultLabelsCountCommunities: "labels/community.1",
}
