package reference

// faultClauses names, per fault switch, the clause (clause.Clause ID, e.g.
// "nip29/leave.1") the fault breaks. The kill test counts a fault as killed
// only when a case citing that clause fails. Every fault in the catalogue
// has an entry; a new fault adds its line here.
var faultClauses = map[string]string{
	// NIP-29 group ids, invites, closed groups (i26a).
	faultGroupIDUUIDOnly:       "nip29/group-ids.1",
	faultInviteCodeIgnored:     "nip29/invites.1",
	faultJoinAnyCodeAdmits:     "nip29/invites.2",
	faultMemberCanInvite:       "nip29/invites.3",
	faultClosedRestrictsWrites: "nip29/restricted.2",

	// NIP-29 subgroups (i26a).
	faultSubgroupsNotAdvertised:       "nip29/subgroups.1",
	faultSubgroupParentNotShown:       "nip29/subgroups.2",
	faultSubgroupChildNotListed:       "nip29/subgroups.3",
	faultSubgroupReorderIgnored:       "nip29/subgroups.4",
	faultSubgroupCycleAccepted:        "nip29/subgroups.5",
	faultSubgroupUnknownParent:        "nip29/subgroups.6",
	faultSubgroupParentAdminUnchecked: "nip29/subgroups.7",
	faultSubgroupChildrenOmitted:      "nip29/subgroups.8",
	faultSubgroupDetachIgnored:        "nip29/subgroups.9",
	faultSubgroupOrphansKept:          "nip29/subgroups.10",
	faultSubgroupAdminInherited:       "nip29/subgroups.11",

	// NIP-29 pinned events (i26a).
	faultPinsOrderLost:       "nip29/pins.1",
	faultPinsNotRegenerated:  "nip29/pins.2",
	faultPinsMemberCanUpdate: "nip29/pins.3",

	// NIP-29 live audio/video endpoints (i26a).
	faultLiveKitStatus200:       "nip29/livekit.1",
	faultLiveKitSubUppercase:    "nip29/livekit.2",
	faultLiveKitAccessUnchecked: "nip29/livekit.3",
}
