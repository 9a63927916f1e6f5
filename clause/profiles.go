package clause

import (
	"fmt"
	"strings"
)

// Profile names: the one spelling of each. A profile is what a target is
// checked against; cases, clauses, readings, variants and plans name it.
const (
	// ProfileBaseline is the profile of a case (or reading) that holds in
	// every profile: NIP-29's own, which a NIP-CL relay must meet too.
	ProfileBaseline = ""
	// ProfileNIP29 checks NIP-29 itself on a relay without NIP-CL.
	ProfileNIP29 = "nip29"
	// ProfileNone is the former name of ProfileNIP29, still accepted
	// wherever a profile is named (ParseProfile, CanonicalProfile).
	ProfileNone     = "none"
	ProfileIdentity = "identity"
	ProfileLabels   = "labels"
	// ProfileAuto asks the runner to detect the profile from the target's
	// NIP-11 document; ParseProfile leaves it to the caller.
	ProfileAuto = "auto"
)

// ProfileNames lists the profiles a user can name, in help order.
var ProfileNames = []string{ProfileNIP29, ProfileIdentity, ProfileLabels}

// ParseProfile validates a profile name given by a user and returns its
// canonical form ("none" is the former name of "nip29"). "auto" is the
// caller's to handle.
func ParseProfile(name string) (string, error) {
	switch name {
	case ProfileNIP29, ProfileNone:
		return ProfileNIP29, nil
	case ProfileIdentity, ProfileLabels:
		return name, nil
	}
	return "", fmt.Errorf("unknown profile %q (valid: %s)", name, strings.Join(ProfileNames, ", "))
}

// CanonicalProfile returns a profile name in its current spelling: "none"
// becomes "nip29", every other name (also "auto" and "") stays.
func CanonicalProfile(name string) string {
	if name == ProfileNone {
		return ProfileNIP29
	}
	return name
}
