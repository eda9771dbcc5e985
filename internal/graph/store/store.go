// Package store keeps the code graph in an embedded SQLite database (WAL): files,
// nodes, edges, unresolved call sites and a full-text index over them, replaced file by
// file as the indexer re-parses, and read back by the query layer. It also serves
// read-only SQL to users and agents, enforced by SQLite itself (see Query).
package store

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

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// rebuildHint is what a user should run when the database cannot be used as it is.
const rebuildHint = "run `albert-code graph index --rebuild` to rebuild it"

// Errors a caller may check with errors.Is. The messages they wrap say what to do.
var (
	// ErrCorrupt: the file is not a SQLite database or its pages are damaged.
	ErrCorrupt = errors.New("graph database is corrupt")
	// ErrSchemaVersion: the database was written by another version of the schema,
	// or is not a graph database at all.
	ErrSchemaVersion = errors.New("graph database has an unsupported schema")
	// ErrLocked: another process held the database past the busy timeout.
	ErrLocked = errors.New("graph database is locked")
	// ErrNoIndex: OpenReadOnly found no database at the path.
	ErrNoIndex = errors.New("no graph index")
	// ErrNotFound: no node has the qualified name asked for.
	ErrNotFound = errors.New("not found")
	// ErrReadOnly: a write was attempted on a store opened with OpenReadOnly.
	ErrReadOnly = errors.New("graph store is read-only")
)

// DefaultBusyTimeout is how long a statement waits for another connection's lock
// before failing with ErrLocked. Judgement: long enough to ride out an indexer's
// commit (tens of milliseconds measured by BenchmarkReplaceFiles per 1,000 files),
// short enough that a user waiting on a wedged process hears about it.
const DefaultBusyTimeout = 5 * time.Second

// Store is an open graph database. Its methods are safe for concurrent use.
type Store struct {
	*conn
	// lent marks a handle from Lend: its Close leaves the connections open.
	lent bool
}

// conn is what an open database holds, shared by a Store and the handles it lends.
type conn struct {
	path        string
	busyTimeout time.Duration

	// db is the read-write pool; nil when the store was opened with OpenReadOnly.
	db *sql.DB

	// ro is the guarded read-only pool (mode=ro, query_only, authorizer). It serves
	// Query, and every read of a store opened with OpenReadOnly. Opened lazily on a
	// read-write store.
	roMu sync.Mutex
	ro   *sql.DB

	// stmts are the reader's prepared statements, by SQL text (see prepared).
	stmts sync.Map

	memo memo // see Memo

	// names remembers the strings table for the writes (see interner).
	names nameCache
}

// Option adjusts Open and OpenReadOnly.
type Option func(*Store)

// WithBusyTimeout sets how long to wait for a lock held by another connection.
func WithBusyTimeout(d time.Duration) Option {
	return func(s *Store) { s.busyTimeout = d }
}

