package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	sqlite3 "modernc.org/sqlite/lib"
)

// SchemaVersion is stored in meta.schema_version. Bump it on any change to
// schemaSQL or to what a column means; Open then refuses an older file with the
// rebuild command, and OpenOrRebuild replaces it (the index is a cache of the
// repository: rebuilding is the migration). Version 2 added the cross-file
// resolution pass's tables (sites, resolve_pending, resolve_names,
// resolve_shapes, resolve_deps) and edges.derived; version 3 files.typed;
// version 4 keeps every repeated string once (the strings table) and the graph
// in id-coded tables read through views of the old names and columns.
const SchemaVersion = 4

// Keys of the meta table the store and the indexer share.
const (
	MetaSchemaVersion = "schema_version"
	MetaIndexedCommit = "indexed_commit" // HEAD when the index was last brought up to date
	MetaIndexedAt     = "indexed_at"     // RFC 3339, UTC
	MetaRoot          = "root"           // absolute path of the indexed repository
	// MetaResolveConfig fingerprints what the cross-file pass read besides the
	// facts (go.mod, tsconfig.json, the pass's own version): a change re-resolves all.
	MetaResolveConfig = "resolve_config"
	// MetaGeneration counts the transactions that changed the graph (see Generation).
	MetaGeneration = "generation"
)

