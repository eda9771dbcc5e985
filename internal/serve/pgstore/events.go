package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/etalab-ia/albert-code/internal/proctrack"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func (s *Store) AppendAttempt(ctx context.Context, id string, a runstore.Attempt) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO attempts (run_id, idx, usage, exit_code, parse_error, session_id)
		VALUES ($1, $2, $3, $4, $5, $6)`, id, a.Index, blob(a.Usage), a.ExitCode, a.ParseError, a.SessionID)
	switch {
	case isCode(err, "23503"):
		return &runstore.NotFoundError{ID: id}
	case isCode(err, "23505"):
		return fmt.Errorf("append attempt %d to run %q: already recorded", a.Index, id)
	case err != nil:
		return fmt.Errorf("append attempt %d to run %q: %w", a.Index, id, err)
	}
	return nil
}

// AppendEvents numbers and stores events in one transaction: the run's row, updated
// first, is locked until the commit, so two writers never take the same numbers.
// The Seq of each event given is ignored.
func (s *Store) AppendEvents(ctx context.Context, id string, events []runstore.Event) error {
	if len(events) == 0 {
		_, err := s.status(ctx, id)
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var last int64
		err := tx.QueryRow(ctx, `UPDATE runs SET last_seq = last_seq + $1 WHERE id = $2 RETURNING last_seq`, len(events), id).Scan(&last)
		if err == pgx.ErrNoRows {
			return &runstore.NotFoundError{ID: id}
		}
		if err != nil {
			return fmt.Errorf("append events to run %q: %w", id, err)
		}
		first := last - int64(len(events))
		now := s.now()
		rows := make([][]any, len(events))
		for i, e := range events {
			at := e.Time
			if at.IsZero() {
				at = now
			}
			rows[i] = []any{id, first + int64(i) + 1, e.Attempt, e.Backend, e.Type, blob(e.Data), at}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"run_id", "seq", "attempt", "backend", "type", "data", "at"},
			pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("append events to run %q: %w", id, err)
		}
		return nil
	})
}

func (s *Store) Events(ctx context.Context, id string, after int64, limit int) ([]runstore.Event, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	q := `SELECT seq, attempt, backend, type, data, at FROM events WHERE run_id = $1 AND seq > $2 ORDER BY seq`
	args := []any{id, after}
	if limit > 0 {
		q += ` LIMIT $3`
		args = append(args, limit)
	}
	rows, _ := s.pool.Query(ctx, q, args...)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (runstore.Event, error) {
		var e runstore.Event
		err := row.Scan(&e.Seq, &e.Attempt, &e.Backend, &e.Type, (*[]byte)(&e.Data), &e.Time)
		e.Time = e.Time.UTC()
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("events of run %q: %w", id, err)
	}
	return out, nil
}

// AddGroup records a process group run id started on this replica's machine.
func (s *Store) AddGroup(ctx context.Context, id string, g proctrack.Group) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO process_groups (run_id, pgid, start, boot, replica) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT DO NOTHING`, id, g.PGID, int64(g.Start), s.boot, s.replica)
	if isCode(err, "23503") {
		return &runstore.NotFoundError{ID: id}
	}
	if err != nil {
		return fmt.Errorf("record process group %d of run %q: %w", g.PGID, id, err)
	}
	return nil
}

// RemoveGroup forgets a process group of run id; forgetting one not recorded is no error.
func (s *Store) RemoveGroup(ctx context.Context, id string, g proctrack.Group) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM process_groups WHERE run_id = $1 AND pgid = $2 AND start = $3`, id, g.PGID, int64(g.Start))
	if err != nil {
		return fmt.Errorf("forget process group %d of run %q: %w", g.PGID, id, err)
	}
	return nil
}

// Leftovers are the process groups recorded in this machine's boot by replicas that
// are gone: the caller kills them and removes each with RemoveGroup. Open reads them.
func (s *Store) Leftovers() []runstore.RunGroup { return s.leftovers }

func (s *Store) readLeftovers(ctx context.Context) error {
	if s.boot == "" {
		return nil
	}
	rows, _ := s.pool.Query(ctx, `SELECT run_id, pgid, start FROM process_groups
		WHERE boot = $1 AND replica NOT IN (SELECT id FROM replicas) ORDER BY run_id, pgid`, s.boot)
	gs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (runstore.RunGroup, error) {
		var g runstore.RunGroup
		var start int64
		err := row.Scan(&g.RunID, &g.Group.PGID, &start)
		g.Group.Start = uint64(start)
		return g, err
	})
	if err != nil {
		return fmt.Errorf("read leftover process groups: %w", err)
	}
	s.leftovers = gs
	return nil
}
