package runstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// maxListLimit bounds List; judgement: a page a client can render.
const (
	defaultListLimit = 100
	maxListLimit     = 1000
)

func (s *SQLite) Create(ctx context.Context, r Run) error {
	if r.ID == "" {
		return errors.New("create run: empty id")
	}
	if r.Status == "" {
		r.Status = Queued
	}
	if !r.Status.valid() || r.Status.Final() {
		return fmt.Errorf("create run %q: status %q: want %s or %s", r.ID, r.Status, Queued, Running)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	var started sql.NullInt64
	if r.Status == Running {
		started = sql.NullInt64{Int64: ms(r.CreatedAt), Valid: true}
	}
	s.write.Lock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO runs (id, workspace, backend, status, request, async, created_at, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.Workspace, r.Backend, r.Status, blob(r.Request), r.Async, ms(r.CreatedAt), started)
	s.write.Unlock()
	if isConstraint(err) {
		return fmt.Errorf("create run %q: %w", r.ID, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create run %q: %w", r.ID, err)
	}
	return nil
}

func (s *SQLite) Start(ctx context.Context, id string) error {
	s.write.Lock()
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, started_at = ? WHERE id = ? AND status = ?`,
		Running, ms(s.now()), id, Queued)
	s.write.Unlock()
	if err != nil {
		return fmt.Errorf("start run %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	st, err := exists(ctx, s.db, id)
	switch {
	case err != nil:
		return err
	case st.Final():
		return &FinishedError{ID: id, Status: st}
	}
	return nil // already running
}

func (s *SQLite) Finish(ctx context.Context, id string, status Status, result json.RawMessage, errMsg string) error {
	if !status.Final() {
		return fmt.Errorf("finish run %q: status %q is not final: want %s, %s or %s", id, status, Completed, Failed, Cancelled)
	}
	now := s.now()
	s.write.Lock()
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET status = ?, result = ?, error = ?, finished_at = ?, expires_at = ?
		WHERE id = ? AND status IN (?, ?)`,
		status, blob(result), errMsg, ms(now), ms(now.Add(s.retention)), id, Queued, Running)
	s.write.Unlock()
	if err != nil {
		return fmt.Errorf("finish run %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	st, err := exists(ctx, s.db, id)
	if err != nil {
		return err
	}
	return &FinishedError{ID: id, Status: st}
}

const runColumns = `id, workspace, backend, status, request, result, error, async, created_at, started_at, finished_at, expires_at`

func scanRun(row interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var created int64
	var started, finished, expires sql.NullInt64
	err := row.Scan(&r.ID, &r.Workspace, &r.Backend, &r.Status, (*[]byte)(&r.Request), (*[]byte)(&r.Result), &r.Error, &r.Async,
		&created, &started, &finished, &expires)
	r.CreatedAt = fromMS(sql.NullInt64{Int64: created, Valid: true})
	r.StartedAt, r.FinishedAt, r.ExpiresAt = fromMS(started), fromMS(finished), fromMS(expires)
	return r, err
}

// Get returns a run with its attempts. An expired run not yet cleaned is not found.
func (s *SQLite) Get(ctx context.Context, id string) (Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?
		AND (expires_at IS NULL OR expires_at > ?)`, id, ms(s.now())))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, &NotFoundError{ID: id}
	}
	if err != nil {
		return Run{}, fmt.Errorf("get run %q: %w", id, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT idx, usage, exit_code, parse_error, session_id FROM attempts
		WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return Run{}, fmt.Errorf("get run %q attempts: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var a Attempt
		if err := rows.Scan(&a.Index, (*[]byte)(&a.Usage), &a.ExitCode, &a.ParseError, &a.SessionID); err != nil {
			return Run{}, fmt.Errorf("get run %q attempts: %w", id, err)
		}
		r.Attempts = append(r.Attempts, a)
	}
	if err := rows.Err(); err != nil {
		return Run{}, fmt.Errorf("get run %q attempts: %w", id, err)
	}
	return r, nil
}

// List returns runs, newest first, without their attempts.
func (s *SQLite) List(ctx context.Context, f Filter) ([]Run, error) {
	where := []string{"(expires_at IS NULL OR expires_at > ?)"}
	args := []any{ms(s.now())}
	if len(f.Statuses) > 0 {
		marks := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			if !st.valid() {
				return nil, fmt.Errorf("list runs: status %q: want queued, running, completed, failed or cancelled", st)
			}
			marks[i] = "?"
			args = append(args, st)
		}
		where = append(where, "status IN ("+strings.Join(marks, ", ")+")")
	}
	if f.Workspace != "" {
		where = append(where, "workspace = ?")
		args = append(args, f.Workspace)
	}
	limit := f.Limit
	switch {
	case limit <= 0:
		limit = defaultListLimit
	case limit > maxListLimit:
		limit = maxListLimit
	}
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs WHERE `+strings.Join(where, " AND ")+
		` ORDER BY created_at DESC, id LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}

// Delete removes a run, its attempts and its events, whatever its status: stopping
// a running run is the caller's job.
func (s *SQLite) Delete(ctx context.Context, id string) error {
	s.write.Lock()
	res, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, id)
	s.write.Unlock()
	if err != nil {
		return fmt.Errorf("delete run %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &NotFoundError{ID: id}
	}
	return nil
}

func (s *SQLite) DeleteExpired(ctx context.Context) (int, error) {
	s.write.Lock()
	res, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE expires_at IS NOT NULL AND expires_at <= ?`, ms(s.now()))
	s.write.Unlock()
	if err != nil {
		return 0, fmt.Errorf("delete expired runs: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// blob stores an absent JSON document as NULL rather than an empty blob.
func blob(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return []byte(b)
}

func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
