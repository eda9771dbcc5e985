package runstore

import (
	"context"
	"fmt"
	"time"

	"github.com/etalab-ia/albert-code/internal/proctrack"
)

// groupsSchema is the table of the process groups running runs started (schema
// version 2). A row lives from the group's start to its end; rows found at open
// belong to a server that died, and name processes that may still run.
const groupsSchema = `
CREATE TABLE IF NOT EXISTS process_groups (
	run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	pgid   INTEGER NOT NULL,
	start  INTEGER NOT NULL,
	boot   TEXT NOT NULL,
	PRIMARY KEY (run_id, pgid, start)
) WITHOUT ROWID;
`

// RunGroup is a process group recorded for a run.
type RunGroup struct {
	RunID string
	Group proctrack.Group
}

// migrate brings a version 1 file to version 2 in one transaction: a crash
// midway leaves version 1, migrated again at the next open.
func (s *SQLite) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate run store %s to version %d: %w", s.path, schemaVersion, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, groupsSchema+fmt.Sprintf("PRAGMA user_version = %d;", schemaVersion)); err != nil {
		return fmt.Errorf("migrate run store %s to version %d: %w", s.path, schemaVersion, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate run store %s to version %d: %w", s.path, schemaVersion, err)
	}
	return nil
}

// readLeftovers keeps, for Leftovers, the groups the last server recorded in this
// boot, and forgets those of other boots: a reboot ended their processes, and
// their start times, counted from another boot, would name nothing.
func (s *SQLite) readLeftovers(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM process_groups WHERE boot <> ? OR ? = ''`, s.boot, s.boot); err != nil {
		return fmt.Errorf("open run store %s: forget process groups of another boot: %w", s.path, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT run_id, pgid, start FROM process_groups ORDER BY run_id, pgid`)
	if err != nil {
		return fmt.Errorf("open run store %s: read leftover process groups: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var g RunGroup
		var start int64
		if err := rows.Scan(&g.RunID, &g.Group.PGID, &start); err != nil {
			return fmt.Errorf("open run store %s: read leftover process groups: %w", s.path, err)
		}
		g.Group.Start = uint64(start)
		s.leftovers = append(s.leftovers, g)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("open run store %s: read leftover process groups: %w", s.path, err)
	}
	return nil
}

// Leftovers are the process groups that were running, in this boot, when the last
// server using the file stopped without ending them (a crash, a SIGKILL). Open
// reads them; the caller kills them (proctrack.KillLeftover) and removes each
// with RemoveGroup. Their runs are already marked interrupted.
func (s *SQLite) Leftovers() []RunGroup { return s.leftovers }

// AddGroup records a process group run id started. Recording it twice is no error.
func (s *SQLite) AddGroup(ctx context.Context, id string, g proctrack.Group) error {
	s.write.Lock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO process_groups (run_id, pgid, start, boot) VALUES (?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, id, g.PGID, int64(g.Start), s.boot)
	s.write.Unlock()
	if isConstraint(err) {
		if _, e := exists(ctx, s.db, id); e != nil {
			return e
		}
	}
	if err != nil {
		return fmt.Errorf("record process group %d of run %q: %w", g.PGID, id, err)
	}
	return nil
}

// RemoveGroup forgets a process group of run id; forgetting one not recorded is
// no error (its run may have been deleted, taking its groups along).
func (s *SQLite) RemoveGroup(ctx context.Context, id string, g proctrack.Group) error {
	s.write.Lock()
	_, err := s.db.ExecContext(ctx, `DELETE FROM process_groups WHERE run_id = ? AND pgid = ? AND start = ?`, id, g.PGID, int64(g.Start))
	s.write.Unlock()
	if err != nil {
		return fmt.Errorf("forget process group %d of run %q: %w", g.PGID, id, err)
	}
	return nil
}

// groupWrite bounds one write of a Sink. Judgement, as the API's own writes: the
// store's busy timeout is 5 s; past 10 s the command goes on unrecorded.
const groupWrite = 10 * time.Second

// groupRecorder is the part of a Store a Sink writes to.
type groupRecorder interface {
	AddGroup(ctx context.Context, id string, g proctrack.Group) error
	RemoveGroup(ctx context.Context, id string, g proctrack.Group) error
}

// Sink returns a proctrack.Sink that records the process groups of run id in st
// while they run. onError, if not nil, hears of a write that failed: the command
// runs on, unrecorded.
func Sink(st groupRecorder, id string, onError func(error)) proctrack.Sink {
	return &sink{st: st, id: id, onError: onError}
}

type sink struct {
	st      groupRecorder
	id      string
	onError func(error)
}

func (k *sink) Started(g proctrack.Group) { k.do(k.st.AddGroup, g) }
func (k *sink) Ended(g proctrack.Group)   { k.do(k.st.RemoveGroup, g) }

// do writes with a context of its own: a group ends when its run is cancelled, and
// that end must still be written.
func (k *sink) do(write func(context.Context, string, proctrack.Group) error, g proctrack.Group) {
	ctx, cancel := context.WithTimeout(context.Background(), groupWrite)
	defer cancel()
	if err := write(ctx, k.id, g); err != nil && k.onError != nil {
		k.onError(err)
	}
}

// Groups lists the process groups recorded for run id: those still running, or
// left by a server that died.
func (s *SQLite) Groups(ctx context.Context, id string) ([]proctrack.Group, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pgid, start FROM process_groups WHERE run_id = ? ORDER BY pgid`, id)
	if err != nil {
		return nil, fmt.Errorf("process groups of run %q: %w", id, err)
	}
	defer rows.Close()
	var out []proctrack.Group
	for rows.Next() {
		var g proctrack.Group
		var start int64
		if err := rows.Scan(&g.PGID, &start); err != nil {
			return nil, fmt.Errorf("process groups of run %q: %w", id, err)
		}
		g.Start = uint64(start)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("process groups of run %q: %w", id, err)
	}
	return out, nil
}
