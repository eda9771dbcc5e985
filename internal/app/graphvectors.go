package app

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/graph/embed"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// vectorLeg builds code-graph search's embeddings leg from root's configuration
// (graph.embeddings_model, graph.embeddings_provider), its cache next to the
// index at dbPath. It returns nil when embeddings are not configured. When they
// are but cannot work (no key, an unknown provider, an unreadable cache), the leg
// it returns fails with that reason, so search answers with BM25 and says why
// instead of failing.
func vectorLeg(root, dbPath string) (leg *vectorSearch, closeFn func()) {
	e, err := loadEnv(root, config.Overrides{}, false)
	if err != nil {
		return &vectorSearch{err: fmt.Errorf("configuration: %w", err)}, func() {}
	}
	return vectorLegFor(e.Config, dbPath)
}

// vectorLegFor is vectorLeg with the configuration already loaded.
func vectorLegFor(cfg *config.Config, dbPath string) (leg *vectorSearch, closeFn func()) {
	noop := func() {}
	g := cfg.Graph
	if g.EmbeddingsModel == "" {
		return nil, noop
	}
	name := g.EmbeddingsProvider
	if name == "" {
		m, err := cfg.ActiveModel()
		if err != nil {
			return &vectorSearch{err: err}, noop
		}
		name = m.Provider
	}
	p, err := cfg.Provider(name)
	if err != nil {
		return &vectorSearch{err: fmt.Errorf("graph.embeddings_provider: %w", err)}, noop
	}
	key, err := cfg.APIKey(p.Name)
	if err != nil {
		return &vectorSearch{err: err}, noop
	}
	cache, err := embed.OpenCache(filepath.Join(filepath.Dir(dbPath), "embeddings.db"))
	if err != nil {
		return &vectorSearch{err: err}, noop
	}
	l := &embed.Leg{Client: &embed.Client{BaseURL: p.BaseURL, APIKey: key, Model: g.EmbeddingsModel}, Cache: cache}
	return &vectorSearch{leg: l}, func() { cache.Close() }
}

// vectorSearch is the leg, or the reason there is none (query.VectorLeg).
type vectorSearch struct {
	leg *embed.Leg
	err error
}

func (v *vectorSearch) Rank(ctx context.Context, st *store.Store, q string, limit int) ([]string, string, error) {
	if v.err != nil {
		return nil, "", v.err
	}
	return v.leg.Rank(ctx, st, q, limit)
}

// embedAll embeds every symbol of the index not in the cache yet: indexing pays
// for the vectors so that searches do not.
func (v *vectorSearch) embedAll(ctx context.Context, st *store.Store) (embed.Coverage, error) {
	if v.err != nil {
		return embed.Coverage{}, v.err
	}
	docs, err := embed.Docs(ctx, st)
	if err != nil {
		return embed.Coverage{}, err
	}
	_, cov, err := v.leg.Refresh(ctx, docs, 0)
	return cov, err
}

// asLeg is v as a query.VectorLeg, a nil interface when v is nil.
func (v *vectorSearch) asLeg() query.VectorLeg {
	if v == nil {
		return nil
	}
	return v
}

// embedReport is what graph index says about embeddings.
type embedReport struct {
	embed.Coverage
	Error string `json:"error,omitempty"`
}

// embedIndex embeds what the index run added when embeddings are configured;
// nil when they are not. A failure is reported, not fatal: the index is built.
func embedIndex(cmd *cobra.Command, root, dbPath string, st *store.Store) *embedReport {
	leg, closeLeg := vectorLeg(root, dbPath)
	defer closeLeg()
	if leg == nil {
		return nil
	}
	cov, err := leg.embedAll(cmd.Context(), st)
	rep := &embedReport{Coverage: cov}
	if err != nil {
		rep.Error = err.Error()
	}
	return rep
}

// lazyVectors opens the leg on the first search: the agent's tool may never
// search, and opening the cache creates the index folder.
type lazyVectors struct {
	once sync.Once
	open func() query.VectorLeg
	leg  query.VectorLeg
}

func (l *lazyVectors) Rank(ctx context.Context, st *store.Store, q string, limit int) ([]string, string, error) {
	l.once.Do(func() { l.leg = l.open() })
	if l.leg == nil {
		return nil, "", fmt.Errorf("embeddings are not configured")
	}
	return l.leg.Rank(ctx, st, q, limit)
}
