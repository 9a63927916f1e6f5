package suites

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// identityCapabilitySpecs: "Advertising support" and "Trust".
func identityCapabilitySpecs() []Spec {
	return []Spec{
		{idCase("identity/advertise/1", "identity/advertising", MUST,
			`NIP-11 supported_extensions contains "nip-cl".`),
			func(t *T) {
				Expect(t.Env.Info).NotTo(BeNil(), "NIP-11 document")
				Expect(t.Env.Info.SupportedExtensions).To(ContainElement("nip-cl"), "supported_extensions")
			}},
		{idCase("identity/advertise/2", "identity/advertising", MUST,
			`NIP-11 supported_nips never lists NIP-CL (no "nip-cl" or other string entry): the draft has no NIP number.`),
			func(t *T) {
				info, err := fixtures.FetchInfo(t.Ctx(), t.Env.URL, "")
				t.Must(err, "NIP-11 document")
				for _, v := range info.SupportedNIPs {
					_, isNumber := v.(float64)
					Expect(isNumber).To(BeTrue(), "supported_nips entry %s must be a NIP number", fmt.Sprintf("%#v", v))
				}
				Expect(info.NIPsContainString("nip-cl")).To(BeFalse(), "supported_nips must not contain \"nip-cl\"")
			}},
		{idCase("identity/trust/1", "identity/trust", MUST,
			"Every channel-state event carrying identity tags (39000-39002, after create, label edit, membership and ownership changes) is signed by the relay key (NIP-11 self)."),
			func(t *T) {
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
