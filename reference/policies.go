package reference

import (
	"fmt"
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
	// NIP-CL labels (issue 28).
	{policyPrivateMetadataPublic, "NIP-29's flags read literally: \"private\" hides a group's messages only, and only \"hidden\" hides its metadata, so a private group that is not hidden serves its 39000 to anyone (not in the identity profile, whose draft hides a private channel's metadata)"},
}

// Policy switch names.
const (
	// policyPrivateMetadataPublic: a private, not hidden group's 39000 is
	// readable by anyone (Relay.metadataPublic).
	policyPrivateMetadataPublic = "private-metadata-public"
)

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