// schemaSQL is the whole schema; docs/graph-schema.md explains it column by column.
//
// The graph is stored in *_rows tables whose text columns are ids into strings:
// a qualified name, a path or a kind is written once however many edges name it.
// On golang.org/x/tools the edges and their three indexes went from 40.9 to
// 8.9 MiB that way, the whole file from 53.6 to 17.5 MiB
// (docs/benchmarks/graph-scale.md). Readers, the package's own and
// graph sql's, read views with the readable names and columns of version 3
// (files, nodes, edges, unresolved, sites); their LEFT JOINs on strings' primary
// key let SQLite skip the lookups of columns a query does not read, and a
// condition on a text column is turned into an id by strings' unique index.
//
// No foreign keys: an edge may point to a node that is not indexed (an external
// package, a file not parsed yet), and files are replaced one at a time.
const schemaSQL = `CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Every string the graph tables repeat (qualified names, paths, kinds,
-- languages, names at sites, reasons), once. Ids are never reused while the
-- file lives; a string no row uses any more stays until the next rebuild.
CREATE TABLE IF NOT EXISTS strings (
  id   INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS file_rows (
  id          INTEGER PRIMARY KEY,        -- strings.id of the path
  language    INTEGER NOT NULL,           -- strings.id
  hash        TEXT NOT NULL,              -- hex SHA-256 of the content
  size        INTEGER NOT NULL,
  indexed_at  TEXT NOT NULL,              -- RFC 3339, UTC
  parse_error TEXT NOT NULL DEFAULT '',   -- why the facts are partial or absent
  quarantined INTEGER NOT NULL DEFAULT 0, -- 1: the parser panicked or timed out
  typed       INTEGER NOT NULL DEFAULT 0  -- 1: a type checker drew the file's edges (the cross-file pass skips it)
);

CREATE TABLE IF NOT EXISTS node_rows (
  id        INTEGER PRIMARY KEY,          -- strings.id of the qualified name; search.rowid
  kind      INTEGER NOT NULL,             -- strings.id: function, method, struct, interface, ...
  name      TEXT NOT NULL,
  file      INTEGER NOT NULL,             -- strings.id of the file whose facts define it
  line      INTEGER NOT NULL,             -- 1-based line of the name
  col       INTEGER NOT NULL DEFAULT 0,
  end_line  INTEGER NOT NULL DEFAULT 0,
  signature TEXT NOT NULL DEFAULT '',
  doc       TEXT NOT NULL DEFAULT '',
  language  INTEGER NOT NULL,             -- strings.id
  exported  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS node_rows_name ON node_rows(name);
CREATE INDEX IF NOT EXISTS node_rows_name_nocase ON node_rows(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS node_rows_file ON node_rows(file);
CREATE INDEX IF NOT EXISTS node_rows_kind ON node_rows(kind);

CREATE TABLE IF NOT EXISTS edge_rows (
  src        INTEGER NOT NULL,            -- strings.id of a qualified name (may be absent from nodes)
  dst        INTEGER NOT NULL,            -- strings.id of a qualified name (may be absent: external)
  kind       INTEGER NOT NULL,            -- strings.id: contains, calls, references, imports, implements, extends
  confidence REAL NOT NULL,               -- 1.0 when resolution is types
  resolution INTEGER NOT NULL,            -- strings.id: types, import, name
  file       INTEGER NOT NULL,            -- strings.id of the file whose facts hold the edge (the site)
  line       INTEGER NOT NULL DEFAULT 0,
  derived    INTEGER NOT NULL DEFAULT 0   -- 1: drawn by the cross-file resolution pass
);
CREATE INDEX IF NOT EXISTS edge_rows_src ON edge_rows(src, kind);
CREATE INDEX IF NOT EXISTS edge_rows_dst ON edge_rows(dst, kind);
CREATE INDEX IF NOT EXISTS edge_rows_file ON edge_rows(file);

-- Sites whose target no strategy could name; every column but line and col is a
-- strings.id.
CREATE TABLE IF NOT EXISTS unresolved_rows (
  src    INTEGER NOT NULL,                -- the caller's qualified name
  name   INTEGER NOT NULL,                -- the name as written at the site
  kind   INTEGER NOT NULL,                -- calls or references
  file   INTEGER NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL DEFAULT 0,
  reason INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS unresolved_rows_src ON unresolved_rows(src);
CREATE INDEX IF NOT EXISTS unresolved_rows_file ON unresolved_rows(file);

-- The sites the extractor left unresolved, as it wrote them: the cross-file pass's
-- input. unresolved_rows holds what is left of them after the pass.
CREATE TABLE IF NOT EXISTS site_rows (
  src    INTEGER NOT NULL,
  name   INTEGER NOT NULL,
  kind   INTEGER NOT NULL,
  file   INTEGER NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL DEFAULT 0,
  reason INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS site_rows_file ON site_rows(file);

CREATE VIEW IF NOT EXISTS files(path, language, hash, size, indexed_at, parse_error, quarantined, typed) AS
SELECT p.text, l.text, f.hash, f.size, f.indexed_at, f.parse_error, f.quarantined, f.typed
FROM file_rows f LEFT JOIN strings p ON p.id = f.id LEFT JOIN strings l ON l.id = f.language;

CREATE VIEW IF NOT EXISTS nodes(qname, kind, name, file, line, col, end_line, signature, doc, language, exported, rowid) AS
SELECT q.text, k.text, n.name, f.text, n.line, n.col, n.end_line, n.signature, n.doc, l.text, n.exported, n.id
FROM node_rows n LEFT JOIN strings q ON q.id = n.id LEFT JOIN strings k ON k.id = n.kind
LEFT JOIN strings f ON f.id = n.file LEFT JOIN strings l ON l.id = n.language;

CREATE VIEW IF NOT EXISTS edges(src, dst, kind, confidence, resolution, file, line, derived) AS
SELECT s.text, d.text, k.text, e.confidence, r.text, f.text, e.line, e.derived
FROM edge_rows e LEFT JOIN strings s ON s.id = e.src LEFT JOIN strings d ON d.id = e.dst
LEFT JOIN strings k ON k.id = e.kind LEFT JOIN strings r ON r.id = e.resolution LEFT JOIN strings f ON f.id = e.file;

CREATE VIEW IF NOT EXISTS unresolved(src, name, kind, file, line, col, reason) AS
SELECT s.text, n.text, k.text, f.text, u.line, u.col, r.text
FROM unresolved_rows u LEFT JOIN strings s ON s.id = u.src LEFT JOIN strings n ON n.id = u.name
LEFT JOIN strings k ON k.id = u.kind LEFT JOIN strings f ON f.id = u.file LEFT JOIN strings r ON r.id = u.reason;

CREATE VIEW IF NOT EXISTS sites(src, name, kind, file, line, col, reason) AS
SELECT s.text, n.text, k.text, f.text, u.line, u.col, r.text
FROM site_rows u LEFT JOIN strings s ON s.id = u.src LEFT JOIN strings n ON n.id = u.name
LEFT JOIN strings k ON k.id = u.kind LEFT JOIN strings f ON f.id = u.file LEFT JOIN strings r ON r.id = u.reason;

-- Files replaced or removed since the cross-file pass last ran (a new rowid at
-- every replacement, so the pass clears only what it saw).
CREATE TABLE IF NOT EXISTS resolve_pending (
  path TEXT NOT NULL UNIQUE
);

-- The names each file defined when the pass last saw it: what a changed file
-- defined before the change.
CREATE TABLE IF NOT EXISTS resolve_names (
  file INTEGER NOT NULL,                  -- strings.id of the path
  name TEXT NOT NULL,
  PRIMARY KEY (file, name)
) WITHOUT ROWID;

-- A digest of what other files' resolution can read of a file (its definitions,
-- imports and bases, not their lines), when the pass last saw it: an edit that
-- leaves it unchanged concerns that file alone.
CREATE TABLE IF NOT EXISTS resolve_shapes (
  file  TEXT PRIMARY KEY,
  shape TEXT NOT NULL
) WITHOUT ROWID;

-- What a file's cross-file resolution read: a file (kind file), a module name
-- that could appear (module), or the number of definitions of a name (name).
CREATE TABLE IF NOT EXISTS resolve_deps (
  file   TEXT NOT NULL,                   -- the file whose resolution depends on it
  kind   TEXT NOT NULL,                   -- file, module or name
  key    TEXT NOT NULL,                   -- a path, a module's last name, a definition's name
  filter TEXT NOT NULL DEFAULT '',        -- name: the languages and kinds counted
  seen   INTEGER NOT NULL DEFAULT 0       -- name: how many definitions were counted
);
CREATE INDEX IF NOT EXISTS resolve_deps_key ON resolve_deps(kind, key);
CREATE INDEX IF NOT EXISTS resolve_deps_file ON resolve_deps(file);

-- Full-text index over nodes; search.rowid = nodes.rowid. Each column indexes the
-- raw text followed by its identifiers split on camelCase and '_', so ParseConfig
-- is found by parse and by config; unicode61 already splits on '.', '::', '/', '-'.
-- Contentless: the text is read from nodes, not kept a second time here.
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
  name, qname, signature, doc, path,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
`

