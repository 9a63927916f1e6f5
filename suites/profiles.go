package suites

import (
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/identity"
	"github.com/nipcl/nipcl-conform/suites/labels"
)

// profileSpecs returns the NIP-CL profile suites (identity and labels):
// identity.Specs and labels.Specs, each gathering its package's section
// builders.
func profileSpecs() []framework.Spec {
	var out []framework.Spec
	out = append(out, identity.Specs()...)
	out = append(out, labels.Specs()...)
	return out
}

// profileGroupIDs are the profiles that constrain the group id of a bare
// 9007, with the id they mint (Env.GroupID).
var profileGroupIDs = map[string]func() string{
	framework.ProfileLabels: labels.NewGroupID,
}
