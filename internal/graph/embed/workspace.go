package embed

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Config says which model embeds a workspace's symbols, as the user's
// configuration resolves it (graph.embeddings_model, graph.embeddings_provider).
// The zero value means embeddings are not configured.
type Config struct {
	Client *Client
	// Err is why configured embeddings cannot work (no key, an unknown
	// provider): search then answers with BM25 and says why instead of failing.
	Err error
}

// Configured reports whether c names a model, usable or not.
func (c Config) Configured() bool { return c.Client != nil || c.Err != nil }

// Open is the embeddings leg of the index at indexPath, its vectors cached in
// embeddings.db beside the index; nil when c is not configured. closeFn
// releases the cache.
func (c Config) Open(indexPath string) (s *Search, closeFn func()) {
	noop := func() {}
	switch {
	case !c.Configured():
		return nil, noop
	case c.Err != nil:
		return &Search{err: c.Err}, noop
	}
	cache, err := OpenCache(filepath.Join(filepath.Dir(indexPath), "embeddings.db"))
	if err != nil {
		return &Search{err: err}, noop
	}
	return &Search{leg: &Leg{Client: c.Client, Cache: cache}}, func() { cache.Close() }
}

// Lazy is the leg Open gives, opened on the first search with the index path
// indexPath returns then, and kept open for the process: the agent's tool may
// never search, and opening the cache creates the index folder. It is nil when
// c is not configured.
func (c Config) Lazy(indexPath func() (string, error)) query.VectorLeg {
	if !c.Configured() {
		return nil
	}
	return &lazySearch{open: func() *Search {
		path, err := indexPath()
		if err != nil {
			return &Search{err: err}
		}
		s, _ := c.Open(path) // the cache lives as long as the process
		return s
	}}
}

// Search is a workspace's embeddings leg, or the reason there is none
// (query.VectorLeg).
type Search struct {
	leg *Leg
	err error
}

// Rank ranks symbols by similarity to q, or fails with the reason the leg
// cannot work.
func (s *Search) Rank(ctx context.Context, st *store.Store, q string, limit int) ([]string, string, error) {
	if s.err != nil {
		return nil, "", s.err
	}
	return s.leg.Rank(ctx, st, q, limit)
}

// EmbedAll embeds every symbol of the index not in the cache yet: indexing pays
// for the vectors so that searches do not.
func (s *Search) EmbedAll(ctx context.Context, st *store.Store) (Coverage, error) {
	if s.err != nil {
		return Coverage{}, s.err
	}
	docs, err := Docs(ctx, st)
	if err != nil {
		return Coverage{}, err
	}
	_, cov, err := s.leg.Refresh(ctx, docs, 0)
	return cov, err
}

// AsLeg is s as a query.VectorLeg: a nil interface when s is nil, so search
// knows there is no vector leg rather than calling a nil one.
func (s *Search) AsLeg() query.VectorLeg {
	if s == nil {
		return nil
	}
	return s
}

// lazySearch opens its Search on the first Rank.
type lazySearch struct {
	once sync.Once
	open func() *Search
	s    *Search
}

func (l *lazySearch) Rank(ctx context.Context, st *store.Store, q string, limit int) ([]string, string, error) {
	l.once.Do(func() { l.s = l.open() })
	return l.s.Rank(ctx, st, q, limit)
}
