package runstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// schemaVersion is PRAGMA user_version of the files this package writes. Version 1
// had no process_groups table; opening such a file adds it (migrate).
const schemaVersion = 2

// defaultBusyTimeout: how long a write waits for another connection's transaction.
// Judgement: runs write small rows; a wait of seconds means something is wrong.
const defaultBusyTimeout = 5 * time.Second

// maxIdleConns is how many connections the pool keeps open between uses. The
// default, 2, closes most of them under concurrent runs (each writes its events),
// and opening one costs a file open, the pragmas and SQLite's own set-up.
const maxIdleConns = 16

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	id          TEXT PRIMARY KEY,
	workspace   TEXT NOT NULL,
	backend     TEXT NOT NULL,
	status      TEXT NOT NULL,
	request     BLOB,
	result      BLOB,
	error       TEXT NOT NULL DEFAULT '',
	async       INTEGER NOT NULL,
	created_at  INTEGER NOT NULL,
	started_at  INTEGER,
	finished_at INTEGER,
	expires_at  INTEGER
);
CREATE INDEX IF NOT EXISTS runs_by_created ON runs(created_at);
CREATE INDEX IF NOT EXISTS runs_by_expiry ON runs(expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS attempts (
	run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	idx         INTEGER NOT NULL,
	usage       BLOB,
	exit_code   INTEGER NOT NULL,
	parse_error TEXT NOT NULL,
	session_id  TEXT NOT NULL,
	PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
	run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	backend TEXT NOT NULL,
	type    TEXT NOT NULL,
	data    BLOB,
	at      INTEGER NOT NULL,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
`

// Options configure OpenSQLite.
type Options struct {
	// Retention is how long a finished run is kept; 0 means DefaultRetention.
	Retention time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// SQLite is a Store in one SQLite file. One server uses a file at a time: a second
// OpenSQLite of the same file fails while the first is open, since opening marks
// the runs still running as interrupted.
type SQLite struct {
	path string
	db   *sql.DB
	// write is held by every write. SQLite lets one writer in at a time, and one
	// that finds the lock taken sleeps in its busy handler (1, 2, 5, 10 ms and up)
	// before trying again: under a burst of runs, each accept's INSERT slept behind
	// the runs' event writes. Queueing here hands the lock over as soon as it is
	// free. The file lock keeps other processes out, so nobody else writes.
	write       sync.Mutex
	retention   time.Duration
	now         func() time.Time
	unlock      func()
	interrupted int
	// boot names the machine's boot, recorded with each process group: a group of
	// another boot is long gone. Empty when it cannot be read.
	boot      string
	leftovers []RunGroup
}

var _ Store = (*SQLite)(nil)

// OpenSQLite opens the store at path, creating its folder, file and tables. Runs
// that were queued or running when the last server stopped are marked failed
// ("interrupted by a restart"): nothing will finish them.
func OpenSQLite(path string, opts Options) (*SQLite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open run store %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open run store: %w", err)
	}
	unlock, err := lockFile(abs + ".lock")
	if err != nil {
		return nil, fmt.Errorf("open run store %s: %w", abs, err)
	}
	s := &SQLite{path: abs, retention: opts.Retention, now: opts.Now, unlock: unlock}
	// Without a boot id (not Linux), no group is recorded by proctrack anyway.
	s.boot, _ = proctrack.BootID()
	if s.retention <= 0 {
		s.retention = DefaultRetention
	}
	if s.now == nil {
		s.now = time.Now
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	dsn := u.String() + "?mode=rwc&_busy_timeout=" + strconv.FormatInt(defaultBusyTimeout.Milliseconds(), 10) +
		// NORMAL in WAL mode cannot corrupt the file; a power loss may undo the last
		// commits, which for a run store means a few events.
		"&_synchronous=NORMAL" +
		// Take the write lock at BEGIN, so concurrent writers wait instead of
		// failing on the read-to-write upgrade.
		"&_txlock=immediate" +
		"&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("open run store %s: %w", abs, err)
	}
	db.SetMaxIdleConns(maxIdleConns)
	s.db = db
	if err := s.init(context.Background()); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *SQLite) init(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("open run store %s: not a SQLite database? %w", s.path, err)
	}
	if version < 0 || version > schemaVersion {
		return fmt.Errorf("open run store %s: schema version %d, this albert-code reads versions up to %d: move the file away", s.path, version, schemaVersion)
	}
	if version == 0 {
		var tables int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
			return fmt.Errorf("open run store %s: %w", s.path, err)
		}
		if tables > 0 {
			return fmt.Errorf("open run store %s: the file holds another database: choose another path", s.path)
		}
		if _, err := s.db.ExecContext(ctx, schema+groupsSchema+fmt.Sprintf("PRAGMA user_version = %d;", schemaVersion)); err != nil {
			return fmt.Errorf("create run store %s: %w", s.path, err)
		}
	}
	if version == 1 {
		if err := s.migrate(ctx); err != nil {
			return err
		}
	}
	if err := s.readLeftovers(ctx); err != nil {
		return err
	}
	now := s.now()
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, error = ?, finished_at = ?, expires_at = ?
		WHERE status IN (?, ?)`, Failed, InterruptedError, ms(now), ms(now.Add(s.retention)), Queued, Running)
	if err != nil {
		return fmt.Errorf("open run store %s: mark interrupted runs: %w", s.path, err)
	}
	n, _ := res.RowsAffected()
	s.interrupted = int(n)
	return nil
}

// Interrupted counts the runs Open found unfinished and marked failed.
func (s *SQLite) Interrupted() int { return s.interrupted }

// Path is the database file's absolute path.
func (s *SQLite) Path() string { return s.path }

// Close closes the database and frees the file for another server.
func (s *SQLite) Close() error {
	var err error
	if s.db != nil {
		err = s.db.Close()
	}
	if s.unlock != nil {
		s.unlock()
		s.unlock = nil
	}
	if err != nil {
		return fmt.Errorf("close run store %s: %w", s.path, err)
	}
	return nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMilli(n.Int64).UTC()
}

// exists tells ErrNotFound apart after an UPDATE or INSERT that touched nothing.
func exists(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (Status, error) {
	var st Status
	err := q.QueryRowContext(ctx, "SELECT status FROM runs WHERE id = ?", id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return "", &NotFoundError{ID: id}
	}
	return st, err
}
