package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// smallModule writes a two-package Go module and a Python file.
func smallModule(t *testing.T) string {
	t.Helper()
	return writeTree(t, map[string]string{
		"go.mod":        "module example.com/small\n\ngo 1.26\n",
		"lib/lib.go":    "package lib\n\n// Greet says hello.\nfunc Greet(n string) string { return \"hi \" + n }\n",
		"main.go":       "package main\n\nimport \"example.com/small/lib\"\n\nfunc main() { println(lib.Greet(\"x\")) }\n",
		"tools/run.py":  "def run():\n    pass\n",
		".gitignore":    "build/\n",
		"build/skip.go": "package build\n",
	})
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestRunIndexesThenOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := smallModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}

	rep, err := Run(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 3 || !rep.GoTypes || rep.Extracted != 3 || rep.Languages["python"] != 1 {
		t.Fatalf("first run = %+v", rep)
	}
	if len(rep.Partial) != 1 || rep.Partial[0].Rel != "tools/run.py" || !strings.Contains(rep.Partial[0].Reason, "no extractor") {
		t.Fatalf("a file without an extractor must be reported, got %+v", rep.Partial)
	}
	callers, err := st.Edges(ctx, "example.com/small/lib.Greet", graph.EdgeCalls, store.In)
	if err != nil || len(callers) != 1 || callers[0].From != "example.com/small.main" || callers[0].Resolution != graph.ResolvedTypes {
		t.Fatalf("callers of Greet = %+v, %v", callers, err)
	}

	rep, err = Run(ctx, root, st, opts)
	if err != nil || rep.Extracted != 0 || rep.Unchanged != 3 {
		t.Fatalf("second run re-extracted: %+v, %v", rep, err)
	}
	fresh, err := CheckFreshness(ctx, root, st, Limits{})
	if err != nil || len(fresh.Dirty) != 0 {
		t.Fatalf("freshness after indexing = %+v, %v", fresh, err)
	}

	// Rename Greet: its caller's edge must follow, although main.go did not change.
	writeFile(t, root, "lib/lib.go", "package lib\n\nfunc Hello(n string) string { return n }\n")
	writeFile(t, root, "main.go", "package main\n\nimport \"example.com/small/lib\"\n\nfunc main() { println(lib.Hello(\"x\")) }\n")
	if err := os.Remove(filepath.Join(root, "tools", "run.py")); err != nil {
		t.Fatal(err)
	}
	fresh, _ = CheckFreshness(ctx, root, st, Limits{})
	if fresh.Status != "stale" || len(fresh.Dirty) != 3 {
		t.Fatalf("freshness after edits = %+v", fresh)
	}
	rep, err = Run(ctx, root, st, opts)
	if err != nil || rep.Removed != 1 {
		t.Fatalf("third run = %+v, %v", rep, err)
	}
	if _, err := st.Node(ctx, "example.com/small/lib.Greet"); err == nil {
		t.Fatal("the renamed function's old node survived")
	}
	callers, _ = st.Edges(ctx, "example.com/small/lib.Hello", graph.EdgeCalls, store.In)
	if len(callers) != 1 {
		t.Fatalf("callers of Hello = %+v", callers)
	}
	stats, _ := st.Stats(ctx)
	if stats.Files != 2 {
		t.Fatalf("files in store = %d, want 2", stats.Files)
	}
}

// Facts written by extractors of another version are all extracted again,
// though no file changed; then the next run is incremental again.
func TestRunReextractsWhenTheExtractorsChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := smallModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	if _, err := Run(ctx, root, st, opts); err != nil {
		t.Fatal(err)
	}
	if err := st.SetMeta(ctx, metaExtractorVersion, "0"); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, root, st, opts)
	if err != nil || rep.Extracted != 3 || !rep.ExtractorChanged {
		t.Fatalf("run after an extractor change = %+v, %v; want every file extracted", rep, err)
	}
	rep, err = Run(ctx, root, st, opts)
	if err != nil || rep.Extracted != 0 || rep.ExtractorChanged {
		t.Fatalf("the run after = %+v, %v; want nothing extracted", rep, err)
	}
}

func TestRunWithoutGoModUsesTheFileExtractor(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	st := openStore(t)
	called := 0
	ex := func(_ context.Context, rel, lang string, _ []byte) (graph.FileFacts, error) {
		called++
		return graph.FileFacts{Nodes: []graph.Node{{QName: rel + "::A", Kind: graph.KindFunction, Name: "A", File: rel, Line: 2, Language: lang}}}, nil
	}
	rep, err := Run(context.Background(), root, st, Options{Extract: ex})
	if err != nil || rep.GoTypes || called != 1 {
		t.Fatalf("run = %+v, %v (extractor called %d times)", rep, err, called)
	}
	if n, err := st.Node(context.Background(), "a.go::A"); err != nil || n.Line != 2 {
		t.Fatalf("node = %+v, %v", n, err)
	}
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
