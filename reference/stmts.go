package reference

import (
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// The write path's fixed SQL. Every command runs a dozen or more of these;
// parsing them again each time was a fifth of the relay's CPU under a
// mutation load, so they are prepared once per database (see statements).
const (
	sqlInsertEvent = `INSERT INTO events (community, id, pubkey, kind, created_at, content, tags, sig, channel, dtag, received_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`
	sqlHasEvent = `SELECT COUNT(*) FROM events WHERE community = ? AND id = ?`
	// INDEXED BY: without it SQLite walks events_kind (which matches the
	// ORDER BY) through every event of the kind.
	sqlLatestAddressable = `SELECT created_at, id FROM events INDEXED BY events_addr WHERE community = ? AND kind = ? AND pubkey = ? AND dtag = ?
		ORDER BY created_at DESC, id ASC LIMIT 1`
	// INDEXED BY: without it SQLite walks events_kind through every state
	// event of the kind, so each command's cost grew with the channels.
	sqlCurrentState = `SELECT id, pubkey, created_at, kind, tags, content, sig FROM events INDEXED BY events_channel
		WHERE community = ? AND kind = ? AND channel = ? ORDER BY created_at DESC, id ASC LIMIT 1`
	// the current 39000-39003 of a channel in one read: per kind, the
	// first row is sqlCurrentState's (created_at and tags only)
	sqlStateHeads = `SELECT kind, created_at, tags FROM events INDEXED BY events_channel
		WHERE community = ? AND channel = ? AND kind BETWEEN 39000 AND 39003 ORDER BY kind, created_at DESC, id ASC`
	// a channel row with its members as [[pubkey, role], ...]
	sqlChannelRow = `SELECT type, visibility, archived, deleted, name, about, picture, banner, closed, hidden, restricted,
		creator, created_at, labels,
		(SELECT json_group_array(json_array(m.pubkey, m.role)) FROM members m WHERE m.community = c.community AND m.uuid = c.uuid)
		FROM channels c WHERE community = ? AND uuid = ?`
	sqlSaveChannel = `INSERT INTO channels (community, uuid, type, visibility, archived, deleted, name, about,
			picture, banner, closed, hidden, restricted, creator, created_at, updated_at, labels)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (community, uuid) DO UPDATE SET type=excluded.type, visibility=excluded.visibility,
			archived=excluded.archived, deleted=excluded.deleted, name=excluded.name, about=excluded.about,
			picture=excluded.picture, banner=excluded.banner, closed=excluded.closed, hidden=excluded.hidden,
			restricted=excluded.restricted, creator=excluded.creator, created_at=excluded.created_at, updated_at=excluded.updated_at, labels=excluded.labels`
	sqlDeleteMembers = `DELETE FROM members WHERE community = ? AND uuid = ?`
	sqlInsertMember  = `INSERT INTO members (community, uuid, pubkey, role) VALUES (?,?,?,?)`
	sqlUUIDUsed      = `SELECT COUNT(*) FROM used_uuids WHERE community = ? AND uuid = ?`
	sqlMarkUUIDUsed  = `INSERT INTO used_uuids (community, uuid, event_id, used_at) VALUES (?,?,?,?)
		ON CONFLICT (community, uuid) DO UPDATE SET event_id = excluded.event_id, used_at = excluded.used_at`
)

// Conditions deleteWhere is called with (after "community = ? AND").
const (
	condStateOfKind = `kind = ? AND channel = ?`
	condAllState    = `channel = ? AND kind BETWEEN ? AND ?`
	condAddressable = `kind = ? AND pubkey = ? AND dtag = ?`
	condEventID     = `id = ?`
)

func deleteEventsSQL(cond string) string { return `DELETE FROM events WHERE community = ? AND ` + cond }

// insertTagsSQL inserts n tag rows in one statement (1 <= n <= maxTagRowsPerInsert).
func insertTagsSQL(n int) string {
	return `INSERT INTO event_tags (community, event_seq, name, value, kind, created_at) VALUES ` +
		strings.TrimSuffix(strings.Repeat("(?,?,?,?,?,?),", n), ",")
}

// maxTagRowsPerInsert: tag rows go in statements of up to this many.
const maxTagRowsPerInsert = 8

// preparedSQL lists every statement statements prepares.
func preparedSQL() []string {
	out := []string{sqlInsertEvent, sqlHasEvent, sqlLatestAddressable, sqlCurrentState, sqlStateHeads,
		sqlChannelRow, sqlSaveChannel, sqlDeleteMembers, sqlInsertMember,
		sqlUUIDUsed, sqlMarkUUIDUsed}
	for _, cond := range []string{condStateOfKind, condAllState, condAddressable, condEventID} {
		out = append(out, deleteEventsSQL(cond))
	}
	for n := 1; n <= maxTagRowsPerInsert; n++ {
		out = append(out, insertTagsSQL(n))
	}
	return out
}

// statements holds the prepared statements of one database, by SQL text.
// The write path's (byText) are prepared when the database opens, before
// any transaction: the in-memory database has a single connection, which
// an open transaction holds, so preparing inside one could wait for itself.
// Other SQL run through a runner (fault paths) runs unprepared and counts
// as a miss. Reads, which never run inside a write transaction, have their
// own cache (reads).
type statements struct {
	byText map[string]*sql.Stmt
	misses atomic.Int64

	// reads caches the statements of reads (REQ, COUNT, the driving-tag
	// probe), whose SQL depends on the filter's shape: prepared on first
	// use outside any transaction, up to maxReadStatements shapes, then
	// the rest run unprepared. Entries are never closed before the
	// database, so a statement in use is never closed under its reader.
	readMu sync.Mutex
	reads  map[string]*sql.Stmt
}

// maxReadStatements bounds the read statement cache (filter shapes).
const maxReadStatements = 512

// read returns the prepared statement for a read's SQL, or nil when the
// cache is full or preparing failed (the caller runs the SQL unprepared).
func (s *statements) read(db *sql.DB, text string) *sql.Stmt {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	if st, ok := s.reads[text]; ok {
		return st
	}
	if len(s.reads) >= maxReadStatements {
		return nil
	}
	st, err := db.Prepare(text)
	if err != nil {
		return nil
	}
	if s.reads == nil {
		s.reads = map[string]*sql.Stmt{}
	}
	s.reads[text] = st
	return st
}

func prepareStatements(db *sql.DB) (*statements, error) {
	s := &statements{byText: map[string]*sql.Stmt{}}
	for _, text := range preparedSQL() {
		st, err := db.Prepare(text)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("reference: prepare %.40q: %w", text, err)
		}
		s.byText[text] = st
	}
	return s, nil
}

