package labels

import (
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// capabilitySpecs are the cases of labels/capability.
func capabilitySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/capability/2", framework.MUST,
			"The NIP-11 document of every other community of the relay (each --host, fetched with that Host header) advertises \"nip-cl\" in supported_extensions and not in supported_nips, as the relay URL's own does.",
			"labels/capability.1", "labels/capability.2"),
			Run: func(t *framework.T) {
				if len(t.Env.Hosts) == 0 {
					t.Unsupported("no second community named (--host): only the relay URL's own NIP-11 document is read (labels/capability/1)")
				}
				_, err := fixtures.FetchInfoWith(t.Ctx(), t.Env.URL, "", t.Env.Header)
				t.Must(err, "NIP-11 document of the relay URL")
				for _, host := range t.Env.Hosts {
					info, err := fixtures.FetchInfoWith(t.Ctx(), t.Env.URL, host, t.Env.Header)
					t.Must(err, "NIP-11 document of community "+host)
					if !info.HasExtension("nip-cl") {
						t.Violates("labels/capability.1", "labels draft (labels/capability.1): the NIP-11 document of community %s (Host %s) has supported_extensions %v, without \"nip-cl\"", host, host, info.SupportedExtensions)
					}
					if info.NIPsContainString("nip-cl") {
						t.Violates("labels/capability.2", "labels draft (labels/capability.2): the NIP-11 document of community %s lists \"nip-cl\" in supported_nips", host)
					}
				}
			}},
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
