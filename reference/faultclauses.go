package reference

// faultClauses names, per fault switch, the clause (clause.Clause ID, e.g.
// "nip29/leave.1") the fault breaks. The kill test counts a fault as killed
// only when a case citing that clause fails. Every fault in the catalogue
// has an entry; a new fault adds its line here.
var faultClauses = map[string]string{
	// Same-second ties (clocks, same-second order: base/ties/*).
	faultSameSecondLeaveLost:    "nip29/leave.3",
	faultSameSecondRemovalLost:  "nip29/membership.6",
	faultSameSecondEditLost:     "nip29/metadata.3",
	faultReplaceableTieLastWins: "nip01/replaceable.1",
}
