package agenttool

import (
	"context"
	"log/slog"
	"sync"
)

// background runs the refreshes the workspace's changes call for, one at a time:
// a change during a refresh queues exactly one more, so bursts of edits cost at
// most two runs.
type background struct {
	mu      sync.Mutex
	running bool
	again   bool
	stopped bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	runs    int // refreshes started, for tests
}

// Changed says the workspace may have changed (a file written, a command run):
// an existing index is refreshed in the background, so the next question finds
// it current instead of paying for the refresh. A workspace without an index is
// left alone: the first question builds it.
func (t *Tool) Changed() {
	b := &t.g.bg
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	if b.running {
		b.again = true
		return
	}
	if b.ctx == nil {
		b.ctx, b.cancel = context.WithCancel(context.Background())
	}
	b.running = true
	b.wg.Add(1)
	go t.refreshLoop()
}

func (t *Tool) refreshLoop() {
	b := &t.g.bg
	defer b.wg.Done()
	for {
		b.mu.Lock()
		b.runs++
		b.mu.Unlock()
		if err := t.Warm(b.ctx); err != nil && b.ctx.Err() == nil {
			slog.Warn("refresh the code graph after a change", "err", err)
		}
		b.mu.Lock()
		if !b.again || b.stopped {
			b.running = false
			b.mu.Unlock()
			return
		}
		b.again = false
		b.mu.Unlock()
	}
}

// Stop cancels a background refresh and waits for it, and closes the index kept
// open for the session; later changes are ignored, and later questions open the
// index each time.
func (t *Tool) Stop() {
	b := &t.g.bg
	b.mu.Lock()
	b.stopped = true
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
	t.g.stopKeeping()
}

// Stopped reports whether Stop was called.
func (t *Tool) Stopped() bool {
	b := &t.g.bg
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped
}
