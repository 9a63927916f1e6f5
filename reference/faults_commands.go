package reference

// Fault switches of the grammar sweeps and command semantics (issue 15).
// Each is consulted at the behaviour it breaks (TestEveryFaultIsConsulted).
const (
	faultLabelsNewlineBeforeEnd  = "labels-newline-before-end"
	faultLabelsShortTagsSkipped  = "labels-short-tags-skipped"
	faultLabelsRefusedCreateKept = "labels-refused-create-stored"
	faultLabelsEvidenceDeletable = "labels-evidence-deletable"
	faultLabelsEvidenceCommunity = "labels-evidence-cross-community"
	faultIDNewlineBeforeEnd      = "identity-label-newline-before-end"
	faultIDTExtraElements        = "identity-t-extra-elements-labels"
)

// commandsFaults break the label grammar's end anchor, command-tag arity and
// where application evidence lives, and the identity label check's end.
var commandsFaults = []faultSpec{
	{faultLabelsNewlineBeforeEnd, "labels", "labels/values-and-limits",
		`the label validator's end anchor matches before a final newline: "a0\n" is accepted and stored with its newline`},
	{faultLabelsShortTagsSkipped, "labels", "labels/values-and-limits",
		"a 9002's add-label and remove-label tags with fewer than two elements are skipped instead of rejected"},
	{faultLabelsRefusedCreateKept, "labels", "labels/initial-labels",
		"a 9007 refused as a UUID conflict is stored anyway, so its exact re-send is answered duplicate: nip-cl-committed"},
	{faultLabelsEvidenceDeletable, "labels", "labels/retention",
		"the stored command is the only application evidence and an author's NIP-09 kind 5 deletes it: a later exact retry is applied as new"},
	{faultLabelsEvidenceCommunity, "labels", "labels/community",
		"duplicate detection looks an event id up in every community: a command committed in one community is answered duplicate: nip-cl-committed in another where the same channel UUID exists"},
	{faultIDNewlineBeforeEnd, "identity", "identity/label-rules",
		`the label check stops before a final newline: a t label "a0\n" is accepted and stored with its newline`},
	{faultIDTExtraElements, "identity", "identity/labels",
		`the elements after a t tag's value are read as more labels: ["t", "a", "b"] sets the labels a and b`},
}
