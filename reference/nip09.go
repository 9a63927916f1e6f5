package reference

import (
	"github.com/nbd-wtf/go-nostr"
)

// kindDeletion is NIP-09's deletion request.
const kindDeletion = 5

// deletedSchema records NIP-09 deletions as soft deletions: the deleted
// event stays stored (a label command's stored event is its application
// evidence, which the labels draft requires to survive soft deletion) and
// reads leave it out.
const deletedSchema = `
CREATE TABLE IF NOT EXISTS deleted_events (
	community TEXT NOT NULL,
	id        TEXT NOT NULL,
	PRIMARY KEY (community, id)
);
`

// notDeletedSQL is the read condition that leaves soft-deleted events out.
const notDeletedSQL = "NOT EXISTS (SELECT 1 FROM deleted_events x WHERE x.community = e.community AND x.id = e.id)"

// deletionRequest applies a kind 5: every event its e tags name that the
// same key signed is deleted for readers. Events of other keys, unknown ids
// and a tags are left alone (NIP-09 lets a relay ignore what it cannot
// attribute).
func (r *Relay) deletionRequest(t *txn, ev *nostr.Event) error {
	for _, tag := range ev.Tags {
		if len(tag) < 2 || tag[0] != "e" || !isHex64(tag[1]) {
			continue
		}
		var n int
		if err := t.q.QueryRow(`SELECT COUNT(*) FROM events WHERE community = ? AND id = ? AND pubkey = ?`,
			t.community, tag[1], ev.PubKey).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		// Fault labels-deletion-drops-evidence: the event is removed
		// outright, and with it a label command's application evidence.
		// Fault labels-deletion-deferred-drops-evidence: the same, a little
		// after the kind 5 was acknowledged.
		if r.fault(faultLabelsDeletionDeferred) {
			r.deleteLater(t.community, tag[1])
			continue
		}
		if r.fault(faultLabelsDeletionDropsEvidence) {
			if err := t.deleteWhere("id = ?", tag[1]); err != nil {
				return err
			}
			continue
		}
		if _, err := t.q.Exec(`INSERT OR IGNORE INTO deleted_events (community, id) VALUES (?, ?)`, t.community, tag[1]); err != nil {
			return err
		}
	}
	return nil
}
