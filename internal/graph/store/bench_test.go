package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// benchFacts is a repository of files × nodes per file × edges per file, with
// names, signatures and docs of realistic length for the full-text index.
func benchFacts(files, nodes, edges int) []graph.FileFacts {
	out := make([]graph.FileFacts, files)
	for f := range files {
		path := fmt.Sprintf("pkg%03d/file%04d.go", f%100, f)
		ff := graph.FileFacts{Path: path, Language: "go", Hash: fmt.Sprintf("%064x", f), Size: 4096}
		for n := range nodes {
			ff.Nodes = append(ff.Nodes, graph.Node{
				QName: fmt.Sprintf("example.com/m/pkg%03d.Func%04dN%02d", f%100, f, n), Kind: graph.KindFunction,
				Name: fmt.Sprintf("Func%04dN%02d", f, n), File: path, Line: 10 * (n + 1), EndLine: 10*(n+1) + 8,
				Signature: fmt.Sprintf("func Func%04dN%02d(ctx context.Context, cfg *Config) (Result, error)", f, n),
				Doc:       "FuncN parses the configuration and returns the result of loading it.",
				Language:  "go", Exported: true,
			})
		}
		for e := range edges {
			ff.Edges = append(ff.Edges, graph.Edge{
				From: ff.Nodes[e%nodes].QName, To: fmt.Sprintf("example.com/m/pkg%03d.Func%04dN%02d", (f+e)%100, (f+e)%files, e%nodes),
				Kind: graph.EdgeCalls, Confidence: 1, Resolution: graph.ResolvedTypes, File: path, Line: 10*(e%nodes+1) + 2,
			})
		}
		out[f] = ff
	}
	return out
}

// BenchmarkReplaceFiles writes 1,000 files × 20 nodes × 40 edges (20,000 nodes with
// their search rows, 40,000 edges) in one ReplaceFiles call: into an empty store
// (a first index), and over the same files already stored (every row deleted then
// inserted again: the worst incremental batch).
func BenchmarkReplaceFiles(b *testing.B) {
	facts := benchFacts(1000, 20, 40)
	ctx := context.Background()
	b.Run("empty", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			s, err := Open(filepath.Join(b.TempDir(), fmt.Sprintf("g%d.db", i)))
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := s.ReplaceFiles(ctx, facts, nil); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
	})
	b.Run("replace", func(b *testing.B) {
		s, err := Open(filepath.Join(b.TempDir(), "g.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		if err := s.ReplaceFiles(ctx, facts, nil); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := s.ReplaceFiles(ctx, facts, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-file", func(b *testing.B) {
		s, err := Open(filepath.Join(b.TempDir(), "g.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		if err := s.ReplaceFiles(ctx, facts, nil); err != nil {
			b.Fatal(err)
		}
		one := facts[500:501]
		for b.Loop() {
			if err := s.ReplaceFiles(ctx, one, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	// One file into a store this process did not write first: `graph index`
	// after an edit, the strings' ids read from the table.
	b.Run("one-file-reopened", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "g.db")
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.ReplaceFiles(ctx, facts, nil); err != nil {
			b.Fatal(err)
		}
		s.Close()
		if s, err = Open(path); err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		one := facts[500:501]
		for b.Loop() {
			if err := s.ReplaceFiles(ctx, one, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
