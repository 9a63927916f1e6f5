package reference

import (
	"net/http"
	"sort"

	"github.com/nbd-wtf/go-nostr"
)

// Variants, policies, readings and faults are one mechanism: named switches
// (Variant is the switch type) whose install func appends to the relay's
// hook slices (hooks, variants.go), as khatru composes a relay from hook
// slices. A fault whose row carries an install func is a switch of kind
// "fault"; faultSwitches turns the faults that are on into such switches,
// and installSwitches installs them after the variants, in one path.

// faultSwitches returns the faults of set that are hook sets, as switches
// of kind "fault", sorted by name so that the installation order is fixed.
func faultSwitches(set faultSet) []Variant {
	var out []Variant
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			if f.install == nil || !set.on(f.Name) {
				continue
			}
			var profiles []string
			if tb.profile != "" {
				profiles = []string{tb.profile}
			}
			out = append(out, Variant{Name: string(f.Name), Kind: "fault", Profiles: profiles,
				Describes: f.Breaks, install: f.install})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// installSwitches installs every switch in order: each appends to r.hooks
// (or sets the relay state its hooks read).
func installSwitches(r *Relay, switches []Variant) {
	for _, v := range switches {
		if v.install != nil {
			v.install(r)
		}
	}
}

// editedStateTags runs the editStateTags hooks over the tags of a state
// event of kind for ch.
func (r *Relay) editedStateTags(kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
	for _, h := range r.hooks.editStateTags {
		tags = h(kind, ch, tags)
	}
	return tags
}

// okReason runs the okText hooks over the reason of an OK.
func (r *Relay) okReason(ev *nostr.Event, accepted bool, reason string) string {
	for _, h := range r.hooks.okText {
		reason = h(ev, accepted, reason)
	}
	return reason
}

// servedInfo runs the serveInfo hooks over the NIP-11 document answering
// req.
func (r *Relay) servedInfo(req *http.Request, doc *Info) {
	for _, h := range r.hooks.serveInfo {
		h(req, doc)
	}
}
