package reference

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestMigrateOldEventTags opens a database file whose event_tags predates
// the kind/created_at columns: the relay migrates it on open, backfills
// both columns, gains the trigger that deletes an event's tag rows, and tag reads (which now walk event_tags_time) still find
// the old events.
func TestMigrateOldEventTags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	key := nostr.GeneratePrivateKey()
	r, url := startRelay(t, Config{DBPath: path, SecretKey: key})
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	c.close()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	// Rewrite event_tags in the old shape (which had no delete trigger).
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DROP TRIGGER events_delete_tags`,
		`CREATE TABLE old_tags AS SELECT community, event_seq, name, value FROM event_tags`,
		`DROP TABLE event_tags`,
		`ALTER TABLE old_tags RENAME TO event_tags`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	r2, url2 := startRelay(t, Config{DBPath: path, SecretKey: key})
	var zero int
	if err := r2.db.QueryRow(`SELECT COUNT(*) FROM event_tags WHERE kind = 0 OR created_at = 0`).Scan(&zero); err != nil || zero != 0 {
		t.Fatalf("%d tag rows without kind/created_at after migration (%v)", zero, err)
	}
	var triggers int
	if err := r2.db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'events_delete_tags'`).Scan(&triggers); err != nil || triggers != 1 {
		t.Fatalf("the migrated database has %d events_delete_tags triggers (%v)", triggers, err)
	}
	c2 := dial(t, url2)
	c2.auth(owner)
	if meta := c2.state(kindGroupMetadata, id); meta == nil {
		t.Fatal("#d read finds no 39000 after migration")
	}
}