func (s *statements) close() {
	for _, st := range s.byText {
		_ = st.Close()
	}
	s.readMu.Lock()
	defer s.readMu.Unlock()
	for _, st := range s.reads {
		_ = st.Close()
	}
	s.reads = nil
}

// readQuery runs a read outside any transaction through the read cache.
func (r *Relay) readQuery(text string, args ...any) (*sql.Rows, error) {
	if st := r.stmts.read(r.db, text); st != nil {
		return st.Query(args...)
	}
	return r.db.Query(text, args...)
}

// readQueryRow is readQuery for one row.
func (r *Relay) readQueryRow(text string, args ...any) *sql.Row {
	if st := r.stmts.read(r.db, text); st != nil {
		return st.QueryRow(args...)
	}
	return r.db.QueryRow(text, args...)
}

// runner runs SQL in a transaction (tx set) or on the database, through a
// prepared statement when there is one for the text.
type runner struct {
	db    *sql.DB
	tx    *sql.Tx
	stmts *statements
}

func (q runner) stmt(text string) *sql.Stmt {
	st := q.stmts.byText[text]
	if st == nil {
		q.stmts.misses.Add(1)
		return nil
	}
	if q.tx != nil {
		return q.tx.Stmt(st)
	}
	return st
}

func (q runner) Exec(text string, args ...any) (sql.Result, error) {
	if st := q.stmt(text); st != nil {
		return st.Exec(args...)
	}
	if q.tx != nil {
		return q.tx.Exec(text, args...)
	}
	return q.db.Exec(text, args...)
}

func (q runner) Query(text string, args ...any) (*sql.Rows, error) {
	if st := q.stmt(text); st != nil {
		return st.Query(args...)
	}
	if q.tx != nil {
		return q.tx.Query(text, args...)
	}
	return q.db.Query(text, args...)
}

func (q runner) QueryRow(text string, args ...any) *sql.Row {
	if st := q.stmt(text); st != nil {
		return st.QueryRow(args...)
	}
	if q.tx != nil {
		return q.tx.QueryRow(text, args...)
	}
	return q.db.QueryRow(text, args...)
}
