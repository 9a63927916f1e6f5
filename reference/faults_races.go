package reference

// Fault switches proving the strengthened cases of issue 15 (races with
// role changes, weak cases strengthened). Each is consulted at the
// behaviour it breaks (TestEveryFaultIsConsulted lists the places).
const (
	faultIDCountUntaggedSystem       = "identity-count-untagged-counts-system"
	faultIDCountTOptInIgnored        = "identity-count-ignores-t-system-opt-in"
	faultIDCreatedAtBackdated        = "identity-created-at-backdated"
	faultIDRefusedEditUntyped        = "identity-refused-edit-publishes-untyped"
	faultLabelsNSReadSkipsACL        = "labels-namespace-read-skips-acl"
	faultLabelsDeletionDropsEvidence = "labels-deletion-drops-evidence"
	faultLabelsLiveNSSkipsACL        = "labels-live-namespace-skips-acl"
	faultLabelsAuthorityUnserial     = "labels-authority-unserialized"
	faultLabelsEditStaleLabels       = "labels-edit-stale-labels"
)

// extendedMetadataTags are the fields the labels draft names besides
// NIP-29's (under the reading labels-mixed-extended-fields=ignored they
// ride along, ignored).
var extendedMetadataTags = []string{"topic", "purpose", "ttl"}

// createdAtBackdate is how far the identity-created-at-backdated fault
// moves the created_at tag before the channel's creation: inside the
// 15-minute window older cases allowed, far outside any clock skew.
const createdAtBackdate = 600

// racesFaults are the switches of reference/faults_races.go.
var racesFaults = []faultSpec{
	{faultIDCountUntaggedSystem, "identity", "identity/reads-leave-out",
		"COUNT leaves system channels out only for filters with a tag condition: a COUNT without tags (kinds with ids, authors or since) counts them"},
	{faultIDCountTOptInIgnored, "identity", "identity/asking-for-system",
		`COUNT ignores #t:["system"] as an opt-in (only #P opts a COUNT in), so it undercounts the readable system channels`},
	{faultIDCreatedAtBackdated, "identity", "identity/creation-time",
		"the 39000 created_at tag is written 10 minutes before the channel's creation (neither the relay clock at the create nor the 9007's created_at)"},
	{faultIDRefusedEditUntyped, "identity", "identity/label-rules",
		"a 9002 the label rules refuse is answered with the refusal, but the relay has already republished 39000-39002 with an empty channel type (labels and creator kept)"},
	{faultLabelsNSReadSkipsACL, "labels", "labels/authorization",
		"a stored 39000 read by #L without #l skips the read ACL: outsiders see private channels' snapshots"},
	{faultLabelsDeletionDropsEvidence, "labels", "labels/retention",
		"a NIP-09 deletion removes the command event outright, and with it the application evidence: an exact retry is applied again"},
	{faultLabelsLiveNSSkipsACL, "labels", "labels/finding-channels",
		"live delivery to a subscription with #L and no #l skips the read ACL: outsiders receive private channels' snapshots"},
	{faultLabelsAuthorityUnserial, "labels", "labels/authorization",
		"a label mutation checks its author's role on channel state read before the write lock: a mutation racing the author's demotion or removal is applied after it"},
	{faultLabelsEditStaleLabels, "labels", "labels/serialization",
		"an ordinary 9002 edit writes back the label set it read before the write lock: a label removed concurrently comes back"},
}
