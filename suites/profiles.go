package suites

// profileSpecs returns the NIP-CL profile suites (identity and labels).
// identitySpecs lives in the identity_*.go files, labelsSpecs in labels_*.go.
func profileSpecs() []Spec {
	var out []Spec
	out = append(out, identitySpecs()...)
	out = append(out, labelsSpecs()...)
	return out
}
