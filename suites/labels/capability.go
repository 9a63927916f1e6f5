package labels

import (
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// capabilitySpecs are the cases of labels/capability.
func capabilitySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/capability/1", framework.MUST,
			"The relay advertises \"nip-cl\" in NIP-11 supported_extensions and not in supported_nips.",
			"labels/capability.1", "labels/capability.2"),
			Run: func(t *framework.T) {
				t.Checking("labels/capability.1")
				t.Expect(t.Env.Info).NotTo(BeNil(), "NIP-11 document")
				t.Expect(t.Env.Info.HasExtension("nip-cl")).To(BeTrue(), "supported_extensions contains \"nip-cl\": %v", t.Env.Info.SupportedExtensions)
				t.Expect(t.Env.Info.NIPsContainString("nip-cl")).To(BeFalse(), "supported_nips must not contain \"nip-cl\"")
			}},
	}
}
