package graph

import (
	"context"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/graph/embed"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// vectorLeg builds code-graph search's embeddings leg from root's configuration
// (agentenv.Env.GraphEmbeddings), its cache next to the index at dbPath. It returns
// nil when embeddings are not configured. When they are but cannot work (no key, an
// unknown provider, an unreadable cache), the leg it returns fails with that
// reason, so search answers with BM25 and says why instead of failing.
func vectorLeg(f *cmdutil.Factory, root, dbPath string) (leg *embed.Search, closeFn func()) {
	e, err := f.LoadEnv(root, config.Overrides{}, false)
	if err != nil {
		return embed.Config{Err: fmt.Errorf("configuration: %w", err)}.Open(dbPath)
	}
	return e.GraphEmbeddings().Open(dbPath)
}

// embedReport is what graph index says about embeddings.
type embedReport struct {
	embed.Coverage
	Error string `json:"error,omitempty"`
}

// embedIndex embeds what the index run added when embeddings are configured;
// nil when they are not. A failure is reported, not fatal: the index is built.
func embedIndex(ctx context.Context, f *cmdutil.Factory, root, dbPath string, st *store.Store) *embedReport {
	leg, closeLeg := vectorLeg(f, root, dbPath)
	defer closeLeg()
	if leg == nil {
		return nil
	}
	cov, err := leg.EmbedAll(ctx, st)
	rep := &embedReport{Coverage: cov}
	if err != nil {
		rep.Error = err.Error()
	}
	return rep
}
