package reference

// labelsProfile implements nip-cl-labels.md ("Channel Labels"). For now it is
// plain NIP-29 plus the "nip-cl" advertisement.
//
// TODO(labels): everything below is the none behaviour; fill in:
//   - onCreate: ["label", v] tags (max 64 raw, 32 stored, ^[a-z0-9][a-z0-9._:/-]*$,
//     <= 64 bytes, exactly two elements); reject add-label/remove-label, l, L, t;
//     only stream/forum may carry labels.
//   - onEdit: label-only 9002 with add-label/remove-label; reject label, l, L,
//     t; archived/deleted channels reject label mutations.
//   - stateTags(39000): ["L","nip-cl"] + sorted ["l", v, "nip-cl"] (none when empty);
//     exactly one ["t", type] (already from noneProfile).
//   - okReason: "invalid: nip-cl-rejected ..." etc. for covered commands.
//   - duplicate: exact retry -> retry admission (channel exists, unarchived,
//     undeleted, author still owner/admin) then "duplicate: nip-cl-committed".
type labelsProfile struct {
	noneProfile
	faults faultSet
}

func newLabelsProfile(f faultSet) profile { return labelsProfile{faults: f} }

// labelsFaults are the labels profile's fault switches (Profile "labels").
var labelsFaults = []Fault{}

var _ profile = labelsProfile{}

func (labelsProfile) name() string         { return "labels" }
func (labelsProfile) extensions() []string { return []string{"nip-cl"} }
