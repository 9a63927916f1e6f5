package reference

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Policy is a relay policy switch: a configuration real relays run that is
// not a fault (no NIP sentence is broken) but that a harness must observe
// rather than assume — who may moderate, which keys are admitted, whether
// 39001 names roles, how equal created_at values are ordered. Under every
// policy a conformant relay must get 0 failures; what the harness cannot
// drive is reported once as a precondition.
type Policy struct {
	Name      string // switch name, as passed in Config.Policies
	Describes string // the configuration it reproduces, in our words
}

// policyCatalogue is every policy switch. Each name is checked at the
// place of the behaviour it changes, through r.policy(name).
var policyCatalogue = []Policy{
	// Clock-tie order of REQ answers (same-second order).
	{policyTiesNewestStoredFirst, "REQ answers list events with equal created_at newest-stored first, not lowest id first (NIP-01's \"should\"; no case judges it, and no verdict may rest on it)"},
	{policyTiesFirstStoredFirst, "REQ answers list events with equal created_at first-stored first, not lowest id first (NIP-01's \"should\"; no case judges it, and no verdict may rest on it)"},
	{policyEveryKeyModerates, "every authenticated key may moderate every group (9000, 9001, 9002), while 39001 lists only the keys given roles (the creator); NIP-29 leaves what each role may do to the relay"},
	{policyListedCreators, "only the keys in Config.CreatorKeys (serve/run --creator-key) may create groups (9007); every other key's 9007 is answered \"restricted:\""},
	{policyListedKeysOnly, "only the keys in Config.AdmittedKeys (serve/run --admit-key) may write; every other key's EVENT is answered \"restricted:\" after AUTH"},
	// NIP-29 live audio/video (livekit.go).
	{policyNoLiveKit, "no live audio/video support: /.well-known/nip29/livekit and the token endpoint answer 404"},
	// NIP-29's private and hidden flags read literally (labels cases).
	{policyPrivateMetadataPublic, "NIP-29's flags read literally: \"private\" hides a group's messages only, and only \"hidden\" hides its metadata, so a private group that is not hidden serves its 39000 to anyone (not in the identity profile, whose draft hides a private channel's metadata)"},
}

// Policy switch names.
const (
	policyEveryKeyModerates = "every-key-moderates"
	policyListedKeysOnly    = "listed-keys-only"
	policyListedCreators    = "listed-creators"
	// policyPrivateMetadataPublic: a private, not hidden group's 39000 is
	// readable by anyone (Relay.metadataPublic).
	policyPrivateMetadataPublic = "private-metadata-public"
)

// actorRole is the role a command's author acts with in ch: its own, or,
// under every-key-moderates, at least admin.
func (r *Relay) actorRole(ch *Channel, pubkey string) string {
	role := ch.roleOf(pubkey)
	if r.policy(policyEveryKeyModerates) && roleRank(role) < roleRank(roleAdmin) {
		return roleAdmin
	}
	return role
}

// mayCreate reports whether pubkey may create groups: always, unless
// listed-creators is on and the key is not listed.
func (r *Relay) mayCreate(pubkey string) bool {
	return !r.policy(policyListedCreators) || slices.Contains(r.cfg.CreatorKeys, pubkey)
}

// admitted reports whether the relay admits writes from pubkey: always,
// unless listed-keys-only is on and the key is not listed.
func (r *Relay) admitted(pubkey string) bool {
	if !r.policy(policyListedKeysOnly) || pubkey == r.pubKey {
		return true
	}
	return slices.Contains(r.cfg.AdmittedKeys, pubkey)
}

// Policies returns every policy switch, sorted by name.
func Policies() []Policy {
	out := append([]Policy(nil), policyCatalogue...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// parsePolicies validates the requested policy switches.
func parsePolicies(names []string) (map[string]bool, error) {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		known := false
		for _, p := range policyCatalogue {
			if p.Name == n {
				known = true
				break
			}
		}
		if !known {
			valid := make([]string, 0, len(policyCatalogue))
			for _, p := range Policies() {
				valid = append(valid, p.Name)
			}
			return nil, fmt.Errorf("reference: unknown policy %q (valid: %s)", n, strings.Join(valid, ", "))
		}
		set[n] = true
	}
	return set, nil
}

// policy reports whether the named policy switch is on.
func (r *Relay) policy(name string) bool { return r.policies[name] }

// Clock-tie order policies: how a REQ answer orders events with equal
// created_at. NIP-01 asks for the lowest id first ("in the case of ties the
// event with the lowest id (first in lexical order) should be first"),
// which the reference relay does by default; many relays list ties in
// storage order instead. The harness must not depend on either: under
// these policies a clean relay passes every profile
// (conformance/ties).
const (
	policyTiesNewestStoredFirst = "ties-newest-stored-first"
	policyTiesFirstStoredFirst  = "ties-first-stored-first"
)

// tieOrderSQL is the ORDER BY term that breaks created_at ties in REQ
// answers (alias e is the events table).
func (r *Relay) tieOrderSQL() string {
	switch {
	case r.policy(policyTiesNewestStoredFirst):
		return "e.seq DESC"
	case r.policy(policyTiesFirstStoredFirst):
		return "e.seq ASC"
	}
	return "e.id ASC"
}

// tiesByID reports whether REQ answers break created_at ties by the lowest
// id (the default); under a tie-order policy the merge of several filters
// keeps each filter's own order for ties.
func (r *Relay) tiesByID() bool {
	return !r.policy(policyTiesNewestStoredFirst) && !r.policy(policyTiesFirstStoredFirst)
}
