package suites

// labelsSpecs returns every labels-profile case (nip-cl-labels.md).
func labelsSpecs() []Spec {
	var out []Spec
	return out
}
