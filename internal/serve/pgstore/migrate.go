package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations are the schema's versions in order: migrations[i] brings version i to
// i+1. A released migration is never edited; a change is a new one.
var migrations = []string{
	`CREATE TABLE runs (
		id          TEXT PRIMARY KEY,
		workspace   TEXT NOT NULL,
		backend     TEXT NOT NULL,
		status      TEXT NOT NULL,
		request     BYTEA,
		result      BYTEA,
		error       TEXT NOT NULL DEFAULT '',
		async       BOOLEAN NOT NULL,
		created_at  TIMESTAMPTZ NOT NULL,
		started_at  TIMESTAMPTZ,
		finished_at TIMESTAMPTZ,
		expires_at  TIMESTAMPTZ,
		replica     TEXT NOT NULL,
		last_seq    BIGINT NOT NULL DEFAULT 0
	);
	CREATE INDEX runs_by_created ON runs (created_at);
	CREATE INDEX runs_by_expiry ON runs (expires_at) WHERE expires_at IS NOT NULL;
	CREATE INDEX runs_unfinished ON runs (replica) WHERE status IN ('queued', 'running');
	CREATE TABLE attempts (
		run_id      TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		idx         INTEGER NOT NULL,
		usage       BYTEA,
		exit_code   INTEGER NOT NULL,
		parse_error TEXT NOT NULL,
		session_id  TEXT NOT NULL,
		PRIMARY KEY (run_id, idx)
	);
	CREATE TABLE events (
		run_id  TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		seq     BIGINT NOT NULL,
		attempt INTEGER NOT NULL,
		backend TEXT NOT NULL,
		type    TEXT NOT NULL,
		data    BYTEA,
		at      TIMESTAMPTZ NOT NULL,
		PRIMARY KEY (run_id, seq)
	);
	CREATE TABLE process_groups (
		run_id  TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		pgid    INTEGER NOT NULL,
		start   BIGINT NOT NULL,
		boot    TEXT NOT NULL,
		replica TEXT NOT NULL,
		PRIMARY KEY (run_id, pgid, start)
	);
	CREATE TABLE replicas (
		id           TEXT PRIMARY KEY,
		started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
		heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now()
	);
	CREATE TABLE leases (
		name       TEXT PRIMARY KEY,
		holder     TEXT NOT NULL,
		expires_at TIMESTAMPTZ NOT NULL
	);
	CREATE TABLE cron_ticks (
		job      TEXT NOT NULL,
		tick     TIMESTAMPTZ NOT NULL,
		replica  TEXT NOT NULL,
		fired_at TIMESTAMPTZ NOT NULL DEFAULT now(),
		PRIMARY KEY (job, tick)
	);
	CREATE INDEX cron_ticks_by_tick ON cron_ticks (tick);
	CREATE TABLE replica_settings (
		replica     TEXT NOT NULL REFERENCES replicas (id) ON DELETE CASCADE,
		name        TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		PRIMARY KEY (replica, name)
	);`,
}

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// migrateLock keys the advisory lock that lets one replica at a time migrate: two
// replicas starting together must not both create the tables. An arbitrary number.
const migrateLock = 0x616c6265727431

// migrate brings the database to SchemaVersion in one transaction (a crash midway
// leaves the old version whole),
// and refuses a database a newer albert-code has migrated past it.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
			return fmt.Errorf("lock the schema for migration: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS albert_schema (
			version    INTEGER PRIMARY KEY,
			applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("create the schema version table: %w", err)
		}
		var version int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM albert_schema`).Scan(&version); err != nil {
			return fmt.Errorf("read the schema version: %w", err)
		}
		if version > SchemaVersion {
			return fmt.Errorf("the database's schema is version %d, newer than this albert-code's %d: run the newer albert-code, or point the setting at another database", version, SchemaVersion)
		}
		for v := version; v < SchemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrate the schema to version %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO albert_schema (version) VALUES ($1)`, v+1); err != nil {
				return fmt.Errorf("migrate the schema to version %d: %w", v+1, err)
			}
		}
		return nil
	})
}
