package reference

// faultClauses names, per fault switch, the clause (clause.Clause ID, e.g.
// "nip29/leave.1") the fault breaks. The kill test counts a fault as killed
// only when a case citing that clause fails. Every fault in the catalogue
// has an entry; a new fault adds its line here.
var faultClauses = map[string]string{
	// NIP-29 moderation table, delete-event, state events, timeline
	// references (issue 26, i26b).
	faultOutsiderRemoveUser:       "nip29/moderation.1",
	faultOutsiderDeleteEvent:      "nip29/moderation.1",
	faultModerationEventsUnserved: "nip29/moderation.2",
	faultDeleteEventIgnored:       "nip29/delete-event.1",
	faultBannerDropped:            "nip29/state-events.5",
	faultUserStateAccepted:        "nip29/state-events.6",
	faultIdenticalStateDuplicated: "nip29/state-events.3",
	faultPreviousUnchecked:        "nip29/timeline.1",
	faultPreviousRefused:          "nip29/timeline.2",
}
