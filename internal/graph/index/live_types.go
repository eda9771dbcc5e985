package index

import (
	"context"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// typedPass is the type checker's pass a Live runs in the background while its
// store's Go facts are a first pass's (definitions only).
type typedPass struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// startTypedPass starts the background pass when one is due and none runs.
// Called with l.mu held.
func (l *Live) startTypedPass() {
	if !l.pending || l.typing != nil || l.closed {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &typedPass{cancel: cancel, done: make(chan struct{})}
	l.typing = p
	go func() {
		defer close(p.done)
		defer cancel()
		err := l.typeCheck(ctx)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.typing = nil
		l.stats.TypesError = ""
		if err != nil && ctx.Err() == nil {
			l.stats.TypesError = err.Error()
		}
	}()
}

// typeCheck loads the module without holding l.mu (questions go on being
// answered from the first pass), then writes the load under l.mu if the Go
// files did not move meanwhile; else it loads again.
func (l *Live) typeCheck(ctx context.Context) error {
	for {
		if l.holdTypes != nil {
			select {
			case <-l.holdTypes:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		l.mu.Lock()
		pending, err := typesPending(ctx, l.st)
		hashes := goHashes(l.scan)
		l.mu.Unlock()
		if err != nil || !pending {
			return err // landed by another process
		}
		t := loadTyped(ctx, l.root, l.opts.Go, hashes)
		if err := ctx.Err(); err != nil {
			return err
		}
		landed, err := l.landTypes(ctx, t)
		if landed || err != nil {
			return err
		}
	}
}

// landTypes brings the index up to date and writes the load t over it when it
// was made from the same Go files; false when it was not.
func (l *Live) landTypes(ctx context.Context, t *typedLoad) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.syncLocked(ctx); err != nil {
		return false, err
	}
	pending, err := typesPending(ctx, l.st)
	if err != nil {
		return false, err
	}
	if l.pending = pending; !pending {
		return true, nil
	}
	if !t.fits(l.scan) {
		return false, nil
	}
	opts := l.opts
	opts.typed = t
	rep, err := runScan(ctx, l.root, l.st, opts, l.scan, time.Now())
	if err != nil {
		return false, err
	}
	l.pending = false
	l.stats.Runs++
	l.stats.TypedPasses++
	l.synced, l.head = true, rep.Commit
	l.at, _, _ = l.st.Meta(ctx, store.MetaIndexedAt)
	return true, nil
}

// WaitTypes waits for the background type checker's pass, if one runs, to
// land or fail (Stats().TypesError says why).
func (l *Live) WaitTypes(ctx context.Context) error {
	l.mu.Lock()
	p := l.typing
	l.mu.Unlock()
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
