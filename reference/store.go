package reference

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/mailru/easyjson/jlexer"
	"github.com/nbd-wtf/go-nostr"
	_ "modernc.org/sqlite" // driver "sqlite"

	"github.com/nipcl/nipcl-conform/clause"
)

// schema is the whole database. Everything is scoped by community (the host
// the connection came in on).
const schema = `
CREATE TABLE IF NOT EXISTS events (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	community  TEXT    NOT NULL,
	id         TEXT    NOT NULL,
	pubkey     TEXT    NOT NULL,
	kind       INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	content    TEXT    NOT NULL,
	tags       TEXT    NOT NULL, -- JSON array of arrays
	sig        TEXT    NOT NULL,
	channel    TEXT    NOT NULL DEFAULT '', -- h tag; d tag for 39000-39003
	dtag       TEXT    NOT NULL DEFAULT '', -- d tag (addressable kinds)
	received_at INTEGER NOT NULL,
	UNIQUE (community, id)
);
CREATE INDEX IF NOT EXISTS events_time    ON events (community, created_at DESC, id);
CREATE INDEX IF NOT EXISTS events_kind    ON events (community, kind, created_at DESC, id);
CREATE INDEX IF NOT EXISTS events_author  ON events (community, pubkey, created_at DESC, id);
CREATE INDEX IF NOT EXISTS events_channel ON events (community, channel, kind, created_at DESC);
CREATE INDEX IF NOT EXISTS events_addr    ON events (community, kind, pubkey, dtag);

-- single-letter tags, first value only (NIP-01 indexing); kind and
-- created_at repeat the event's, so a tag filter reads its matches newest
-- first from event_tags_time and stops at LIMIT (see selectSQL).
CREATE TABLE IF NOT EXISTS event_tags (
	community  TEXT    NOT NULL,
	event_seq  INTEGER NOT NULL,
	name       TEXT    NOT NULL,
	value      TEXT    NOT NULL,
	kind       INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS event_tags_time  ON event_tags (community, name, value, kind, created_at DESC, event_seq);
-- per-event tag checks (EXISTS on another tag filter, the first-match check
-- of selectSQL) read this index only
CREATE INDEX IF NOT EXISTS event_tags_seq   ON event_tags (event_seq, name, value);
-- an event's tag rows go with it (one DELETE per removal instead of two)
CREATE TRIGGER IF NOT EXISTS events_delete_tags AFTER DELETE ON events
BEGIN
	DELETE FROM event_tags WHERE event_seq = old.seq;
END;

CREATE TABLE IF NOT EXISTS channels (
	community  TEXT    NOT NULL,
	uuid       TEXT    NOT NULL,
	type       TEXT    NOT NULL,
	visibility TEXT    NOT NULL, -- open|private
	archived   INTEGER NOT NULL DEFAULT 0,
	deleted    INTEGER NOT NULL DEFAULT 0,
	name       TEXT    NOT NULL DEFAULT '',
	about      TEXT    NOT NULL DEFAULT '',
	picture    TEXT    NOT NULL DEFAULT '',
	banner     TEXT    NOT NULL DEFAULT '',
	closed     INTEGER NOT NULL DEFAULT 0, -- NIP-29 flags (private is visibility)
	hidden     INTEGER NOT NULL DEFAULT 0,
	restricted INTEGER NOT NULL DEFAULT 0,
	creator    TEXT    NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	labels     TEXT    NOT NULL DEFAULT '[]', -- JSON array, profile-owned
	ext        TEXT    NOT NULL DEFAULT '{}', -- JSON object, profile-owned
	PRIMARY KEY (community, uuid)
);

CREATE TABLE IF NOT EXISTS members (
	community TEXT NOT NULL,
	uuid      TEXT NOT NULL,
	pubkey    TEXT NOT NULL,
	role      TEXT NOT NULL, -- owner|admin|member
	PRIMARY KEY (community, uuid, pubkey)
);
CREATE INDEX IF NOT EXISTS members_pubkey ON members (community, pubkey);

-- every UUID a 9007 ever used in the community; never removed
CREATE TABLE IF NOT EXISTS used_uuids (
	community TEXT    NOT NULL,
	uuid      TEXT    NOT NULL,
	event_id  TEXT    NOT NULL, -- the 9007 that used it
	used_at   INTEGER NOT NULL,
	PRIMARY KEY (community, uuid)
);
`

var memDBSeq atomic.Int64

