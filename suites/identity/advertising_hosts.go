package identity

import (
	"slices"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// advertisingHostsSpecs are the cases of identity/advertising that read the
// NIP-11 document of every community the run names (--host).
func advertisingHostsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/advertise/3", []string{"identity/advertising.1", "identity/advertising.2"}, "identity/advertising", framework.MUST,
			`The NIP-11 document of every other community of the relay (each --host, fetched with that Host header) lists "nip-cl" in supported_extensions and not in supported_nips, as the relay URL's own does.`,
			`Each community is a relay endpoint of its own to a client, which reads the NIP-11 document of the Host it connects to; the draft's advertising rules bind each. Without --host there is no second community to ask (unsupported).`),
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
	}
}
