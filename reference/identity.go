package reference

import "github.com/nbd-wtf/go-nostr"

// identityProfile implements nip-cl-identity.md ("Channel Identity and
// Discovery"). For now it is plain NIP-29 plus the "nip-cl" advertisement.
//
// TODO(identity): everything below is the none behaviour; fill in:
//   - onCreate/onEdit: ["t", label] tags (max 8 distinct, 1-64 of a-z0-9.:-,
//     not a type name; ["t",""] alone clears on 9002; no t = unchanged).
//   - stateTags: on 39000-39002 ["t", type], ["t", label]..., ["P", creator]
//     before any other t/P tag; 39000 also ["created_at", ch.CreatedAt];
//     private system channels get ["hidden"].
//   - readSQL/readMatch: leave system (and non-legacy) channels out of reads
//     that do not name them (#h, or #d with kinds all 39000-39003), opt-in via
//     #t:["system"] or any #P on 39000-39003 filters; 44100/44101 #t rule and
//     "only to the p-tagged reader" rule.
//   - onMembership: store relay-signed 44100/44101 with ["p"], ["h"], ["t", type].
type identityProfile struct {
	noneProfile
	faults faultSet
}

func newIdentityProfile(f faultSet) profile { return identityProfile{faults: f} }

// identityFaults are the identity profile's fault switches (Profile "identity").
var identityFaults = []Fault{}

var _ profile = identityProfile{}

func (identityProfile) name() string         { return "identity" }
func (identityProfile) extensions() []string { return []string{"nip-cl"} }

// channelTypes: the identity draft adds system channels.
func (identityProfile) channelTypes() []string {
	return []string{"stream", "forum", "dm", "workflow", "system"}
}

// onCreate: system channels are private unless the 9007 says open.
// TODO(identity): parse and validate t labels.
func (identityProfile) onCreate(_ *nostr.Event, ch *Channel) error {
	if ch.Type == "system" && ch.Visibility == "" {
		ch.Visibility = visibilityPrivate
	}
	return nil
}
