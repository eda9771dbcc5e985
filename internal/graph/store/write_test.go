package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// twoFiles is a small graph: a.go defines A and B (A calls B and the external
// fmt.Println), other.go defines C which calls A; one unresolved site in each file.
func twoFiles() []graph.FileFacts {
	return []graph.FileFacts{
		{
			Path: "a.go", Language: "go", Hash: "ha", Size: 10,
			Nodes: []graph.Node{fn("p.A", "A", "a.go", 3), fn("p.B", "B", "a.go", 9)},
			Edges: []graph.Edge{call("p.A", "p.B", "a.go", 4), call("p.A", "fmt.Println", "", 5)},
			Unresolved: []graph.Unresolved{{From: "p.A", Name: "x.Do", Kind: graph.EdgeCalls, File: "a.go", Line: 6,
				Reason: "no type"}},
		},
		{
			Path: "other.go", Language: "go", Hash: "hb", Size: 20,
			Nodes:      []graph.Node{fn("p.C", "C", "other.go", 2)},
			Edges:      []graph.Edge{call("p.C", "p.A", "other.go", 3)},
			Unresolved: []graph.Unresolved{{From: "p.C", Name: "y.Do", Kind: graph.EdgeCalls, Line: 4}},
		},
	}
}

func qnames(t *testing.T, s *Store) []string {
	t.Helper()
	got, err := s.column(context.Background(), `SELECT qname FROM nodes ORDER BY qname`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func count(t *testing.T, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestReplaceFilesReplacesOnlyThatFile(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())

	// a.go changes: B is gone, D is new, A now calls D.
	replace(t, s, []graph.FileFacts{{
		Path: "a.go", Language: "go", Hash: "ha2",
		Nodes: []graph.Node{fn("p.A", "A", "a.go", 3), fn("p.D", "D", "a.go", 12)},
		Edges: []graph.Edge{call("p.A", "p.D", "a.go", 4)},
	}})

	if got, want := qnames(t, s), []string{"p.A", "p.C", "p.D"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v; want %v", got, want)
	}
	out, err := s.Edges(ctx, "p.A", graph.EdgeCalls, Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].To != "p.D" {
		t.Errorf("A calls %v; want only p.D", out)
	}
	// other.go's edge into A and its unresolved site are untouched.
	in, err := s.Edges(ctx, "p.A", "", In)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || in[0].From != "p.C" || in[0].File != "other.go" || in[0].Line != 3 || in[0].Resolution != graph.ResolvedTypes {
		t.Errorf("callers of A = %+v; want p.C from other.go:3", in)
	}
	if u, err := s.Unresolved(ctx, "p.A"); err != nil || len(u) != 0 {
		t.Errorf("unresolved in A = %v, %v; want none", u, err)
	}
	if u, err := s.Unresolved(ctx, "p.C"); err != nil || len(u) != 1 || u[0].File != "other.go" {
		t.Errorf("unresolved in C = %+v, %v; want y.Do in other.go", u, err)
	}
	// The full-text index follows: B is gone from it, D is in it.
	if hits, _ := s.Search(ctx, "B", 10); len(hits) != 0 {
		t.Errorf("search B = %v; want nothing", hits)
	}
	if hits, _ := s.Search(ctx, "D", 10); len(hits) != 1 || hits[0].QName != "p.D" {
		t.Errorf("search D = %v; want p.D", hits)
	}
	if n := count(t, s, `SELECT count(*) FROM search`); n != 3 {
		t.Errorf("search rows = %d; want 3 (one per node)", n)
	}
}

func TestReplaceFilesRemoves(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	replace(t, s, nil, "a.go")

	if got, want := qnames(t, s), []string{"p.C"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v; want %v", got, want)
	}
	if n := count(t, s, `SELECT count(*) FROM edges WHERE file = 'a.go'`); n != 0 {
		t.Errorf("%d edges of a.go left", n)
	}
	if n := count(t, s, `SELECT count(*) FROM unresolved WHERE file = 'a.go'`); n != 0 {
		t.Errorf("%d unresolved of a.go left", n)
	}
	if n := count(t, s, `SELECT count(*) FROM search`); n != 1 {
		t.Errorf("search rows = %d; want 1", n)
	}
	m, err := s.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"other.go": "hb"}; !reflect.DeepEqual(m, want) {
		t.Errorf("manifest = %v; want %v", m, want)
	}
	// C's call to the removed A stays: the edge belongs to other.go, and A may come back.
	if in, _ := s.Edges(ctx, "p.A", graph.EdgeCalls, In); len(in) != 1 {
		t.Errorf("callers of removed A = %v; want the edge from other.go kept", in)
	}
}

func TestNodeMovesBetweenFiles(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())

	// B moves to moved.go; a.go is not re-indexed in the same batch.
	b := fn("p.B", "B", "moved.go", 1)
	b.Doc = "B moved here."
	replace(t, s, []graph.FileFacts{{Path: "moved.go", Hash: "hc", Nodes: []graph.Node{b}}})
	n, err := s.Node(ctx, "p.B")
	if err != nil || n.File != "moved.go" || n.Doc != "B moved here." {
		t.Fatalf("Node(p.B) = %+v, %v; want it in moved.go", n, err)
	}
	hits, err := s.Search(ctx, "B", 10)
	if err != nil || len(hits) != 1 || hits[0].File != "moved.go" {
		t.Errorf("search B = %+v, %v; want one hit in moved.go", hits, err)
	}
	// Re-indexing a.go without B must not delete it from moved.go.
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "ha2", Nodes: []graph.Node{fn("p.A", "A", "a.go", 3)}}})
	if n, err := s.Node(ctx, "p.B"); err != nil || n.File != "moved.go" {
		t.Errorf("after a.go re-indexed: Node(p.B) = %+v, %v; want it still in moved.go", n, err)
	}
	if n := count(t, s, `SELECT count(*) FROM search`); n != 3 {
		t.Errorf("search rows = %d; want 3", n)
	}
}

