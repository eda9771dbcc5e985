package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// graphIndexes lists the secondary indexes of the graph tables the file holds.
func graphIndexes(t *testing.T, s *Store) []string {
	t.Helper()
	got, err := s.column(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'index'
		AND tbl_name IN ('node_rows', 'edge_rows', 'unresolved_rows', 'site_rows') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

var wantGraphIndexes = []string{"edge_rows_dst", "edge_rows_file", "edge_rows_src", "node_rows_file",
	"node_rows_kind", "node_rows_name", "node_rows_name_nocase", "site_rows_file",
	"unresolved_rows_file", "unresolved_rows_src"}

func TestDeferIndexesBuildsThemAfterTheRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if got := graphIndexes(t, s); !reflect.DeepEqual(got, wantGraphIndexes) {
		t.Fatalf("a new store's indexes = %v; want %v", got, wantGraphIndexes)
	}
	build, err := s.DeferIndexes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := graphIndexes(t, s); len(got) != 0 {
		t.Errorf("indexes while deferred = %v; want none", got)
	}
	replace(t, s, twoFiles())
	if got := edgeRows(t, s); len(got) != 3 {
		t.Errorf("edges while the indexes are deferred = %v; want 3", got)
	}
	if err := build(ctx); err != nil {
		t.Fatal(err)
	}
	if got := graphIndexes(t, s); !reflect.DeepEqual(got, wantGraphIndexes) {
		t.Errorf("indexes after build = %v; want %v", got, wantGraphIndexes)
	}
	var plan string
	if err := s.db.QueryRow(`EXPLAIN QUERY PLAN SELECT src FROM edge_rows WHERE dst = 1 AND kind = 2`).Scan(new(int), new(int), new(int), &plan); err != nil {
		t.Fatal(err)
	}
	if want := "SEARCH edge_rows USING INDEX edge_rows_dst (dst=? AND kind=?)"; plan != want {
		t.Errorf("plan of a callers' lookup = %q; want %q", plan, want)
	}
}

func TestDeferIndexesKeepsThoseOfAGraphWithRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	replace(t, s, twoFiles())
	build, err := s.DeferIndexes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := graphIndexes(t, s); !reflect.DeepEqual(got, wantGraphIndexes) {
		t.Errorf("indexes of a graph with rows after DeferIndexes = %v; want %v", got, wantGraphIndexes)
	}
	if err := build(ctx); err != nil {
		t.Fatal(err)
	}
}

// A first index stopped before its indexes were built gets them at the next Open.
func TestOpenBuildsIndexesAStoppedFirstIndexLeftOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeferIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	replace(t, s, twoFiles())
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := graphIndexes(t, s); !reflect.DeepEqual(got, wantGraphIndexes) {
		t.Errorf("indexes after Open = %v; want %v", got, wantGraphIndexes)
	}
}

// An Open while a first index is being written (its indexes deferred, its
// batch holding the lock) opens: the indexes are that writer's to build.
func TestOpenDuringADeferredFirstIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.db")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.DeferIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	r, err := Open(path, WithBusyTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatalf("Open during a first index: %v", err)
	}
	r.Close()
}
