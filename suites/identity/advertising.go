package identity

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// advertisingSpecs are the cases of identity/advertising.
func advertisingSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/advertise/3", framework.MUST,
			`The NIP-11 document of every other community of the relay (each --host, fetched with that Host header) lists "nip-cl" in supported_extensions and not in supported_nips, as the relay URL's own does.`,
			"identity/advertising.1", "identity/advertising.2").
			WithReading(`Each community is a relay endpoint of its own to a client, which reads the NIP-11 document of the Host it connects to; the draft's advertising rules bind each. Without --host there is no second community to ask (unsupported).`),
			Run: func(t *framework.T) {
				if len(t.Env.Hosts) == 0 {
					t.Unsupported("no second community named (--host): only the relay URL's own NIP-11 document is read (identity/advertise/1, /2)")
				}
				_, err := fixtures.FetchInfoWith(t.Ctx(), t.Env.URL, "", t.Env.Header)
				t.Must(err, "NIP-11 document of the relay URL")
				for _, host := range t.Env.Hosts {
					info, err := fixtures.FetchInfoWith(t.Ctx(), t.Env.URL, host, t.Env.Header)
					t.Must(err, "NIP-11 document of community "+host)
					if !slices.Contains(info.SupportedExtensions, "nip-cl") {
						t.Violates("identity/advertising.2", "identity draft (identity/advertising.2): the NIP-11 document of community %s (Host %s) has supported_extensions %v, without \"nip-cl\"", host, host, info.SupportedExtensions)
					}
					for _, v := range info.SupportedNIPs {
						if s, ok := v.(string); ok && namesNIPCL(s) {
							t.Violates("identity/advertising.1", "identity draft (identity/advertising.1): the NIP-11 document of community %s lists %q in supported_nips", host, s)
						}
					}
				}
			}},
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
