package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// List bounds, as the SQLite store's.
const (
	defaultListLimit = 100
	maxListLimit     = 1000
)

func (s *Store) Create(ctx context.Context, r runstore.Run) error {
	if r.ID == "" {
		return errors.New("create run: empty id")
	}
	if r.Status == "" {
		r.Status = runstore.Queued
	}
	if r.Status != runstore.Queued && r.Status != runstore.Running {
		return fmt.Errorf("create run %q: status %q: want %s or %s", r.ID, r.Status, runstore.Queued, runstore.Running)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	var started *time.Time
	if r.Status == runstore.Running {
		started = &r.CreatedAt
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO runs (id, workspace, backend, status, request, async, created_at, started_at, replica)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		r.ID, r.Workspace, r.Backend, string(r.Status), blob(r.Request), r.Async, r.CreatedAt, started, s.replica)
	if isCode(err, "23505") {
		return fmt.Errorf("create run %q: %w", r.ID, runstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create run %q: %w", r.ID, err)
	}
	return nil
}

func (s *Store) Start(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE runs SET status = 'running', started_at = $1 WHERE id = $2 AND status = 'queued'`, s.now(), id)
	if err != nil {
		return fmt.Errorf("start run %q: %w", id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	st, err := s.status(ctx, id)
	switch {
	case err != nil:
		return err
	case st.Final():
		return &runstore.FinishedError{ID: id, Status: st}
	}
	return nil
}

func (s *Store) Finish(ctx context.Context, id string, status runstore.Status, result json.RawMessage, errMsg string) error {
	if !status.Final() {
		return fmt.Errorf("finish run %q: status %q is not final: want %s, %s or %s", id, status, runstore.Completed, runstore.Failed, runstore.Cancelled)
	}
	now := s.now()
	tag, err := s.pool.Exec(ctx, `UPDATE runs SET status = $1, result = $2, error = $3, finished_at = $4, expires_at = $5
		WHERE id = $6 AND status IN ('queued', 'running')`,
		string(status), blob(result), errMsg, now, now.Add(s.retention), id)
	if err != nil {
		return fmt.Errorf("finish run %q: %w", id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	st, err := s.status(ctx, id)
	if err != nil {
		return err
	}
	return &runstore.FinishedError{ID: id, Status: st}
}

const runColumns = `id, workspace, backend, status, request, result, error, async, created_at, started_at, finished_at, expires_at`

func scanRun(row pgx.Row) (runstore.Run, error) {
	var r runstore.Run
	var status string
	var started, finished, expires *time.Time
	err := row.Scan(&r.ID, &r.Workspace, &r.Backend, &status, (*[]byte)(&r.Request), (*[]byte)(&r.Result), &r.Error, &r.Async,
		&r.CreatedAt, &started, &finished, &expires)
	r.Status = runstore.Status(status)
	r.CreatedAt = r.CreatedAt.UTC()
	r.StartedAt, r.FinishedAt, r.ExpiresAt = utc(started), utc(finished), utc(expires)
	return r, err
}

// Get returns a run with its attempts. An expired run not yet cleaned is not found.
func (s *Store) Get(ctx context.Context, id string) (runstore.Run, error) {
	r, err := scanRun(s.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE id = $1
		AND (expires_at IS NULL OR expires_at > $2)`, id, s.now()))
	if errors.Is(err, pgx.ErrNoRows) {
		return runstore.Run{}, &runstore.NotFoundError{ID: id}
	}
	if err != nil {
		return runstore.Run{}, fmt.Errorf("get run %q: %w", id, err)
	}
	rows, _ := s.pool.Query(ctx, `SELECT idx, usage, exit_code, parse_error, session_id FROM attempts WHERE run_id = $1 ORDER BY idx`, id)
	r.Attempts, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (runstore.Attempt, error) {
		var a runstore.Attempt
		err := row.Scan(&a.Index, (*[]byte)(&a.Usage), &a.ExitCode, &a.ParseError, &a.SessionID)
		return a, err
	})
	if err != nil {
		return runstore.Run{}, fmt.Errorf("get run %q attempts: %w", id, err)
	}
	return r, nil
}

// List returns runs, newest first, without their attempts.
func (s *Store) List(ctx context.Context, f runstore.Filter) ([]runstore.Run, error) {
	where := []string{"(expires_at IS NULL OR expires_at > $1)"}
	args := []any{s.now()}
	if len(f.Statuses) > 0 {
		sts := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			if st != runstore.Queued && st != runstore.Running && !st.Final() {
				return nil, fmt.Errorf("list runs: status %q: want queued, running, completed, failed or cancelled", st)
			}
			sts[i] = string(st)
		}
		args = append(args, sts)
		where = append(where, "status = ANY($"+strconv.Itoa(len(args))+")")
	}
	if f.Workspace != "" {
		args = append(args, f.Workspace)
		where = append(where, "workspace = $"+strconv.Itoa(len(args)))
	}
	limit := f.Limit
	switch {
	case limit <= 0:
		limit = defaultListLimit
	case limit > maxListLimit:
		limit = maxListLimit
	}
	args = append(args, limit)
	rows, _ := s.pool.Query(ctx, `SELECT `+runColumns+` FROM runs WHERE `+strings.Join(where, " AND ")+
		` ORDER BY created_at DESC, id LIMIT $`+strconv.Itoa(len(args)), args...)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (runstore.Run, error) { return scanRun(row) })
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}

// Delete removes a run, its attempts and its events, whatever its status.
func (s *Store) Delete(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM runs WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete run %q: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return &runstore.NotFoundError{ID: id}
	}
	return nil
}

func (s *Store) DeleteExpired(ctx context.Context) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM runs WHERE expires_at IS NOT NULL AND expires_at <= $1`, s.now())
	if err != nil {
		return 0, fmt.Errorf("delete expired runs: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// status tells ErrNotFound apart after an UPDATE that touched nothing.
func (s *Store) status(ctx context.Context, id string) (runstore.Status, error) {
	var st string
	err := s.pool.QueryRow(ctx, `SELECT status FROM runs WHERE id = $1`, id).Scan(&st)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", &runstore.NotFoundError{ID: id}
	}
	if err != nil {
		return "", fmt.Errorf("run %q: %w", id, err)
	}
	return runstore.Status(st), nil
}

// blob stores an absent JSON document as NULL rather than an empty value.
func blob(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return []byte(b)
}

func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// isCode reports a PostgreSQL error of SQLSTATE code (23505: unique violation,
// 23503: foreign key violation).
func isCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}