func openDB(path string) (*sql.DB, error) {
	var dsn string
	if path == "" {
		dsn = fmt.Sprintf("file:nipcl-ref-%d-%d?mode=memory&cache=shared&_pragma=busy_timeout(5000)",
			memDBSeq.Add(1), randomUint())
	} else {
		q := url.Values{}
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "busy_timeout(5000)")
		q.Add("_pragma", "synchronous(NORMAL)")
		// Reads map the file instead of a pread per page, and each
		// connection keeps up to 64 MiB of pages: a discovery read over a
		// large database otherwise spends a third of its time in pread.
		q.Add("_pragma", "mmap_size(4294967296)")
		q.Add("_pragma", "cache_size(-65536)")
		q.Set("_txlock", "immediate")
		dsn = "file:" + path + "?" + q.Encode()
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if path == "" {
		// One connection keeps the in-memory database alive and serializes
		// access to it; the relay's own write lock orders writers anyway.
		db.SetMaxOpenConns(1)
	} else {
		db.SetMaxOpenConns(4)
	}
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("reference: migrate schema: %w", err)
	}
	if _, err := db.Exec(schema + deletedSchema + invitesSchema + subgroupsSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("reference: create schema: %w", err)
	}
	return db, nil
}

// migrate brings a database file of an older schema up to date before the
// schema's indexes are created: event_tags gained kind and created_at,
// channels the NIP-29 metadata columns.
func migrate(db *sql.DB) error {
	if err := migrateEventTags(db); err != nil {
		return fmt.Errorf("event_tags: %w", err)
	}
	if err := migrateChannels(db); err != nil {
		return fmt.Errorf("channels: %w", err)
	}
	return nil
}

// channelColumnsAdded are the channels columns added after the first
// schema, with their definitions (as in schema).
var channelColumnsAdded = [][2]string{
	{"picture", "TEXT NOT NULL DEFAULT ''"},
	{"banner", "TEXT NOT NULL DEFAULT ''"},
	{"closed", "INTEGER NOT NULL DEFAULT 0"},
	{"hidden", "INTEGER NOT NULL DEFAULT 0"},
	{"restricted", "INTEGER NOT NULL DEFAULT 0"},
}

// migrateChannels adds the NIP-29 metadata columns (picture, banner and the
// closed, hidden and restricted flags) to a channels table that predates
// them; existing channels get the defaults (no picture, no flag set).
func migrateChannels(db *sql.DB) error {
	var tables int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'channels'`).Scan(&tables); err != nil {
		return err
	}
	if tables == 0 {
		return nil
	}
	for _, col := range channelColumnsAdded {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('channels') WHERE name = ?`, col[0]).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if _, err := db.Exec(`ALTER TABLE channels ADD COLUMN ` + col[0] + ` ` + col[1]); err != nil {
			return fmt.Errorf("add column %s: %w", col[0], err)
		}
	}
	return nil
}

