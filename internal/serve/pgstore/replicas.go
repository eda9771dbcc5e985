package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrLeaseLost says this replica's heartbeat row was gone: the others judged it dead
// (it was cut off for longer than the lease) and failed its unfinished runs.
var ErrLeaseLost = errors.New("replica lease lost: the other replicas judged this one dead and failed its unfinished runs")

// OrphanError is the error a run gets when the replica running it died: its lease
// ran out without a heartbeat. Such runs are failed, never run again elsewhere: an
// agent may have half-changed the workspace, sent messages or spent money, and a
// second run would do it twice.
func OrphanError(replica string) string {
	return fmt.Sprintf("the replica running it (%s) stopped: no heartbeat within its lease; the run was not retried, since it may have half-changed its workspace", replica)
}

func (s *Store) register(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO replicas (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`, s.replica); err != nil {
		return fmt.Errorf("register replica %s: %w", s.replica, err)
	}
	if _, err := s.FailOrphans(ctx); err != nil {
		return err
	}
	return s.readLeftovers(ctx)
}

// leave fails this replica's unfinished runs (a clean stop has ended them already;
// what is left was interrupted) and removes its row.
func (s *Store) leave(ctx context.Context) error {
	now := s.now()
	if _, err := s.pool.Exec(ctx, `UPDATE runs SET status = 'failed', error = $1, finished_at = $2, expires_at = $3
		WHERE replica = $4 AND status IN ('queued', 'running')`,
		"interrupted: the replica running it stopped", now, now.Add(s.retention), s.replica); err != nil {
		return fmt.Errorf("leave the cluster: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM replicas WHERE id = $1`, s.replica); err != nil {
		return fmt.Errorf("leave the cluster: %w", err)
	}
	return nil
}

// Beat renews this replica's lease once. ErrLeaseLost means it had run out.
func (s *Store) Beat(ctx context.Context) error {
	tag, err := s.pool.Exec(ctx, `UPDATE replicas SET heartbeat_at = now() WHERE id = $1`, s.replica)
	if err != nil {
		return fmt.Errorf("heartbeat of replica %s: %w", s.replica, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrLeaseLost
	}
	return nil
}

// FailOrphans removes the replicas whose lease ran out and fails their unfinished
// runs with OrphanError, returning how many runs it failed. Every replica calls it on
// its heartbeat; the rows are claimed with SKIP LOCKED, so replicas reaping together
// neither wait for each other nor fail a run twice.
func (s *Store) FailOrphans(ctx context.Context) (int, error) {
	now := s.now()
	var n int
	err := s.pool.QueryRow(ctx, `WITH dead AS (
			DELETE FROM replicas WHERE heartbeat_at < now() - $1::interval RETURNING id
		), orphans AS (
			SELECT id FROM runs
			WHERE status IN ('queued', 'running')
			  AND (replica IN (SELECT id FROM dead) OR replica NOT IN (SELECT id FROM replicas))
			FOR UPDATE SKIP LOCKED
		), failed AS (
			UPDATE runs SET status = 'failed', error = 'the replica running it (' || replica || ') stopped: no heartbeat within its lease; the run was not retried, since it may have half-changed its workspace',
				finished_at = $2, expires_at = $3
			WHERE id IN (SELECT id FROM orphans) RETURNING 1
		)
		SELECT count(*) FROM failed`, s.ttl.String(), now, now.Add(s.retention)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("fail the runs of dead replicas: %w", err)
	}
	return n, nil
}

// KeepAlive beats every heartbeat interval and reaps dead replicas until ctx ends.
// report, if not nil, hears of failed beats, lost leases (after which the replica
// registers again) and reaped runs.
func (s *Store) KeepAlive(ctx context.Context, report func(reaped int, err error)) {
	if report == nil {
		report = func(int, error) {}
	}
	t := time.NewTicker(s.heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := s.Beat(ctx)
		if errors.Is(err, ErrLeaseLost) {
			report(0, err)
			err = s.register(ctx)
		}
		if err != nil {
			report(0, err)
			continue
		}
		if n, err := s.FailOrphans(ctx); err != nil || n > 0 {
			report(n, err)
		}
	}
}
