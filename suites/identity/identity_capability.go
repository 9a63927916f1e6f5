package identity

import (
	"fmt"
	"strings"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// identityCapabilitySpecs: "Advertising support" and "Trust".
func identityCapabilitySpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/advertise/1", []string{"identity/advertising.2"}, "identity/advertising", framework.MUST,
			`NIP-11 supported_extensions contains "nip-cl".`),
			Run: func(t *framework.T) {
				t.Expect(t.Env.Info).NotTo(BeNil(), "NIP-11 document")
				t.Expect(t.Env.Info.SupportedExtensions).To(ContainElement("nip-cl"), "supported_extensions")
			}},
		{Case: idCase("identity/advertise/2", []string{"identity/advertising.1"}, "identity/advertising", framework.MUST,
			`NIP-11 supported_nips does not advertise this draft (no entry naming NIP-CL, such as "nip-cl"): it has no upstream NIP number yet.`,
			`The draft forbids advertising itself in supported_nips; other entries are NIP-11's business, not this draft's, so a non-number entry that does not name NIP-CL is only noted. A made-up number cannot be told from a real NIP and is not judged.`),
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
		{Case: idCase("identity/trust/1", []string{"nip29/state-events.1"}, "identity/trust", framework.MUST,
			"Every channel-state event carrying identity tags (39000-39002, after create, label edit, membership and ownership changes) is signed by the relay key (NIP-11 self)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				heir := t.Connect(t.Actor("heir"))
				ch := idChannel(t, owner, idChanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: idLabels(t, 2)})
				steps := []func(){
					func() {},
					func() {
						t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, idTTags(idLabel(t))...), "relabel")
					},
					func() {
						t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, "owner"), "add an owner")
						t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "remove the creator")
					},
				}
				for _, step := range steps {
					step()
					for _, ev := range t.Query(heir, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles}, Tags: nostr.TagMap{"d": {ch}}}) {
						t.RequireRelaySigned(ev)
					}
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
