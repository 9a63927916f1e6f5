package identity

import (
	"fmt"
	"strings"

	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// advertisingSpecs are the cases of identity/advertising.
func advertisingSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/advertise/1", framework.MUST,
			`NIP-11 supported_extensions contains "nip-cl".`,
			"identity/advertising.2"),
			Run: func(t *framework.T) {
				t.Expect(t.Env.Info).NotTo(BeNil(), "NIP-11 document")
				t.Expect(t.Env.Info.SupportedExtensions).To(ContainElement("nip-cl"), "supported_extensions")
			}},
		{Case: framework.NewCase("identity/advertise/2", framework.MUST,
			`NIP-11 supported_nips does not advertise this draft (no entry naming NIP-CL, such as "nip-cl"): it has no upstream NIP number yet.`,
			"identity/advertising.1").
			WithReading(`The draft forbids advertising itself in supported_nips; other entries are NIP-11's business, not this draft's, so a non-number entry that does not name NIP-CL is only noted. A made-up number cannot be told from a real NIP and is not judged.`),
			Run: func(t *framework.T) {
				info, err := fixtures.FetchInfoWith(t.Ctx(), t.Env.URL, "", t.Env.Header)
				t.Must(err, "NIP-11 document")
				var others []string
				for _, v := range info.SupportedNIPs {
					if _, isNumber := v.(float64); isNumber {
						continue
					}
					str, isString := v.(string)
					t.Expect(isString && namesNIPCL(str)).To(BeFalse(), "supported_nips entry %#v advertises NIP-CL", v)
					others = append(others, fmt.Sprintf("%#v", v))
				}
				if len(others) > 0 {
					t.Note("supported_nips has entries that are not numbers (not this draft's concern): %s", strings.Join(others, ", "))
				}
			}},
	}
}

// namesNIPCL reports whether a supported_nips string names this draft
// ("nip-cl", "NIP-CL", "nipcl", "cl", …).
func namesNIPCL(s string) bool {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.NewReplacer("-", "", "_", "", " ", "").Replace(n)
	return n == "nipcl" || n == "cl"
}
