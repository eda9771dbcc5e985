// Package workspace gives the serve layer its workspaces: names resolved to folders
// under one root without escaping it, throw-away folders for one run, and the lock
// that makes runs on one workspace wait their turn instead of failing. The original
// answered 409 to the second caller; here callers queue, first come first served, up
// to a bound past which they are told when to come back.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultMaxWaiters bounds each workspace's queue; judgement: past 16 runs waiting on
// one folder a client is better told to come back than kept on an open connection.
const DefaultMaxWaiters = 16

// initialHold is the run length assumed before any run has finished; judgement: a
// short agent task (one or two model calls and a tool) takes about half a minute.
const initialHold = 30 * time.Second

// holdWeight is the weight of the newest run in the moving average of run lengths.
const holdWeight = 0.2

// ErrQueueFull is matched by errors.Is on a *QueueFullError.
var ErrQueueFull = errors.New("workspace queue full")

// QueueFullError says a workspace has as many runs waiting as allowed.
type QueueFullError struct {
	Workspace string
	Waiting   int
	// RetryAfter estimates when a place frees up: what the API sends as Retry-After.
	RetryAfter time.Duration
}

func (e *QueueFullError) Error() string {
	return fmt.Sprintf("workspace %s already has %d runs waiting, the limit: retry in about %s",
		e.Workspace, e.Waiting, e.RetryAfter)
}

func (e *QueueFullError) Is(target error) bool { return target == ErrQueueFull }

// Locks holds one lock per workspace. The zero value is not usable; see NewLocks.
type Locks struct {
	maxWaiters int
	mu         sync.Mutex
	byKey      map[string]*queue
	avgHold    time.Duration // moving average of how long a run holds its workspace
	// across, when set, also keeps other servers out of a workspace (see Across).
	across func(ctx context.Context, workspace string) (release func(), err error)
}

// Across makes every lock of l also take lock, which keeps the other servers that
// share the workspaces out (PostgreSQL's advisory lock between replicas). It is taken
// once this server's queue has granted the workspace, and released before it is
// handed on. Call it before the first Acquire.
func (l *Locks) Across(lock func(ctx context.Context, workspace string) (release func(), err error)) {
	l.across = lock
}

type queue struct {
	heldSince time.Time
	waiters   []*waiter // FIFO; the lock is held whenever the queue exists
}

type waiter struct {
	granted chan struct{} // closed when the lock is handed to this waiter
}

// NewLocks returns locks allowing maxWaiters runs to wait on each workspace besides
// the one running. Zero allows no waiting (busy means refused); a negative value
// means no bound.
func NewLocks(maxWaiters int) *Locks {
	return &Locks{maxWaiters: maxWaiters, byKey: map[string]*queue{}, avgHold: initialHold}
}

// Acquire waits for workspace (a resolved path, so two spellings share one lock) and
// returns the function that releases it. Waiters are served in arrival order; the
// lock is handed from one run to the next, so no newcomer overtakes the queue. It
// fails with a *QueueFullError when the queue is full, and with the context's error
// when ctx ends first, leaving the queue as if it had never joined.
func (l *Locks) Acquire(ctx context.Context, workspace string) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("wait for workspace %s: %w", workspace, err)
	}
	t, err := l.Enqueue(workspace)
	if err != nil {
		return nil, err
	}
	return t.Wait(ctx)
}

// Ticket is a place in a workspace's queue, taken by Enqueue: an async run learns at
// once whether it got a place (or a 429), and waits for its turn later.
type Ticket struct {
	l         *Locks
	workspace string
	w         *waiter // nil when the lock was free: the ticket holds it already
}

