package embed

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/graph"
)

// Open caches the vectors beside the index; EmbedAll pays for every symbol so a
// search afterwards makes no embeddings request but the query's.
func TestOpenCachesBesideTheIndex(t *testing.T) {
	fm := fakemodel.NewTest(t, fakemodel.Script{})
	dir := t.TempDir()
	s, closeFn := Config{Client: &Client{BaseURL: fm.URL(), APIKey: "k", Model: "bge-m3"}}.Open(filepath.Join(dir, "graph.db"))
	defer closeFn()
	st := storeWith(t,
		graph.Node{QName: "b.py::load_settings", Kind: graph.KindFunction, Name: "load_settings", File: "b.py", Line: 1, Doc: "Read the configuration file."},
	)
	ctx := context.Background()
	cov, err := s.EmbedAll(ctx, st)
	if err != nil || cov.Embedded != 1 || cov.New != 1 {
		t.Fatalf("EmbedAll = %+v, %v", cov, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "embeddings.db")); err != nil {
		t.Errorf("no cache beside the index: %v", err)
	}
	before := embedRequests(fm)
	if got, _, err := s.AsLeg().Rank(ctx, st, "configuration", 5); err != nil || len(got) != 1 {
		t.Fatalf("Rank = %v, %v", got, err)
	}
	if n := embedRequests(fm) - before; n != 1 {
		t.Errorf("a search after indexing made %d embeddings requests, want 1 (the query)", n)
	}
}

// Configured embeddings that cannot work fail each search with the reason; none
// configured give no leg at all.
func TestConfigWithoutAUsableModel(t *testing.T) {
	if s, _ := (Config{}).Open("/nonexistent/graph.db"); s != nil || s.AsLeg() != nil {
		t.Errorf("no model configured gives a leg: %v", s)
	}
	if (Config{}).Lazy(func() (string, error) { return "", nil }) != nil {
		t.Error("no model configured gives a lazy leg")
	}
	s, _ := Config{Err: errors.New("no key for provider albert")}.Open("/nonexistent/graph.db")
	if _, _, err := s.Rank(context.Background(), nil, "q", 5); err == nil || !strings.Contains(err.Error(), "no key for provider albert") {
		t.Errorf("Rank = %v, want the configuration's reason", err)
	}
	if _, err := s.EmbedAll(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("EmbedAll = %v, want the configuration's reason", err)
	}
}

// Lazy asks for the index path, which may create the index folder, only on the
// first search, and once.
func TestLazyOpensOnTheFirstSearch(t *testing.T) {
	asked := 0
	leg := Config{Err: errors.New("unusable")}.Lazy(func() (string, error) {
		asked++
		return filepath.Join(t.TempDir(), "graph.db"), nil
	})
	if asked != 0 {
		t.Fatalf("the index path was asked for %d times before any search", asked)
	}
	for range 2 {
		if _, _, err := leg.Rank(context.Background(), nil, "q", 5); err == nil || err.Error() != "unusable" {
			t.Fatalf("Rank = %v", err)
		}
	}
	if asked != 1 {
		t.Errorf("the index path was asked for %d times, want 1", asked)
	}
	failing := Config{Err: errors.New("unusable")}.Lazy(func() (string, error) { return "", errors.New("no writable place for the index") })
	if _, _, err := failing.Rank(context.Background(), nil, "q", 5); err == nil || !strings.Contains(err.Error(), "no writable place") {
		t.Errorf("Rank without an index path = %v", err)
	}
}
