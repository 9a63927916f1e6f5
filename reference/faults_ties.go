package reference

import (
	"github.com/nbd-wtf/go-nostr"
)

// Same-second faults: the relay orders a group's commands by (created_at,
// id), the higher id later, instead of by acceptance, so a command that
// shares its second with an earlier one whose id sorts after its own is
// taken to have happened first and loses. Neither careful reading of
// "latest" on a tie (arrival order, or NIP-01's lowest-id rule) lets it
// lose; the same-second cases (base/ties/*) build exactly that tie.
const (
	faultSameSecondLeaveLost    = "same-second-leave-lost"
	faultSameSecondRemovalLost  = "same-second-removal-lost"
	faultSameSecondEditLost     = "same-second-edit-lost"
	faultReplaceableTieLastWins = "replaceable-tie-last-wins"
)

// tiesFaults break the same-second rules.
var tiesFaults = []faultSpec{
	{faultSameSecondLeaveLost, "", "nip29/leave",
		"a 9022 in the same second as the 9000 that added the member, whose id sorts before the 9000's, is accepted but ordered before it: the member stays"},
	{faultSameSecondRemovalLost, "", "nip29/membership",
		"a 9001 in the same second as the 9000 that added the user, whose id sorts before the 9000's, is accepted but ordered before it: the user stays a member"},
	{faultSameSecondEditLost, "", "nip29/metadata",
		"a 9002 in the same second as the group's previous 9002, whose id sorts before it, is accepted but ordered before it: the 39000 keeps the older edit"},
	{faultReplaceableTieLastWins, "", "nip01/replaceable",
		"of two versions of an addressable event with the same created_at, the one stored last is kept, not the one with the lowest id"},
}

// sameSecondLater reports whether the channel holds a stored command of
// kind, in ev's second, whose id sorts after ev's — naming pubkey in a p
// tag when pubkey is not empty. Under the same-second faults that command
// counts as the later one.
func (t *txn) sameSecondLater(ev *nostr.Event, channel string, kind int, pubkey string) (bool, error) {
	q := `SELECT COUNT(*) FROM events e WHERE e.community = ? AND e.channel = ? AND e.kind = ? AND e.created_at = ? AND e.id > ?`
	args := []any{t.community, channel, kind, int64(ev.CreatedAt), ev.ID}
	if pubkey != "" {
		q += ` AND EXISTS (SELECT 1 FROM event_tags g WHERE g.event_seq = e.seq AND g.name = 'p' AND g.value = ?)`
		args = append(args, pubkey)
	}
	var n int
	err := t.q.QueryRow(q, args...).Scan(&n)
	return n > 0, err
}

// lostToSameSecond applies a same-second fault: when faultOn (the caller's
// r.fault(...) of that fault) and ev loses to a same-second command (see
// sameSecondLater), ev is stored and accepted without effect, and lost is
// true.
func (r *Relay) lostToSameSecond(t *txn, faultOn bool, ev *nostr.Event, channel string, kind int, pubkey string) (lost bool, err error) {
	if !faultOn {
		return false, nil
	}
	later, err := t.sameSecondLater(ev, channel, kind, pubkey)
	if err != nil || !later {
		return false, err
	}
	return true, t.insert(ev, channel)
}
