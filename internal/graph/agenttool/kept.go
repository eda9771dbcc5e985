package agenttool

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// The tool keeps the workspace's index open and watched for the session once it
// exists (index.Live): a question then costs neither a store open nor a walk of
// the tree, and still sees every edit made before it. The fields live in
// graphTool and are guarded by its refreshing mutex.

// refreshKept brings the kept index up to date; ok is false when there is none
// (or it failed and was dropped), and the caller takes the path that opens,
// builds or rebuilds the index.
func (g *graphTool) refreshKept(ctx context.Context) (st *store.Store, r Refresh, ok bool, err error) {
	if g.kept == nil {
		return nil, Refresh{}, false, nil
	}
	start := time.Now()
	st, rep, err := g.kept.Sync(ctx)
	switch {
	case err == nil && rep == nil:
		return st, Refresh{Status: "fresh"}, true, nil
	case err == nil:
		return st, Refresh{Status: "reindexed", Extracted: rep.Extracted, TookMS: max(time.Since(start).Milliseconds(), 1)}, true, nil
	case ctx.Err() != nil:
		return nil, Refresh{}, true, ctx.Err()
	}
	// Removed, corrupt, replaced by something unreadable: the ordinary path
	// reports or rebuilds it, and keeps the new one.
	slog.Warn("the kept code graph index failed; opening it again", "err", err)
	if errors.Is(err, store.ErrCorrupt) {
		// Removed before the kept connections close: closing checkpoints their
		// log into the file, which could make the damaged file look sound.
		if path, perr := g.cfg.IndexPath(false); perr == nil && store.Remove(path) == nil {
			g.rebuiltWhy = "it was corrupt"
		}
	}
	g.dropKept()
	return nil, Refresh{}, false, nil
}

// keep opens the index at path as the kept index, unless the tool was stopped.
// A failure only costs speed: the next question opens the index as before.
func (g *graphTool) keep(path string) {
	if g.kept != nil || g.keepingStopped {
		return
	}
	l, err := index.OpenLive(g.cfg.Root, path, g.cfg.Index)
	if err != nil {
		slog.Debug("keep the code graph index open", "err", err)
		return
	}
	g.kept = l
}

// typesInBackground makes the kept index start the type checker's pass a
// first pass left due (its sync sees it pending), and reports whether it did:
// false when there is no kept index.
func (g *graphTool) typesInBackground(ctx context.Context) bool {
	if g.kept == nil {
		return false
	}
	if _, _, err := g.kept.Sync(ctx); err != nil {
		slog.Debug("start the code graph's type checker's pass", "err", err)
		return false
	}
	return true
}

// awaitTypes sets r.TypesPending when the kept index's Go facts still wait for
// the type checker's pass, having first waited for that pass (at most
// g.cfg.TypesWait) when the question needs what only it reads: calls,
// references, type relations.
func (g *graphTool) awaitTypes(ctx context.Context, question string, r *Refresh) {
	g.refreshing.Lock()
	l := g.kept
	g.refreshing.Unlock()
	if l == nil || !l.Stats().TypesPending {
		return
	}
	if question != "definition" && question != "search" {
		wait, cancel := context.WithTimeout(ctx, g.cfg.TypesWait)
		defer cancel()
		_ = l.WaitTypes(wait) // past the bound, the lower bound is answered
	}
	r.TypesPending = l.Stats().TypesPending
}

func (g *graphTool) dropKept() {
	if g.kept != nil {
		g.kept.Close()
		g.kept = nil
	}
}

// stopKeeping closes the kept index for good: questions after Stop open the
// index each time.
func (g *graphTool) stopKeeping() {
	g.refreshing.Lock()
	defer g.refreshing.Unlock()
	g.keepingStopped = true
	g.dropKept()
}

// keptStats reports what the kept index did, for tests; false when there is none.
func (g *graphTool) keptStats() (index.LiveStats, bool) {
	g.refreshing.Lock()
	defer g.refreshing.Unlock()
	if g.kept == nil {
		return index.LiveStats{}, false
	}
	return g.kept.Stats(), true
}