// Open opens the graph database at path for reading and writing, creating its
// folder, the file and the schema when they do not exist. A file that is not a graph
// database of this schema version, or is corrupt, is reported (ErrSchemaVersion,
// ErrCorrupt) with the command that rebuilds it; Open never modifies such a file.
func Open(path string, opts ...Option) (*Store, error) {
	s, err := newStore(path, opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return nil, fmt.Errorf("open graph store: %w", err)
	}
	// WAL is set by initSchema once the file is known to be ours: setting it here
	// would rewrite the header of a database Open then refuses.
	db, err := sql.Open("sqlite", s.dsn("rwc",
		// NORMAL in WAL mode cannot corrupt the database; a power loss may only undo
		// the last commits, which the next incremental index redoes.
		"_synchronous=NORMAL",
		// Take the write lock at BEGIN, so a second writer waits (busy timeout)
		// instead of failing on the read-to-write upgrade.
		"_txlock=immediate",
		// Statement journals (the node upsert needs one) in memory rather than
		// temp files: 30% of ReplaceFiles' time went to their write syscalls
		// (BenchmarkReplaceFiles profile).
		"_pragma=temp_store(MEMORY)",
	))
	if err != nil {
		return nil, fmt.Errorf("open graph store %s: %w", s.path, err)
	}
	s.db = db
	if err := s.initSchema(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens an existing graph database for reading only, through the
// guarded connection Query uses: the file is opened with mode=ro, query_only is
// set, and an authorizer refuses everything but reads. Writes return ErrReadOnly.
func OpenReadOnly(path string, opts ...Option) (*Store, error) {
	s, err := newStore(path, opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(s.path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s: run `albert-code graph index` first", ErrNoIndex, s.path)
		}
		return nil, fmt.Errorf("open graph store: %w", err)
	}
	ro, err := s.readOnlyDB()
	if err != nil {
		return nil, err
	}
	if err := s.checkVersion(context.Background(), ro); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func newStore(path string, opts []Option) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open graph store %s: %w", path, err)
	}
	s := &Store{conn: &conn{path: abs, busyTimeout: DefaultBusyTimeout}}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// dsn builds a file: URI, so that SQLite applies mode= and a path with spaces or
// '?' survives.
func (s *Store) dsn(mode string, params ...string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(s.path)}
	q := "mode=" + mode + "&_busy_timeout=" + strconv.FormatInt(s.busyTimeout.Milliseconds(), 10)
	for _, p := range params {
		q += "&" + p
	}
	return u.String() + "?" + q
}

// Path is the database file's absolute path.
func (s *Store) Path() string { return s.path }

// Lend returns a handle on s whose Close does nothing: a long-lived process
// keeps one store open and lends it to code written to close what it opens.
// The handle is valid until s itself is closed.
func (s *Store) Lend() *Store { return &Store{conn: s.conn, lent: true} }

// Close closes the database (a lent handle's Close does nothing). The WAL is
// checkpointed by SQLite when the last connection closes.
func (s *Store) Close() error {
	if s.lent {
		return nil
	}
	var errs []error
	s.stmts.Range(func(k, v any) bool {
		errs = append(errs, v.(*sql.Stmt).Close())
		s.stmts.Delete(k)
		return true
	})
	s.roMu.Lock()
	if s.ro != nil {
		errs = append(errs, s.ro.Close())
		s.ro = nil
	}
	s.roMu.Unlock()
	if s.db != nil {
		errs = append(errs, s.db.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close graph store %s: %w", s.path, err)
	}
	return nil
}

// Remove deletes the database at path with its WAL and shared-memory files: the
// first step of a rebuild. A missing file is not an error.
func Remove(path string) error {
	var errs []error
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("remove graph store %s: %w", path, err)
	}
	return nil
}

// OpenOrRebuild opens the graph database at path like Open, but replaces with an
// empty one a database that an older albert-code wrote or that is corrupt:
// everything in it derives from the tree, so indexing again loses nothing.
// rebuilt says why it was replaced ("" when it was not). A database of a newer
// schema (a newer albert-code's), one that is not a graph database, and a
// locked one are reported as Open reports them.
func OpenOrRebuild(path string, opts ...Option) (s *Store, rebuilt string, err error) {
	s, err = Open(path, opts...)
	var older *olderSchemaError
	switch {
	case err == nil:
		return s, "", nil
	case errors.As(err, &older):
		rebuilt = fmt.Sprintf("it had schema version %d, this albert-code writes version %d", older.found, SchemaVersion)
	case errors.Is(err, ErrCorrupt):
		rebuilt = "it was corrupt"
	default:
		return nil, "", err
	}
	if err := Remove(path); err != nil {
		return nil, "", err
	}
	s, err = Open(path, opts...)
	if err != nil {
		return nil, "", err
	}
	return s, rebuilt, nil
}

// Check runs SQLite's quick_check over the whole file (it reads every page: seconds
// on a large index) and reports damage as ErrCorrupt.
func (s *Store) Check(ctx context.Context) error {
	if s.db == nil {
		return fmt.Errorf("check graph store: %w", ErrReadOnly)
	}
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return s.wrap("check", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return s.wrap("check", err)
		}
		if line != "ok" && len(problems) < 5 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return s.wrap("check", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("check graph store %s: %w: %v; %s", s.path, ErrCorrupt, problems, rebuildHint)
	}
	return nil
}

// reader is the pool read methods use.
func (s *Store) reader() *sql.DB {
	if s.db != nil {
		return s.db
	}
	return s.ro
}

// prepared returns the reader's statement for query, prepared once per store:
// the graph's walks (impact, context) ask thousands of small questions, and
// parsing the same SQL again took a quarter of their time (go-sdk impact
// profile). Only for the package's own constant SQL texts.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.reader().PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if old, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close() // another goroutine prepared it first
		return old.(*sql.Stmt), nil
	}
	return st, nil
}

// writer is the pool write methods use, or ErrReadOnly.
func (s *Store) writer(op string) (*sql.DB, error) {
	if s.db == nil {
		return nil, fmt.Errorf("%s: %w", op, ErrReadOnly)
	}
	return s.db, nil
}

// wrap names the operation and turns SQLite's corrupt and busy codes into the
// package's errors, with what to do.
func (s *Store) wrap(op string, err error) error {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%s: %w: %s: %w; %s", op, ErrCorrupt, s.path, err, rebuildHint)
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%s: %w: %s stayed locked by another process for %s (is another `albert-code graph index` running?): %w",
			op, ErrLocked, s.path, s.busyTimeout, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// sqliteCode is the primary result code of a SQLite error, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}