func TestReplaceFilesManifest(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	if m, err := s.Manifest(ctx); err != nil || len(m) != 0 {
		t.Fatalf("empty manifest = %v, %v", m, err)
	}
	facts := twoFiles()
	facts = append(facts, graph.FileFacts{Path: "broken.py", Language: "python", Hash: "hq", ParseError: "parser panicked",
		Quarantined: true})
	replace(t, s, facts)
	m, err := s.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a.go": "ha", "other.go": "hb", "broken.py": "hq"}; !reflect.DeepEqual(m, want) {
		t.Errorf("manifest = %v; want %v", m, want)
	}
}

func TestReplaceFilesRefusesFactsOutsideTheirFile(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	tests := []struct {
		name  string
		facts graph.FileFacts
		want  string
	}{
		{"node elsewhere", graph.FileFacts{Path: "a.go", Nodes: []graph.Node{fn("p.A", "A", "other.go", 1)}}, "another file"},
		{"edge elsewhere", graph.FileFacts{Path: "a.go", Edges: []graph.Edge{call("p.A", "p.B", "other.go", 1)}}, "another file"},
		{"unresolved elsewhere", graph.FileFacts{Path: "a.go",
			Unresolved: []graph.Unresolved{{From: "p.A", Name: "x", File: "other.go"}}}, "another file"},
		{"node without qname", graph.FileFacts{Path: "a.go", Nodes: []graph.Node{{Name: "A", Kind: graph.KindFunction}}},
			"without a qualified name"},
		{"no path", graph.FileFacts{}, "without a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.ReplaceFiles(context.Background(), []graph.FileFacts{tt.facts}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v; want %q", err, tt.want)
			}
		})
	}
	if n := count(t, s, `SELECT count(*) FROM files`); n != 0 {
		t.Errorf("%d files written by refused batches", n)
	}
}

func TestReplaceFilesIsOneTransaction(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, twoFiles())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.ReplaceFiles(ctx, []graph.FileFacts{{Path: "moved.go", Hash: "hc"}}, []string{"a.go"})
	if err == nil {
		t.Fatal("ReplaceFiles with a cancelled context: no error")
	}
	if got, want := qnames(t, s), []string{"p.A", "p.B", "p.C"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a failed batch, nodes = %v; want %v untouched", got, want)
	}
}