// Enqueue takes a place in workspace's queue without waiting, or fails with a
// *QueueFullError. The caller must Wait on the ticket (or cancel that wait), which
// releases the place if the lock is never taken.
func (l *Locks) Enqueue(workspace string) (*Ticket, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.byKey[workspace]
	if q == nil {
		l.byKey[workspace] = &queue{heldSince: time.Now()}
		return &Ticket{l: l, workspace: workspace}, nil
	}
	if l.maxWaiters >= 0 && len(q.waiters) >= l.maxWaiters {
		return nil, &QueueFullError{Workspace: workspace, Waiting: len(q.waiters), RetryAfter: l.estimate(q)}
	}
	w := &waiter{granted: make(chan struct{})}
	q.waiters = append(q.waiters, w)
	return &Ticket{l: l, workspace: workspace, w: w}, nil
}

// Wait waits for the ticket's turn and returns the function that releases the lock.
// When ctx ends first the ticket leaves the queue (or passes on a lock handed to it
// meanwhile) and the context's error is returned.
func (t *Ticket) Wait(ctx context.Context) (release func(), err error) {
	here, err := t.waitHere(ctx)
	if err != nil || t.l.across == nil {
		return here, err
	}
	outer, err := t.l.across(ctx, t.workspace)
	if err != nil {
		here()
		return nil, fmt.Errorf("wait for workspace %s: %w", t.workspace, err)
	}
	var once sync.Once
	return func() { once.Do(func() { outer(); here() }) }, nil
}

// waitHere waits for the ticket's turn among this server's runs.
func (t *Ticket) waitHere(ctx context.Context) (release func(), err error) {
	l := t.l
	if t.w == nil {
		if ctx.Err() != nil {
			l.releaser(t.workspace)()
			return nil, fmt.Errorf("wait for workspace %s: %w", t.workspace, ctx.Err())
		}
		return l.releaser(t.workspace), nil
	}
	select {
	case <-t.w.granted:
		return l.releaser(t.workspace), nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	select {
	case <-t.w.granted:
		// Handed over while we gave up: pass it on rather than drop it.
		l.mu.Unlock()
		l.releaser(t.workspace)()
	default:
		q := l.byKey[t.workspace]
		q.waiters = slices.DeleteFunc(q.waiters, func(x *waiter) bool { return x == t.w })
		l.mu.Unlock()
	}
	return nil, fmt.Errorf("wait for workspace %s: %w", t.workspace, ctx.Err())
}

// releaser returns an idempotent release for the current holder of workspace.
func (l *Locks) releaser(workspace string) func() {
	var once sync.Once
	return func() { once.Do(func() { l.release(workspace) }) }
}

func (l *Locks) release(workspace string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.byKey[workspace]
	now := time.Now()
	held := now.Sub(q.heldSince)
	l.avgHold = time.Duration(holdWeight*float64(held) + (1-holdWeight)*float64(l.avgHold))
	if len(q.waiters) == 0 {
		delete(l.byKey, workspace)
		return
	}
	next := q.waiters[0]
	q.waiters = q.waiters[1:]
	q.heldSince = now
	close(next.granted)
}

// estimate guesses when the queue will have room: when the current run ends and the
// head waiter moves up. A run already past the average is given a quarter of one
// more (judgement: it is as likely to go on as to end, and a retry storm helps no
// one). Rounded up to whole seconds, since Retry-After counts seconds.
func (l *Locks) estimate(q *queue) time.Duration {
	left := max(l.avgHold-time.Since(q.heldSince), l.avgHold/4)
	return time.Duration(math.Ceil(max(left.Seconds(), 1))) * time.Second
}

// Status describes a workspace that is running or has runs waiting.
type Status struct {
	Workspace string
	Waiting   int
	HeldFor   time.Duration
}

// Busy lists the workspaces in use, sorted, for /status.
func (l *Locks) Busy() []Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Status, 0, len(l.byKey))
	for k, q := range l.byKey {
		out = append(out, Status{Workspace: k, Waiting: len(q.waiters), HeldFor: time.Since(q.heldSince)})
	}
	slices.SortFunc(out, func(a, b Status) int { return strings.Compare(a.Workspace, b.Workspace) })
	return out
}
