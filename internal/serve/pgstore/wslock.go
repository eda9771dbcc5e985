package pgstore

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// LockWorkspace waits until no other replica runs in workspace (its resolved path,
// the same on every replica's shared volume) and returns the release. The lock is a
// session advisory lock on a connection held for the run: if this replica dies, or
// its connection is cut, PostgreSQL ends the session and the lock with it.
// Waiters on one workspace are served in arrival order by PostgreSQL's lock queue;
// within a replica the workspace queue lets one run at a time get here.
func (s *Store) LockWorkspace(ctx context.Context, workspace string) (release func(), err error) {
	conn, err := s.locks.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock workspace %s across replicas: %w", workspace, err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, workspace); err != nil {
		// A cancelled wait may leave the connection mid-query: drop it rather
		// than hand a maybe-locked session back to the pool.
		_ = conn.Conn().Close(context.Background())
		conn.Release()
		return nil, fmt.Errorf("lock workspace %s across replicas: %w", workspace, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, workspace); err != nil {
				// Closing the session frees the lock all the same.
				_ = conn.Conn().Close(ctx)
			}
			conn.Release()
		})
	}, nil
}
