package cron

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Clock is the scheduler's time, injected so tests and the benchmark run a day of
// schedules without waiting for it.
type Clock interface {
	Now() time.Time
	// After sends the time once d has passed; d <= 0 sends at once.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// RealClock is the machine's clock.
func RealClock() Clock { return realClock{} }

// ManualClock is a Clock that moves only when told to.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []manualWaiter
	changed chan struct{} // closed and replaced whenever a waiter is added
}

type manualWaiter struct {
	at time.Time
	ch chan time.Time
}

// NewManualClock returns a clock stopped at now.
func NewManualClock(now time.Time) *ManualClock {
	return &ManualClock{now: now, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives the time once the clock reaches now+d.
func (c *ManualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, manualWaiter{at: c.now.Add(d), ch: ch})
	sort.SliceStable(c.waiters, func(i, j int) bool { return c.waiters[i].at.Before(c.waiters[j].at) })
	close(c.changed)
	c.changed = make(chan struct{})
	return ch
}

// Set moves the clock to t (never backwards) and wakes the waiters due by then.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
	for len(c.waiters) > 0 && !c.waiters[0].at.After(c.now) {
		c.waiters[0].ch <- c.now
		c.waiters = c.waiters[1:]
	}
}

// Advance moves the clock by d.
func (c *ManualClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// NextWaiter returns the earliest time a waiter waits for, if any.
func (c *ManualClock) NextWaiter() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiters) == 0 {
		return time.Time{}, false
	}
	return c.waiters[0].at, true
}

// WaitForWaiter blocks until someone waits on the clock for a time after now, or
// ctx ends: the sign that a scheduler has done everything due and sleeps.
func (c *ManualClock) WaitForWaiter(ctx context.Context) error {
	for {
		c.mu.Lock()
		pending := len(c.waiters) > 0
		changed := c.changed
		c.mu.Unlock()
		if pending {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
