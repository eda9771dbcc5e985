package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// kept returns the kept index, opening it on first use; errNoIndex when the
// repository has none yet.
func (h *handler) kept() (*index.Live, error) {
	h.liveMu.Lock()
	defer h.liveMu.Unlock()
	if h.live != nil {
		return h.live, nil
	}
	if err := h.cfg.Lifetime.Err(); err != nil {
		return nil, fmt.Errorf("the graph server is shutting down: %w", err)
	}
	path, err := h.cfg.IndexPath(false)
	if err != nil {
		return nil, err
	}
	l, err := index.OpenLive(h.cfg.Root, path, h.cfg.Index)
	if errors.Is(err, store.ErrNoIndex) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("open the index: %w (analyze_codebase rebuilds what it can)", err)
	}
	h.live = l
	context.AfterFunc(h.cfg.Lifetime, func() {
		h.liveMu.Lock()
		defer h.liveMu.Unlock()
		l.Close()
		h.live = nil
	})
	return l, nil
}

// keptNow is the kept index if one is open, else nil.
func (h *handler) keptNow() *index.Live {
	h.liveMu.Lock()
	defer h.liveMu.Unlock()
	return h.live
}

// openKept brings the kept index up to date and lends its store. The sync runs
// under the server's lifetime, not the call's: a caller that gives up leaves
// the work done for the next question.
func (h *handler) openKept() (*store.Store, error) {
	l, err := h.kept()
	if err != nil {
		return nil, err
	}
	h.analyzing.Lock()
	defer h.analyzing.Unlock()
	st, _, err := l.Sync(h.cfg.Lifetime)
	if errors.Is(err, store.ErrNoIndex) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("bring the index up to date: %w", err)
	}
	return st, nil
}

// typesInBackground makes the kept index land the type checker's pass that
// analyze_codebase's first pass left due: its sync sees the pass pending and
// starts it in the background. Called with h.analyzing held.
func (h *handler) typesInBackground() error {
	l, err := h.kept()
	if err != nil {
		return err
	}
	if _, _, err := l.Sync(h.cfg.Lifetime); err != nil {
		return fmt.Errorf("start the type checker's pass: %w", err)
	}
	return nil
}
