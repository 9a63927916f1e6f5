package reference

import (
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"slices"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-29 pinned events: the 9010 update-pin-list moderation event carries
// the whole list as e and a tags; the relay regenerates the group's kind
// 39005 to mirror it.
//
// The reference relay's reading:
//
//   - 9010 from an owner or admin: every e tag needs a 64-hex event id,
//     every a tag an address "<kind>:<64-hex pubkey>:<d>" ("invalid:"
//     otherwise); at most maxPins references. The pinned events need not
//     be stored here. Other tags are ignored. From anyone else:
//     "restricted:".
//   - an accepted 9010 is stored and the relay-signed 39005 ["d", id]
//     followed by the 9010's e and a tags, as given and in order, replaces
//     the previous one (a 9010 without references clears the list). A
//     group gets its first 39005 with its first 9010.
//   - users may not publish 39005 themselves ("restricted:"); a deleted
//     group's 39005 leaves storage with its other state.

// Kinds of pinned events.
const (
	kindUpdatePins = 9010
	kindGroupPins  = 39005
)

// maxPins is how many references one pin list may hold.
const maxPins = 64

// updatePins applies a 9010 update-pin-list to ch.
func (r *Relay) updatePins(t *txn, ev *nostr.Event, ch *Channel) error {
	role := ch.roleOf(ev.PubKey)
	if !mayModerate(role) && !r.permits(actUpdatePins, role) {
		return reject("restricted", "only an owner or admin may update the pinned events")
	}
	var refs nostr.Tags
	for _, tag := range ev.Tags {
		if len(tag) == 0 || (tag[0] != "e" && tag[0] != "a") {
			continue
		}
		if len(tag) < 2 {
			return reject("invalid", "a %s tag needs a value", tag[0])
		}
		if tag[0] == "e" && !isHex64(tag[1]) {
			return reject("invalid", "e tag %q is not a 64-hex event id", text.Clip(tag[1], 80))
		}
		if tag[0] == "a" && !validAddress(tag[1]) {
			return reject("invalid", "a tag %q is not an address <kind>:<pubkey>:<d>", text.Clip(tag[1], 80))
		}
		refs = append(refs, slices.Clone(tag))
	}
	if len(refs) > maxPins {
		return reject("invalid", "at most %d pinned events, got %d", maxPins, len(refs))
	}
	if err := t.insert(ev, ch.UUID); err != nil {
		return err
	}
	prev, err := t.currentState(kindGroupPins, ch.UUID)
	if err != nil {
		return err
	}
	// Fault pins-not-regenerated: only the first 9010 makes a 39005.
	if prev != nil && r.fault(faultPinsNotRegenerated) {
		return nil
	}
	// Fault state-stale-on-removal: a list that drops a pin is not published.
	if prev != nil && r.fault(faultStateStaleOnRemoval) && dropsTag(tagsJSON(prev.Tags), refs) {
		return nil
	}
	ts := nostr.Timestamp(r.now().Unix())
	if prev != nil && ts <= prev.CreatedAt {
		ts = prev.CreatedAt + 1
	}
	tags := r.editedStateTags(kindGroupPins, ch, append(nostr.Tags{{"d", ch.UUID}}, refs...))
	pins := &nostr.Event{Kind: kindGroupPins, CreatedAt: ts, Tags: tags, Content: ""}
	if err := r.signer.sign(pins, r.stateKey()); err != nil {
		return fmt.Errorf("sign 39005: %w", err)
	}
	if err := t.deleteWhere(condStateOfKind, kindGroupPins, ch.UUID); err != nil {
		return err
	}
	return t.insert(pins, ch.UUID)
}

// validAddress reports whether s is "<kind>:<64-hex pubkey>:<d>".
func validAddress(s string) bool {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 || !isHex64(parts[1]) {
		return false
	}
	k, err := strconv.Atoi(parts[0])
	return err == nil && k >= 0
}
