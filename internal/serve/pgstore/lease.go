package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// TryLead takes or renews the lease called name for ttl: true when this replica holds
// it afterwards. A lease is taken over only once its holder let it run out.
func (s *Store) TryLead(ctx context.Context, name string, ttl time.Duration) (bool, error) {
	var holder string
	err := s.pool.QueryRow(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now() + $3::interval)
		ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
		WHERE leases.holder = EXCLUDED.holder OR leases.expires_at < now()
		RETURNING holder`, name, s.replica, ttl.String()).Scan(&holder)
	if err == pgx.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", name, err)
	}
	return true, nil
}

// Resign gives up the lease called name if this replica holds it, so that another
// takes it at once instead of at its end.
func (s *Store) Resign(ctx context.Context, name string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, name, s.replica); err != nil {
		return fmt.Errorf("resign lease %s: %w", name, err)
	}
	return nil
}

// Lead runs work while this replica holds the lease called name, until ctx ends. It
// tries for the lease every ttl/3; once held, work runs with a context that ends
// when a renewal fails (the lease may have passed to another replica before the
// next try) and Lead goes back to trying. The lease is resigned on the way out.
func (s *Store) Lead(ctx context.Context, name string, ttl time.Duration, work func(context.Context)) {
	every := ttl / 3
	for ctx.Err() == nil {
		ok, err := s.TryLead(ctx, name, ttl)
		if err != nil || !ok {
			sleep(ctx, every)
			continue
		}
		s.leadWhileHeld(ctx, name, ttl, work)
		end, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = s.Resign(end, name)
		cancel()
	}
}

func (s *Store) leadWhileHeld(ctx context.Context, name string, ttl time.Duration, work func(context.Context)) {
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() { defer close(done); work(wctx) }()
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			<-done
			return
		case <-t.C:
			// The renewal must land before the lease's end: bounded by what is left.
			rctx, cancel := context.WithTimeout(ctx, ttl/2)
			ok, err := s.TryLead(rctx, name, ttl)
			cancel()
			if err != nil || !ok {
				stop()
				<-done
				return
			}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
