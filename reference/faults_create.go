package reference

import "github.com/nbd-wtf/go-nostr"

// takeOver is what a 9007 on a live group does under the fault
// create-takes-over-existing: the group starts over with the 9007's
// metadata and flags, and its sender joins as an owner.
func (r *Relay) takeOver(t *txn, ev *nostr.Event, prev *Channel) error {
	next := prev.clone()
	next.Name, next.About, next.Picture, next.Banner = "", "", "", ""
	next.Visibility, next.Closed, next.Hidden, next.Restricted = "", false, false, false
	if err := r.applyMetadata(ev, next); err != nil {
		return err
	}
	if next.Visibility == "" {
		next.Visibility = visibilityOpen
	}
	next.Members[ev.PubKey] = roleOwner
	if err := t.saveChannel(next); err != nil {
		return err
	}
	if err := t.insert(ev, next.UUID); err != nil {
		return err
	}
	if err := r.profile.onMembership(t, next, ev.PubKey, true); err != nil {
		return err
	}
	return r.publishState(t, next)
}