func TestMeta(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	if _, ok, err := s.Meta(ctx, MetaIndexedCommit); ok || err != nil {
		t.Errorf("unset key: ok %v, err %v", ok, err)
	}
	for _, v := range []string{"abc123", "def456"} {
		if err := s.SetMeta(ctx, MetaIndexedCommit, v); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := s.Meta(ctx, MetaIndexedCommit); got != v || !ok || err != nil {
			t.Errorf("Meta = %q, %v, %v; want %q", got, ok, err, v)
		}
	}
	if err := s.SetMeta(ctx, MetaSchemaVersion, "9"); err == nil {
		t.Error("SetMeta(schema_version) accepted")
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	facts := twoFiles()
	facts[1].Nodes = append(facts[1].Nodes, graph.Node{QName: "p.T", Kind: graph.KindStruct, Name: "T", Line: 8})
	facts[1].Edges = append(facts[1].Edges, graph.Edge{From: "p.T", To: "p.I", Kind: graph.EdgeImplements,
		Confidence: 0.5, Resolution: graph.ResolvedName})
	facts = append(facts,
		graph.FileFacts{Path: "q.py", Hash: "q", Quarantined: true, ParseError: "timeout"},
		graph.FileFacts{Path: "e.py", Hash: "e", ParseError: "syntax error line 3"})
	replace(t, s, facts)
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{
		Files: 4, ParseErrors: 1, Quarantined: 1, NodeCount: 4, EdgeCount: 4, Unresolved: 2,
		Nodes:       map[graph.NodeKind]int{graph.KindFunction: 3, graph.KindStruct: 1},
		Edges:       map[graph.EdgeKind]int{graph.EdgeCalls: 3, graph.EdgeImplements: 1},
		Resolutions: map[graph.Resolution]int{graph.ResolvedTypes: 3, graph.ResolvedName: 1},
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("Stats = %+v\nwant    %+v", st, want)
	}
}

func TestNodeNotFound(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	if _, err := s.Node(context.Background(), "p.Nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v; want ErrNotFound", err)
	}
}

func TestNodesByName(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	replace(t, s, []graph.FileFacts{{Path: "a.go", Hash: "h", Nodes: []graph.Node{
		fn("p.Config", "Config", "a.go", 1), fn("q.Config", "Config", "a.go", 2), fn("p.config", "config", "a.go", 3),
		fn("p.Other", "Other", "a.go", 4),
	}}})
	tests := []struct {
		name string
		want []string
	}{
		{"Config", []string{"p.Config", "q.Config"}}, // exact wins over case-insensitive
		{"config", []string{"p.config"}},
		{"CONFIG", []string{"p.Config", "p.config", "q.Config"}},
		{"other", []string{"p.Other"}},
		{"missing", nil},
	}
	for _, tt := range tests {
		nodes, err := s.NodesByName(context.Background(), tt.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range nodes {
			got = append(got, n.QName)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("NodesByName(%q) = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestNodeRoundTrip(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	want := graph.Node{QName: "example.com/m/p.T.Run", Kind: graph.KindMethod, Name: "Run", File: "p/t.go", Line: 10,
		Col: 15, EndLine: 20, Signature: "func (t *T) Run(ctx context.Context) error", Doc: "Run runs.", Language: "go",
		Exported: true}
	replace(t, s, []graph.FileFacts{{Path: "p/t.go", Language: "go", Hash: "h", Nodes: []graph.Node{want}}})
	got, err := s.Node(context.Background(), want.QName)
	if err != nil || got != want {
		t.Errorf("Node = %+v, %v\nwant   %+v", got, err, want)
	}
}

// TestConcurrentReadersAndWriter runs reads (store methods and guarded SQL) while
// batches are written: WAL readers see whole batches, never half of one.
func TestConcurrentReadersAndWriter(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	done := make(chan struct{})
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				// Each batch holds exactly 3 nodes: a reader sees 3, whichever batch.
				_, rows, _, err := s.Query(ctx, "SELECT count(*) FROM nodes", 1, 0)
				if err == nil && rows[0][0] != int64(3) {
					err = fmt.Errorf("saw %v nodes mid-batch", rows[0][0])
				}
				if err == nil {
					_, err = s.Search(ctx, "A", 5)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 20 {
		facts := twoFiles()
		facts[0].Hash = fmt.Sprint(i)
		replace(t, s, facts)
	}
	close(done)
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
