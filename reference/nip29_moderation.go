package reference

import (
	"database/sql"
	"errors"
	"github.com/nipcl/nipcl-conform/internal/text"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-29's moderation table beyond put/remove/edit/create/delete-group,
// and timeline references.
//
//   - 9005 delete-event: an owner or admin names events of the group with
//     e tags; each is soft-deleted (deleted_events, as NIP-09 deletions are)
//     so that no read path serves it again: #h, ids, authors, kinds,
//     COUNT. An e tag naming no event of this group, or a relay-signed
//     state event, refuses the whole 9005. The 9005 itself is stored.
//   - previous: every value of a group event's previous tags must be a
//     lowercase hex prefix (4 to 64 digits; NIP-29's clients send 8) of an
//     event stored in the community, else the event is refused with
//     invalid:. NIP-29: "Relays are expected to reject any events that
//     contain timeline references to events not found in their own
//     database." Config.MinPrevious (serve --min-previous) also refuses an
//     event with fewer references, NIP-29's recommendation for relays,
//     counting only what the author could reference (up to MinPrevious of
//     the group's events by other keys, in a group the author can read:
//     not deleted, open or with the author in it), so a new group can
//     start and a key that reads nothing of a group names nothing.
const kindDeleteEvent = 9005

// deleteEvent applies a 9005 delete-event.
func (r *Relay) deleteEvent(t *txn, ev *nostr.Event, ch *Channel) error {
	if role := ch.roleOf(ev.PubKey); !mayModerate(role) && !r.permits(actDeleteEvent, role) {
		return reject("restricted", "only an owner or admin may delete events")
	}
	var ids []string
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "e" {
			continue
		}
		if len(tag) < 2 || !isHex64(tag[1]) {
			return reject("invalid", "e tag needs a 64-hex event id")
		}
		var kind int
		var channel string
		err := t.q.QueryRow(`SELECT kind, channel FROM events WHERE community = ? AND id = ?`, t.community, tag[1]).Scan(&kind, &channel)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return reject("invalid", "event %s is not stored on this relay", tag[1])
		case err != nil:
			return err
		}
		if channel != ch.UUID {
			return reject("invalid", "event %s is not in group %s", tag[1], ch.UUID)
		}
		if isGroupState(kind) {
			return reject("restricted", "relay-signed group state cannot be deleted")
		}
		ids = append(ids, tag[1])
	}
	if len(ids) == 0 {
		return reject("invalid", `9005 needs at least one ["e", <event id>] tag`)
	}
	if err := t.insert(ev, ch.UUID); err != nil {
		return err
	}
	// Fault delete-event-ignored: the 9005 is stored, nothing is deleted.
	if r.fault(faultDeleteEventIgnored) {
		return nil
	}
	for _, id := range ids {
		if _, err := t.q.Exec(`INSERT OR IGNORE INTO deleted_events (community, id) VALUES (?, ?)`, t.community, id); err != nil {
			return err
		}
	}
	return nil
}

// unserveModeration is where fault moderation-events-unserved hides an
// accepted moderation event from every read.
func (r *Relay) unserveModeration(t *txn, ev *nostr.Event) error {
	if !isGroupCommand(ev.Kind) || !r.fault(faultModerationEventsUnserved) {
		return nil
	}
	_, err := t.q.Exec(`INSERT OR IGNORE INTO deleted_events (community, id) VALUES (?, ?)`, t.community, ev.ID)
	return err
}

// checkTimeline refuses a group event whose previous tags name events the
// relay does not have.
func (r *Relay) checkTimeline(t *txn, ev *nostr.Event) error {
	n := 0
	for _, tag := range ev.Tags {
		if len(tag) > 0 && tag[0] == "previous" {
			n += len(tag) - 1
		}
	}
	if n < r.cfg.MinPrevious {
		// The minimum counts only what the author could reference (NIP-29:
		// "events seen by the user"): the group's events by other keys
		// (relay-signed state aside, deleted ones too) in a group the
		// author can read — one that exists and is not deleted, open or
		// with the author in it.
		id, _ := channelID(ev)
		ch, err := t.channel(id)
		if err != nil {
			return err
		}
		var others int
		if ch != nil && !ch.Deleted && (ch.Visibility == visibilityOpen || ch.roleOf(ev.PubKey) != "") {
			if err := t.q.QueryRow(`SELECT COUNT(*) FROM (SELECT 1 FROM events e WHERE e.community = ? AND e.channel = ? AND e.pubkey != ? AND e.kind < 39000 AND `+notDeletedSQL+` LIMIT ?)`,
				t.community, id, ev.PubKey, r.cfg.MinPrevious).Scan(&others); err != nil {
				return err
			}
		}
		if n < others {
			return reject("invalid", "a group event needs at least %d previous references (of the group's events by others), got %d", others, n)
		}
	}
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "previous" {
			continue
		}
		// Fault previous-refused: any timeline reference refuses the event.
		if r.fault(faultPreviousRefused) {
			return reject("invalid", "timeline references are not accepted")
		}
		for _, v := range tag[1:] {
			if len(v) < 4 || len(v) > 64 || !isLowerHex(v) {
				return reject("invalid", "previous reference %q is not a lowercase hex event id prefix", text.Clip(v, 64))
			}
			// Fault previous-unchecked: references are not looked up.
			if r.fault(faultPreviousUnchecked) {
				continue
			}
			var n int
			if err := t.q.QueryRow(`SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE community = ? AND substr(id, 1, ?) = ? LIMIT 1)`,
				t.community, len(v), v).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return reject("invalid", "previous reference %s names no event on this relay", v)
			}
		}
	}
	return nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
