package suites

import (
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/identity"
	"github.com/nipcl/nipcl-conform/suites/labels"
)

// profileSpecs returns the NIP-CL profile suites (identity and labels).
// identitySpecs lives in the identity_*.go files, labelsSpecs in labels_*.go.
func profileSpecs() []framework.Spec {
	var out []framework.Spec
	out = append(out, identity.Specs()...)
	out = append(out, labels.Specs()...)
	return out
}