// migrateEventTags adds kind and created_at to an old event_tags and
// backfills them.
func migrateEventTags(db *sql.DB) error {
	var tables, cols int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'event_tags'`).Scan(&tables); err != nil {
		return err
	}
	if tables == 0 {
		return nil
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('event_tags') WHERE name = 'created_at'`).Scan(&cols); err != nil {
		return err
	}
	if cols > 0 {
		return nil
	}
	for _, q := range []string{
		`ALTER TABLE event_tags ADD COLUMN kind INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE event_tags ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0`,
		`UPDATE event_tags SET kind = COALESCE((SELECT kind FROM events WHERE seq = event_seq), 0),
			created_at = COALESCE((SELECT created_at FROM events WHERE seq = event_seq), 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// --- transactions -----------------------------------------------------------

// txn is one write transaction of one community. Events stored through it
// are collected in emitted and pushed to subscribers after commit.
type txn struct {
	r         *Relay
	tx        *sql.Tx
	q         runner // tx through the prepared statements
	community string
	command   *nostr.Event // the client event the transaction applies (nil for none)
	emitted   []*nostr.Event
	// saved is each channel as this transaction last wrote it; live
	// delivery after commit reads it instead of the database.
	saved map[string]*Channel
}

func (r *Relay) newTxn(tx *sql.Tx, community string) *txn {
	return &txn{r: r, tx: tx, q: runner{db: r.db, tx: tx, stmts: r.stmts}, community: community}
}

// write runs fn in ONE transaction under the relay's write lock, commits,
// and then delivers every event the transaction stored to live
// subscriptions (still under the lock, so delivery order = commit order).
func (r *Relay) write(community string, fn func(t *txn) error) (err error) {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	tx, err := r.db.BeginTx(context.Background(), nil)
	if err != nil {
		return reject("error", "database unavailable")
	}
	// A panic inside fn must not leave the transaction open: with a single
	// in-memory connection every later command would block forever.
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			r.logf("panic in write transaction (rolled back): %v\n%s", p, debug.Stack())
			err = reject("error", "internal error; nothing was applied")
		}
	}()
	t := r.newTxn(tx, community)
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		r.logf("commit: %v", err)
		return reject("error", "commit failed")
	}
	r.liveSeq++
	// Each touched channel's committed state (as the transaction wrote it,
	// or else read once) serves all the events the transaction emitted for
	// it (a mutation emits the command and one to three state events).
	loaded := map[string]*Channel{}
	for _, ev := range t.emitted {
		var ch *Channel
		if id := channelOf(ev); id != "" {
			var ok bool
			ch, ok = loaded[id]
			if !ok {
				ch, ok = t.saved[id], t.saved[id] != nil
			}
			if !ok {
				var lerr error
				if ch, lerr = loadChannel(r.sqlDB(), community, id); lerr != nil {
					r.logf("broadcast: load channel: %v", lerr)
					continue // committed; this event is not delivered live
				}
			}
			loaded[id] = ch
		}
		if !r.deliveredLive(ev) {
			continue
		}
		// Fault labels-live-removal-feed: live #l reads also match the
		// labels the channel had.
		if ev.Kind == kindGroupMetadata && r.fault(faultLabelsLiveRemovalFeed) {
			r.faulty.removal.noteSnapshot(community, ev)
		}
		stored := ev
		// Fault labels-live-stale-labels: the live copy carries the
		// previous live snapshot's labels.
		if ev.Kind == kindGroupMetadata && r.fault(faultLabelsLiveStaleLabels) {
			ev = r.staleLabelsCopy(community, ev)
		}
		// Reading labels-live-snapshots=latest: a 39000 published soon
		// after the channel's last live one waits, and only the latest one
		// still current (stored's id) is delivered.
		if ev.Kind == kindGroupMetadata && r.reading(clause.ReadingLabelsLive, "latest") {
			r.coalesceSnapshot(community, stored, ev, ch)
			continue
		}
		r.broadcast(community, ev, ch, liveNow)
	}
	return nil
}

func tagsJSON(tags nostr.Tags) string {
	if tags == nil {
		tags = nostr.Tags{}
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

// insert stores ev (no replacement logic) and indexes its single-letter tags.
func (t *txn) insert(ev *nostr.Event, channel string) error {
	res, err := t.q.Exec(sqlInsertEvent,
		t.community, ev.ID, ev.PubKey, ev.Kind, int64(ev.CreatedAt), ev.Content, tagsJSON(ev.Tags), ev.Sig,
		channel, ev.Tags.GetD(), t.r.now().Unix())
	if err != nil {
		return fmt.Errorf("insert event: %w", err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return err
	}
	var rows []any
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		_, err := t.q.Exec(insertTagsSQL(len(rows)/6), rows...)
		rows = rows[:0]
		return err
	}
	for _, tag := range ev.Tags {
		if len(tag) < 2 || len(tag[0]) != 1 {
			continue
		}
		values := tag[1:2]
		// Fault labels-tag-later-values-indexed: later values are indexed too.
		if t.r.fault(faultReadsLaterValuesIndexed) {
			values = tag[1:]
		}
		for _, v := range values {
			rows = append(rows, t.community, seq, tag[0], v, ev.Kind, int64(ev.CreatedAt))
			if len(rows) == 6*maxTagRowsPerInsert {
				if err := flush(); err != nil {
					return fmt.Errorf("insert tags: %w", err)
				}
			}
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("insert tags: %w", err)
	}
	t.emitted = append(t.emitted, ev)
	return nil
}

// deleteWhere removes events matching cond (the events_delete_tags
// trigger removes their tag rows).
func (t *txn) deleteWhere(cond string, args ...any) error {
	_, err := t.q.Exec(deleteEventsSQL(cond), append([]any{t.community}, args...)...)
	return err
}

func (t *txn) hasEvent(id string) (bool, error) {
	var n int
	// Fault labels-evidence-cross-community: look the id up in every
	// community.
	if t.r.fault(faultLabelsEvidenceCommunity) {
		err := t.q.QueryRow(`SELECT COUNT(*) FROM events WHERE id = ?`, id).Scan(&n)
		return n > 0, err
	}
	err := t.q.QueryRow(sqlHasEvent, t.community, id).Scan(&n)
	return n > 0, err
}

// storeUserEvent stores a client event with NIP-01 replaceable/addressable
// semantics. It returns false when a newer version is already stored.
func (t *txn) storeUserEvent(ev *nostr.Event, channel string) (bool, error) {
	if isReplaceable(ev.Kind) || isAddressable(ev.Kind) {
		d := ""
		if isAddressable(ev.Kind) {
			d = ev.Tags.GetD()
		}
		var prevAt int64
		var prevID string
		err := t.q.QueryRow(sqlLatestAddressable, t.community, ev.Kind, ev.PubKey, d).Scan(&prevAt, &prevID)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return false, err
		default:
			// Fault replaceable-tie-last-wins: on a tie the later one is kept.
			tieKeepsPrev := prevID < ev.ID && !t.r.fault(faultReplaceableTieLastWins)
			if prevAt > int64(ev.CreatedAt) || (prevAt == int64(ev.CreatedAt) && tieKeepsPrev) {
				return false, nil
			}
			// Fault replaceable-first-wins: a newer version of a replaceable
			// event is answered OK true and dropped.
			if isReplaceable(ev.Kind) && t.r.fault(faultReplaceableFirstWins) {
				return true, nil
			}
			// Fault replaceable-keeps-older: the older version stays stored
			// (and served) beside the newer.
			if isReplaceable(ev.Kind) && t.r.fault(faultReplaceableKeepsOlder) {
				return true, t.insert(ev, channel)
			}
			if err := t.deleteWhere(condAddressable, ev.Kind, ev.PubKey, d); err != nil {
				return false, err
			}
		}
	}
	return true, t.insert(ev, channel)
}

// currentState returns the stored relay state event of kind for channel.
func (t *txn) currentState(kind int, uuid string) (*nostr.Event, error) {
	rows, err := t.q.Query(sqlCurrentState, t.community, kind, uuid)
	if err != nil {
		return nil, err
	}
	evs, err := scanEvents(rows)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	return evs[0], nil
}

// stateHead is the created_at and the tags (as stored, JSON) of a
// channel's current state event of one kind.
type stateHead struct {
	createdAt int64
	tags      string
}

// stateHeads returns the channel's current 39000-39003 by kind (a kind
// with none is absent).
func (t *txn) stateHeads(uuid string) (map[int]stateHead, error) {
	rows, err := t.q.Query(sqlStateHeads, t.community, uuid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	heads := map[int]stateHead{}
	for rows.Next() {
		var kind int
		var h stateHead
		if err := rows.Scan(&kind, &h.createdAt, &h.tags); err != nil {
			return nil, err
		}
		if _, seen := heads[kind]; !seen {
			heads[kind] = h
		}
	}
	return heads, rows.Err()
}

// --- channels -------------------------------------------------------------

func (t *txn) channel(uuid string) (*Channel, error) {
	return loadChannel(t.q, t.community, uuid)
}

type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}

// loadChannel reads a channel and its members; nil when it never existed.
func loadChannel(q querier, community, uuid string) (*Channel, error) {
	ch := &Channel{Community: community, UUID: uuid, Members: map[string]string{}}
	var archived, deleted, closed, hidden, restricted int
	var labels, members string
	err := q.QueryRow(sqlChannelRow, community, uuid).
		Scan(&ch.Type, &ch.Visibility, &archived, &deleted, &ch.Name, &ch.About, &ch.Picture, &ch.Banner,
			&closed, &hidden, &restricted, &ch.Creator, &ch.CreatedAt, &labels, &members)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ch.Archived, ch.Deleted = archived != 0, deleted != 0
	ch.Closed, ch.Hidden, ch.Restricted = closed != 0, hidden != 0, restricted != 0
	_ = json.Unmarshal([]byte(labels), &ch.Labels)
	var pairs [][2]string
	if err := json.Unmarshal([]byte(members), &pairs); err != nil {
		return nil, fmt.Errorf("channel %s members: %w", uuid, err)
	}
	for _, p := range pairs {
		ch.Members[p[0]] = p[1]
	}
	ch.storedMembers = maps.Clone(ch.Members)
	return ch, nil
}

// saveChannel writes ch (row and complete member list).
func (t *txn) saveChannel(ch *Channel) error {
	labels, _ := json.Marshal(nonNil(ch.Labels))
	_, err := t.q.Exec(sqlSaveChannel,
		t.community, ch.UUID, ch.Type, ch.Visibility, boolInt(ch.Archived), boolInt(ch.Deleted), ch.Name, ch.About,
		ch.Picture, ch.Banner, boolInt(ch.Closed), boolInt(ch.Hidden), boolInt(ch.Restricted),
		ch.Creator, ch.CreatedAt, t.r.now().Unix(), string(labels))
	if err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	if t.saved == nil {
		t.saved = map[string]*Channel{}
	}
	defer func() { t.saved[ch.UUID] = ch.clone() }()
	if ch.storedMembers != nil && maps.Equal(ch.Members, ch.storedMembers) {
		return nil // a label or metadata change leaves the members as they are
	}
	if _, err := t.q.Exec(sqlDeleteMembers, t.community, ch.UUID); err != nil {
		return err
	}
	for pk, role := range ch.Members {
		if _, err := t.q.Exec(sqlInsertMember,
			t.community, ch.UUID, pk, role); err != nil {
			return err
		}
	}
	ch.storedMembers = maps.Clone(ch.Members)
	return nil
}

func (t *txn) uuidUsed(uuid string) (bool, error) {
	var n int
	err := t.q.QueryRow(sqlUUIDUsed, t.community, uuid).Scan(&n)
	return n > 0, err
}

func (t *txn) markUUIDUsed(uuid, eventID string) error {
	_, err := t.q.Exec(sqlMarkUUIDUsed,
		t.community, uuid, eventID, t.r.now().Unix())
	return err
}

// --- reads ----------------------------------------------------------------

func scanEvents(rows *sql.Rows) ([]*nostr.Event, error) {
	defer rows.Close()
	var out []*nostr.Event
	for rows.Next() {
		ev := &nostr.Event{}
		var created int64
		var tags string
		if err := rows.Scan(&ev.ID, &ev.PubKey, &created, &ev.Kind, &tags, &ev.Content, &ev.Sig); err != nil {
			return nil, err
		}
		ev.CreatedAt = nostr.Timestamp(created)
		var err error
		if ev.Tags, err = decodeTags(tags); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

// decodeTags parses a stored tags column (tagsJSON). A read returns tens
// of events and encoding/json's reflection was a fifth of a discovery
// read's CPU, so the usual shape (arrays of strings) goes through
// easyjson's lexer, as go-nostr decodes events; anything else (a null
// tag, say) falls back to encoding/json.
func decodeTags(s string) (nostr.Tags, error) {
	in := jlexer.Lexer{Data: []byte(s)}
	tags := nostr.Tags{}
	in.Delim('[')
	for in.Ok() && !in.IsDelim(']') {
		tag := nostr.Tag{}
		in.Delim('[')
		for in.Ok() && !in.IsDelim(']') {
			tag = append(tag, in.String())
			in.WantComma()
		}
		in.Delim(']')
		tags = append(tags, tag)
		in.WantComma()
	}
	in.Delim(']')
	in.Consumed()
	if in.Error() == nil {
		return tags, nil
	}
	tags = nil
	if err := json.Unmarshal([]byte(s), &tags); err != nil {
		return nil, fmt.Errorf("stored tags: %w", err)
	}
	return tags, nil
}

// sqlBuf accumulates AND-ed conditions and their arguments.
type sqlBuf struct {
	conds []string
	args  []any
}

func (b *sqlBuf) add(cond string, args ...any) {
	b.conds = append(b.conds, cond)
	b.args = append(b.args, args...)
}

func (b *sqlBuf) where() string {
	if len(b.conds) == 0 {
		return "1"
	}
	return strings.Join(b.conds, " AND ")
}

// placeholders returns "?,?,?" for n values, or "" for none.
func placeholders(n int) string {
	if n == 0 {
		return ""
	}
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func inList(col string, vals []string) (string, []any) {
	if len(vals) == 0 {
		return "0", nil // an empty list matches nothing (NIP-01)
	}
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return col + " IN (" + placeholders(len(vals)) + ")", args
}

const eventCols = `e.id, e.pubkey, e.created_at, e.kind, e.tags, e.content, e.sig`
const fromEvents = ` FROM events e LEFT JOIN channels c ON e.channel <> '' AND c.community = e.community AND c.uuid = e.channel `

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
