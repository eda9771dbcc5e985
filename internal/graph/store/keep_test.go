package store

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// logNodeWrites makes the store count the node rows written from now on.
func logNodeWrites(t *testing.T, s *Store) {
	t.Helper()
	for _, q := range []string{
		`CREATE TABLE node_writes(id INTEGER)`,
		`CREATE TRIGGER node_written AFTER INSERT ON node_rows BEGIN INSERT INTO node_writes VALUES(new.id); END`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func searchFiles(t *testing.T, s *Store, query string) []string {
	t.Helper()
	hits, err := s.Search(context.Background(), query, 10)
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.QName+"@"+h.File)
	}
	return out
}

func TestReplaceFilesKeepsIdenticalNodesAndReplacesEdges(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	first := twoFiles()
	first[0].Nodes[0].Doc = "A answers everything."
	replace(t, s, first)
	logNodeWrites(t, s)

	// The typed pass's shape: the same definitions, other edges.
	again := twoFiles()
	again[0].Nodes[0].Doc = "A answers everything."
	again[0].Edges = []graph.Edge{{From: "p.A", To: "p.B", Kind: graph.EdgeCalls, File: "a.go", Line: 4,
		Confidence: 1, Resolution: graph.ResolvedTypes}}
	again[0].Unresolved = nil
	replace(t, s, again[:1])

	if n := count(t, s, `SELECT count(*) FROM node_writes`); n != 0 {
		t.Errorf("node rows written for unchanged definitions = %d; want 0 (kept)", n)
	}
	if n := count(t, s, `SELECT count(*) FROM edges WHERE file = 'a.go'`); n != 1 {
		t.Errorf("a.go's edges = %d; want the 1 new one", n)
	}
	if n := count(t, s, `SELECT count(*) FROM unresolved WHERE file = 'a.go'`); n != 0 {
		t.Errorf("a.go's unresolved = %d; want 0", n)
	}
	if n := count(t, s, `SELECT typed FROM files WHERE path = 'a.go'`); n != 1 {
		t.Errorf("a.go typed = %d; want 1", n)
	}
	if got := searchFiles(t, s, "everything"); len(got) != 1 || got[0] != "p.A@a.go" {
		t.Errorf("search everything = %v; want [p.A@a.go]", got)
	}
	if n := count(t, s, `SELECT count(*) FROM search`); n != 3 {
		t.Errorf("search rows = %d; want 3", n)
	}
	if n, err := s.Node(ctx, "p.B"); err != nil || n.Line != 9 {
		t.Errorf("Node(p.B) = %+v, %v; want it at line 9", n, err)
	}
}

// An edit to one file must reach its nodes and their search rows, whatever
// column changed.
func TestReplaceFilesRewritesAChangedDefinition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(n *graph.Node)
		check  string // a word search must find in a.go
		absent string // a word search must no longer find
		want   graph.Node
	}{
		{"doc changed", func(n *graph.Node) { n.Doc = "B computes the checksum." },
			"checksum", "original", graph.Node{QName: "p.B", Name: "B", Line: 9, Doc: "B computes the checksum."}},
		{"line moved", func(n *graph.Node) { n.Line = 14 },
			"original", "", graph.Node{QName: "p.B", Name: "B", Line: 14, Doc: "B is the original."}},
		{"renamed", func(n *graph.Node) { n.QName, n.Name = "p.Bravo", "Bravo" },
			"bravo", "", graph.Node{QName: "p.Bravo", Name: "Bravo", Line: 9, Doc: "B is the original."}},
		{"signature changed", func(n *graph.Node) { n.Signature = "func B(total int)" },
			"total", "", graph.Node{QName: "p.B", Name: "B", Line: 9, Doc: "B is the original.", Signature: "func B(total int)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := openTest(t)
			ctx := context.Background()
			facts := twoFiles()
			facts[0].Nodes[1].Doc = "B is the original."
			replace(t, s, facts)

			edited := twoFiles()[:1]
			edited[0].Nodes[1].Doc = "B is the original."
			tc.edit(&edited[0].Nodes[1])
			replace(t, s, edited)

			n, err := s.Node(ctx, tc.want.QName)
			if err != nil || n.Name != tc.want.Name || n.Line != tc.want.Line || n.Doc != tc.want.Doc ||
				n.Signature != tc.want.Signature || n.File != "a.go" {
				t.Fatalf("Node(%s) = %+v, %v; want %+v in a.go", tc.want.QName, n, err, tc.want)
			}
			if tc.want.QName != "p.B" {
				if _, err := s.Node(ctx, "p.B"); err == nil {
					t.Errorf("p.B still stored after its rename")
				}
				if n := count(t, s, `SELECT count(*) FROM search WHERE rowid = (SELECT id FROM strings WHERE text = 'p.B')`); n != 0 {
					t.Errorf("p.B's search row still there after its rename")
				}
			}
			if got := searchFiles(t, s, tc.check); len(got) != 1 || got[0] != tc.want.QName+"@a.go" {
				t.Errorf("search %q = %v; want [%s@a.go]", tc.check, got, tc.want.QName)
			}
			if tc.absent != "" {
				if got := searchFiles(t, s, tc.absent); len(got) != 0 {
					t.Errorf("search %q = %v; want nothing (stale doc)", tc.absent, got)
				}
			}
			if n := count(t, s, `SELECT count(*) FROM search`); n != 3 {
				t.Errorf("search rows = %d; want 3", n)
			}
		})
	}
}

// A file whose definitions did not change still loses a node to a file
// written after it in the same batch, and wins it back from one written
// before it (the file written last owns the node, as without keeping).
func TestReplaceFilesKeptFileAndANodeMovingInTheSameBatch(t *testing.T) {
	t.Parallel()
	moved := graph.FileFacts{Path: "moved.go", Hash: "hm", Nodes: []graph.Node{fn("p.A", "A", "moved.go", 1)}}
	for _, tc := range []struct {
		name  string
		batch []graph.FileFacts
		want  string
	}{
		{"unchanged file last", []graph.FileFacts{moved, twoFiles()[0]}, "a.go"},
		{"unchanged file first", []graph.FileFacts{twoFiles()[0], moved}, "moved.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := openTest(t)
			ctx := context.Background()
			replace(t, s, twoFiles())
			replace(t, s, tc.batch)
			if n, err := s.Node(ctx, "p.A"); err != nil || n.File != tc.want {
				t.Errorf("Node(p.A) = %+v, %v; want it in %s", n, err, tc.want)
			}
			// The search row's path words are the owner's.
			for file, want := range map[string]int{"a.go": 0, "moved.go": 0, tc.want: 1} {
				stem := strings.TrimSuffix(file, ".go")
				if n := count(t, s, `SELECT count(*) FROM search WHERE search MATCH ? AND rowid = `+
					`(SELECT rowid FROM nodes WHERE qname = 'p.A')`, "path : "+stem); n != want {
					t.Errorf("p.A's search row matches path %s %d times; want %d", stem, n, want)
				}
			}
			if n := count(t, s, `SELECT count(*) FROM search`); n != 3 {
				t.Errorf("search rows = %d; want 3", n)
			}
		})
	}
}