// Schema returns the SQL that creates the database, for `graph schema` and for
// writers of `graph sql` queries.
func (s *Store) Schema() string { return schemaSQL }

// initSchema creates the schema in an empty database, or checks the version of an
// existing one.
func (s *Store) initSchema(ctx context.Context) error {
	var tables int
	if err := s.db.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
		return s.wrap("open graph store "+s.path, err)
	}
	if tables > 0 {
		if err := s.checkVersion(ctx, s.db); err != nil {
			return err
		}
		if err := s.setWAL(ctx); err != nil {
			return err
		}
		// A first index stopped between DeferIndexes and its build. One still
		// running holds the lock: its own build follows, and answers are the same
		// without the indexes meanwhile.
		if err := s.buildIndexes(ctx); err != nil && !errors.Is(err, ErrLocked) {
			return err
		}
		return nil
	}
	if err := s.setWAL(ctx); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("create graph schema", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schemaSQL); err != nil {
		return s.wrap("create graph schema", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)`,
		MetaSchemaVersion, strconv.Itoa(SchemaVersion)); err != nil {
		return s.wrap("create graph schema", err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("create graph schema", err)
	}
	return nil
}

// setWAL puts the database in WAL mode (persistent: a no-op once done), so readers
// never wait for the indexer's writes.
func (s *Store) setWAL(ctx context.Context) error {
	var mode string
	if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode); err != nil {
		return s.wrap("set WAL mode on "+s.path, err)
	}
	if mode != "wal" {
		return fmt.Errorf("set WAL mode on %s: the journal mode stayed %q", s.path, mode)
	}
	return nil
}

// checkVersion refuses a database that is not a graph database of SchemaVersion.
func (s *Store) checkVersion(ctx context.Context, db *sql.DB) error {
	var v string
	err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, MetaSchemaVersion).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows) || (err != nil && sqliteCode(err) == sqlite3.SQLITE_ERROR /* no such table */):
		return fmt.Errorf("open graph store: %w: %s is not a graph database (no schema version); %s",
			ErrSchemaVersion, s.path, rebuildHint)
	case err != nil:
		return s.wrap("open graph store "+s.path, err)
	}
	if v != strconv.Itoa(SchemaVersion) {
		err := fmt.Errorf("open graph store: %w: %s has schema version %s, this albert-code reads version %d; %s",
			ErrSchemaVersion, s.path, v, SchemaVersion, rebuildHint)
		if n, perr := strconv.Atoi(v); perr == nil && n < SchemaVersion {
			return &olderSchemaError{err: err, found: n}
		}
		return err
	}
	return nil
}

// olderSchemaError is ErrSchemaVersion for a database an older albert-code wrote:
// OpenOrRebuild replaces it, where a newer one's is left alone.
type olderSchemaError struct {
	err   error
	found int
}

func (e *olderSchemaError) Error() string { return e.err.Error() }
func (e *olderSchemaError) Unwrap() error { return e.err }
