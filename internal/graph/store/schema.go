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
// rebuild command (the index is a cache of the repository: rebuilding is the
// migration). Version 2 added the cross-file resolution pass's tables (sites,
// resolve_pending, resolve_names, resolve_shapes, resolve_deps) and edges.derived;
// version 3 files.typed.
const SchemaVersion = 3

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
// No foreign keys: an edge may point to a node that is not indexed (an external
// package, a file not parsed yet), and files are replaced one at a time.
const schemaSQL = `CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS files (
  path        TEXT PRIMARY KEY,           -- relative to the repository root, forward slashes
  language    TEXT NOT NULL,
  hash        TEXT NOT NULL,              -- hex SHA-256 of the content
  size        INTEGER NOT NULL,
  indexed_at  TEXT NOT NULL,              -- RFC 3339, UTC
  parse_error TEXT NOT NULL DEFAULT '',   -- why the facts are partial or absent
  quarantined INTEGER NOT NULL DEFAULT 0, -- 1: the parser panicked or timed out
  typed       INTEGER NOT NULL DEFAULT 0  -- 1: a type checker drew the file's edges (the cross-file pass skips it)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS nodes (
  qname     TEXT PRIMARY KEY,             -- stable qualified name
  kind      TEXT NOT NULL,                -- function, method, struct, interface, ...
  name      TEXT NOT NULL,
  file      TEXT NOT NULL,                -- the file whose facts define it
  line      INTEGER NOT NULL,             -- 1-based line of the name
  col       INTEGER NOT NULL DEFAULT 0,
  end_line  INTEGER NOT NULL DEFAULT 0,
  signature TEXT NOT NULL DEFAULT '',
  doc       TEXT NOT NULL DEFAULT '',
  language  TEXT NOT NULL DEFAULT '',
  exported  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS nodes_name ON nodes(name);
CREATE INDEX IF NOT EXISTS nodes_name_nocase ON nodes(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS nodes_file ON nodes(file);
CREATE INDEX IF NOT EXISTS nodes_kind ON nodes(kind);

CREATE TABLE IF NOT EXISTS edges (
  src        TEXT NOT NULL,               -- nodes.qname (may be absent from nodes)
  dst        TEXT NOT NULL,               -- nodes.qname (may be absent: external)
  kind       TEXT NOT NULL,               -- contains, calls, references, imports, implements, extends
  confidence REAL NOT NULL,               -- 1.0 when resolution is types
  resolution TEXT NOT NULL,               -- types, import, name
  file       TEXT NOT NULL,               -- the file whose facts hold the edge (the site)
  line       INTEGER NOT NULL DEFAULT 0,
  derived    INTEGER NOT NULL DEFAULT 0   -- 1: drawn by the cross-file resolution pass
);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src, kind);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst, kind);
CREATE INDEX IF NOT EXISTS edges_file ON edges(file);

CREATE TABLE IF NOT EXISTS unresolved (
  src    TEXT NOT NULL,                   -- the caller's qname
  name   TEXT NOT NULL,                   -- the name as written at the site
  kind   TEXT NOT NULL,                   -- calls or references
  file   TEXT NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS unresolved_src ON unresolved(src);
CREATE INDEX IF NOT EXISTS unresolved_file ON unresolved(file);

-- The sites the extractor left unresolved, as it wrote them: the cross-file pass's
-- input. unresolved holds what is left of them after the pass.
CREATE TABLE IF NOT EXISTS sites (
  src    TEXT NOT NULL,
  name   TEXT NOT NULL,
  kind   TEXT NOT NULL,
  file   TEXT NOT NULL,
  line   INTEGER NOT NULL,
  col    INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sites_file ON sites(file);

-- Files replaced or removed since the cross-file pass last ran (a new rowid at
-- every replacement, so the pass clears only what it saw).
CREATE TABLE IF NOT EXISTS resolve_pending (
  path TEXT NOT NULL UNIQUE
);

-- The names each file defined when the pass last saw it: what a changed file
-- defined before the change.
CREATE TABLE IF NOT EXISTS resolve_names (
  file TEXT NOT NULL,
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

-- Full-text index over nodes; search.rowid = nodes.rowid. Each column holds the raw
-- text followed by its identifiers split on camelCase and '_', so ParseConfig is
-- found by parse and by config; unicode61 already splits on '.', '::', '/', '-'.
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
  name, qname, signature, doc, path,
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
		return s.setWAL(ctx)
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
