package runstore

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type fakeExpirer struct {
	mu    sync.Mutex
	calls int
	err   error
}

func (f *fakeExpirer) DeleteExpired(context.Context) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return 2, f.err
}

func TestCleanRunsEveryIntervalUntilCancelled(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := &fakeExpirer{err: errors.New("disk full")}
		ctx, cancel := context.WithCancel(t.Context())
		var reports []error
		done := make(chan struct{})
		go func() {
			Clean(ctx, f, time.Minute, func(n int, err error) { reports = append(reports, err) })
			close(done)
		}()
		time.Sleep(3*time.Minute + time.Second)
		synctest.Wait()
		cancel()
		<-done
		if f.calls != 3 || len(reports) != 3 || reports[0] == nil {
			t.Errorf("%d passes, %d reports (%v); want 3 and 3", f.calls, len(reports), reports)
		}
	})
}
