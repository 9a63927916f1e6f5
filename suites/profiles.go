package suites

// profileSpecs returns the NIP-CL profile suites (identity and labels).
func profileSpecs() []Spec {
	var out []Spec
	out = append(out, identitySpecs()...)
	out = append(out, labelsSpecs()...)
	return out
}

// identitySpecs is filled by the identity suite files.
func identitySpecs() []Spec { return nil }

// labelsSpecs is filled by the labels suite files.
func labelsSpecs() []Spec { return nil }
