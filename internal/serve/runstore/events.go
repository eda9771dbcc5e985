package runstore

import (
	"context"
	"database/sql"
	"fmt"
)

func (s *SQLite) AppendAttempt(ctx context.Context, id string, a Attempt) error {
	if _, err := exists(ctx, s.db, id); err != nil {
		return err
	}
	s.write.Lock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO attempts (run_id, idx, usage, exit_code, parse_error, session_id)
		VALUES (?, ?, ?, ?, ?, ?)`, id, a.Index, blob(a.Usage), a.ExitCode, a.ParseError, a.SessionID)
	s.write.Unlock()
	switch {
	case isConstraint(err):
		// The run was deleted meanwhile, or the index is taken.
		if _, e := exists(ctx, s.db, id); e != nil {
			return e
		}
		return fmt.Errorf("append attempt %d to run %q: already recorded", a.Index, id)
	case err != nil:
		return fmt.Errorf("append attempt %d to run %q: %w", a.Index, id, err)
	}
	return nil
}

// AppendEvents numbers and stores events in one transaction: the write lock taken
// at BEGIN (txlock=immediate) makes the numbering race-free across connections.
// The Seq of each event given is ignored.
func (s *SQLite) AppendEvents(ctx context.Context, id string, events []Event) error {
	if len(events) == 0 {
		_, err := exists(ctx, s.db, id)
		return err
	}
	s.write.Lock()
	defer s.write.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("append events to run %q: %w", id, err)
	}
	defer tx.Rollback()
	if _, err := exists(ctx, tx, id); err != nil {
		return err
	}
	var last int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE run_id = ?`, id).Scan(&last); err != nil {
		return fmt.Errorf("append events to run %q: %w", id, err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO events (run_id, seq, attempt, backend, type, data, at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("append events to run %q: %w", id, err)
	}
	defer stmt.Close()
	now := s.now()
	for i, e := range events {
		at := e.Time
		if at.IsZero() {
			at = now
		}
		if _, err := stmt.ExecContext(ctx, id, last+int64(i)+1, e.Attempt, e.Backend, e.Type, blob(e.Data), ms(at)); err != nil {
			return fmt.Errorf("append events to run %q: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("append events to run %q: %w", id, err)
	}
	return nil
}

func (s *SQLite) Events(ctx context.Context, id string, after int64, limit int) ([]Event, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	q := `SELECT seq, attempt, backend, type, data, at FROM events WHERE run_id = ? AND seq > ? ORDER BY seq`
	args := []any{id, after}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("events of run %q: %w", id, err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		var at int64
		if err := rows.Scan(&e.Seq, &e.Attempt, &e.Backend, &e.Type, (*[]byte)(&e.Data), &at); err != nil {
			return nil, fmt.Errorf("events of run %q: %w", id, err)
		}
		e.Time = fromMS(sql.NullInt64{Int64: at, Valid: true})
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events of run %q: %w", id, err)
	}
	return out, nil
}
