package ratelimit

import (
	"context"
	"time"
)

// Clock tells the time and waits. Tests inject a fake so that no rate-limit rule is
// ever tested by sleeping.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, returning ctx's error then.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now.
func (SystemClock) Now() time.Time { return time.Now() }

// Sleep waits on a timer.
func (SystemClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
