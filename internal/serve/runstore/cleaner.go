package runstore

import (
	"context"
	"time"
)

// DefaultCleanInterval is how often Clean looks for expired runs: the original's
// 10 minutes. An expired run is already hidden from Get and List; cleaning only
// frees the space.
const DefaultCleanInterval = 10 * time.Minute

// expirer is the part of a Store that Clean needs.
type expirer interface {
	DeleteExpired(ctx context.Context) (int, error)
}

// Clean removes expired runs from st every interval (0: DefaultCleanInterval) until
// ctx ends; report, if not nil, hears of each pass that removed runs or failed. The
// caller runs it in a goroutine it waits for.
func Clean(ctx context.Context, st expirer, interval time.Duration, report func(removed int, err error)) {
	if interval <= 0 {
		interval = DefaultCleanInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := st.DeleteExpired(ctx)
			if report != nil && (n > 0 || err != nil) && ctx.Err() == nil {
				report(n, err)
			}
		}
	}
}
