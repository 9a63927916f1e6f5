package reference

import (
	"maps"
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

// The verbs of a read, as the readFilter and skipAccess hooks see them.
const (
	readREQ   = "REQ"   // the stored answer of a REQ
	readCOUNT = "COUNT" // a NIP-45 COUNT
	readLive  = "live"  // live delivery to an open subscription
)

// readFilter is f as the relay reads it for verb: f itself without
// readFilter hooks, else a copy the hooks rewrote.
func (r *Relay) readFilter(f *nostr.Filter, verb string) *nostr.Filter {
	if len(r.hooks.readFilter) == 0 {
		return f
	}
	cp := *f
	cp.Tags = maps.Clone(f.Tags)
	for _, h := range r.hooks.readFilter {
		cp = h(cp, verb)
	}
	return &cp
}

// skipsAccess reports whether a skipAccess hook leaves the read-access rule
// out of the read of f by verb.
func (r *Relay) skipsAccess(f *nostr.Filter, verb string) bool {
	for _, h := range r.hooks.skipAccess {
		if h(f, verb) {
			return true
		}
	}
	return false
}

// A readGrant widens the read-access rule: events matching it are readable
// beyond the rule, in the stored reads (an SQL condition over e, events,
// and c, channels) and in live delivery (the same in Go).
type readGrant struct {
	// sql is the condition and its arguments ("" = none for this read).
	sql func(rd *reader, forCount bool) (string, []any)
	// deleted: the grant reaches deleted channels too (else only the
	// channels the rule itself reads: not deleted).
	deleted bool
	// live is the grant in Go (nil: stored reads only).
	live func(ev *nostr.Event, ch *Channel) bool
}

// grantSQL is the OR of the grants' conditions for deleted or live
// channels, with their arguments ("" = none).
func (r *Relay) grantSQL(rd *reader, forCount, deleted bool) (string, []any) {
	cond, args := "", []any(nil)
	for _, g := range r.hooks.grantRead {
		if g.deleted != deleted || g.sql == nil {
			continue
		}
		if c, a := g.sql(rd, forCount); c != "" {
			cond += " OR " + c
			args = append(args, a...)
		}
	}
	return cond, args
}

// granted reports whether a grant makes ev, of channel ch (deleted or
// not, as deleted says), readable in Go.
func (r *Relay) granted(ev *nostr.Event, ch *Channel, deleted bool) bool {
	for _, g := range r.hooks.grantRead {
		if g.deleted == deleted && g.live != nil && g.live(ev, ch) {
			return true
		}
	}
	return false
}

// The actions a permit hook may open to a role the conforming rule refuses
// (NIP-29: owners and admins moderate; members and outsiders do not).
const (
	actEditMetadata   = "edit-metadata"   // 9002
	actRemoveUser     = "remove-user"     // 9001
	actDeleteEvent    = "delete-event"    // 9005
	actCreateInvite   = "create-invite"   // 9009
	actUpdatePins     = "update-pins"     // 9010
	actChangeLabels   = "change-labels"   // a label mutation (labels draft)
	actJoinAV         = "join-av"         // a LiveKit token for a private group
	actPostRestricted = "post-restricted" // an outsider's write to a restricted group
	actPublishState   = "publish-state"   // a user-signed 39000-39003
	actJoinAnyCode    = "join-any-code"   // a join request to a closed group with a code no 9009 made
)

// permits reports whether a permit hook lets role take action although
// the conforming rule refuses it.
func (r *Relay) permits(action, role string) bool {
	for _, h := range r.hooks.permit {
		if h(action, role) {
			return true
		}
	}
	return false
}

// editedClaims runs the tokenClaims hooks over a LiveKit token's claims.
func (r *Relay) editedClaims(claims map[string]any) {
	for _, h := range r.hooks.tokenClaims {
		h(claims)
	}
}

// editedChannel runs the editChannel hooks over the group next that ev
// leaves (prev nil for a 9007).
func (r *Relay) editedChannel(ev *nostr.Event, prev, next *Channel) {
	for _, h := range r.hooks.editChannel {
		h(ev, prev, next)
	}
}

// A profileGrant widens the profile's read rule (the identity draft's
// system channels): channel events (not notices) matching it are readable
// beyond the rule, for filter f (as the profile's rule judges it).
type profileGrant struct {
	// sql is the condition over e and c for a stored read by verb
	// (readREQ, readCOUNT), with its arguments ("" = none).
	sql func(f *nostr.Filter, rd *reader, verb string) (string, []any)
	// live is the grant in Go for live delivery (nil = none).
	live func(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool
}

// profileGrantSQL widens the profile's stored-read condition cond ("" =
// the profile has no rule: nothing to widen).
func (r *Relay) profileGrantSQL(f *nostr.Filter, rd *reader, cond string, args []any) (string, []any) {
	if cond == "" {
		return cond, args
	}
	verb := readREQ
	if rd.count {
		verb = readCOUNT
	}
	for _, g := range r.hooks.grantProfileRead {
		if g.sql == nil {
			continue
		}
		if c, a := g.sql(f, rd, verb); c != "" {
			cond = "(" + cond + ") OR (" + c + ")"
			args = append(args, a...)
		}
	}
	return cond, args
}

// profileGranted reports whether a profileGrant delivers ev live.
func (r *Relay) profileGranted(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool {
	for _, g := range r.hooks.grantProfileRead {
		if g.live != nil && g.live(f, rd, ev, ch) {
			return true
		}
	}
	return false
}

// stateKey is the key that signs the relay's state events other than a
// regenerated 39003 (39000-39005): the relay's own unless a signState hook
// names another.
func (r *Relay) stateKey() string { return r.stateKeyOf(0) }

// stateKeyOf is the key that signs a regenerated state event of kind.
func (r *Relay) stateKeyOf(kind int) string {
	for _, h := range r.hooks.signState {
		if k := h(kind); k != "" {
			return k
		}
	}
	return r.secretKey
}

// subscribed runs the subscription hooks: the filters subID holds after a
// REQ (next, its filters) or a CLOSE (next nil) on a connection where it
// held old.
func (r *Relay) subscribed(subID string, old, next nostr.Filters) nostr.Filters {
	for _, h := range r.hooks.subscription {
		next = h(subID, old, next)
	}
	return next
}
