package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// edgeRows reads the edges view back as "src -> dst @file:line", ordered.
func edgeRows(t *testing.T, s *Store) []string {
	t.Helper()
	got, err := s.column(context.Background(),
		`SELECT src || ' -> ' || dst || ' @' || file || ':' || line FROM edges ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Two stores on one file each write strings the other has not seen: the one
// whose cache held the whole table catches up with the other's rows instead
// of numbering a string twice (a UNIQUE failure) or reading a name for another.
func TestStringCacheFollowsAnotherWriter(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "graph.db")
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	replace(t, first, twoFiles()) // into an empty table: first's cache is whole
	if !first.names.whole {
		t.Fatal("a write into an empty strings table left the cache partial")
	}
	second, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	replace(t, second, []graph.FileFacts{{Path: "b.go", Language: "go", Hash: "hb",
		Nodes: []graph.Node{fn("p.E", "E", "b.go", 1)},
		Edges: []graph.Edge{call("p.E", "p.A", "b.go", 2), call("p.E", "os.Exit", "b.go", 3)}}})
	replace(t, first, []graph.FileFacts{{Path: "c.go", Language: "go", Hash: "hc",
		Nodes: []graph.Node{fn("p.F", "F", "c.go", 1)},
		Edges: []graph.Edge{call("p.F", "p.E", "c.go", 2), call("p.F", "os.Exit", "c.go", 3), call("p.F", "log.Fatal", "c.go", 4)}}})

	want := []string{
		"p.A -> fmt.Println @a.go:5", "p.A -> p.B @a.go:4", "p.C -> p.A @other.go:3",
		"p.E -> os.Exit @b.go:3", "p.E -> p.A @b.go:2",
		"p.F -> log.Fatal @c.go:4", "p.F -> os.Exit @c.go:3", "p.F -> p.E @c.go:2",
	}
	for _, s := range []*Store{first, second} {
		if got := edgeRows(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("edges = %v\nwant %v", got, want)
		}
	}
	if n := count(t, first, `SELECT count(*) FROM strings WHERE text = 'os.Exit'`); n != 1 {
		t.Errorf("os.Exit is stored %d times; want once", n)
	}
}

// A transaction that rolls back after numbering new strings leaves the table
// as it was: the next write must store them again, not take their numbers
// for stored strings.
func TestStringCacheAfterARollback(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := newInterner(ctx, tx, &s.names)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.all(ctx, "p.Gone", "p.Late"); err != nil {
		t.Fatal(err)
	}
	if err := in.flush(ctx); err != nil {
		t.Fatal(err)
	}
	in.close()
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	replace(t, s, []graph.FileFacts{{Path: "late.go", Language: "go", Hash: "h2",
		Edges: []graph.Edge{call("p.Late", "p.New", "late.go", 2)}}})
	got := edgeRows(t, s)
	if last := got[len(got)-1]; last != "p.Late -> p.New @late.go:2" {
		t.Errorf("edges = %v; want p.Late -> p.New @late.go:2 last", got)
	}
}

// A path given twice in one batch is written as two batches would write it:
// the second facts replace the first.
func TestReplaceFilesSamePathTwice(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, []graph.FileFacts{
		{Path: "a.go", Language: "go", Hash: "h1", Nodes: []graph.Node{fn("p.Old", "Old", "a.go", 1)},
			Edges: []graph.Edge{call("p.Old", "p.X", "a.go", 2)}},
		{Path: "b.go", Language: "go", Hash: "h2", Nodes: []graph.Node{fn("p.B", "B", "b.go", 1)}},
		{Path: "a.go", Language: "go", Hash: "h3", Nodes: []graph.Node{fn("p.New", "New", "a.go", 1)},
			Edges: []graph.Edge{call("p.New", "p.Y", "a.go", 2)}},
	})
	if got, want := qnames(t, s), []string{"p.B", "p.New"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v; want %v", got, want)
	}
	if got, want := edgeRows(t, s), []string{"p.New -> p.Y @a.go:2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("edges = %v; want %v", got, want)
	}
	hits, err := s.Search(context.Background(), "old", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 {
		t.Errorf("search finds the first facts' node: %v", hits)
	}
}

// A batch that only removes files still marks them pending for the cross-file
// pass (the marks wait in a multi-row INSERT like the rows).
func TestReplaceFilesMarksRemovedPathsPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	replace(t, s, twoFiles())
	pending, err := s.PendingFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyResolution(ctx, nil, pending, "cfg"); err != nil {
		t.Fatal(err)
	}
	replace(t, s, nil, "other.go")
	pending, err = s.PendingFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Path != "other.go" {
		t.Errorf("pending after removing other.go = %+v; want other.go", pending)
	}
}
