package suites

// identitySpecs returns every identity-profile case (nip-cl-identity.md).
func identitySpecs() []Spec {
	var out []Spec
	return out
}
