package resolve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// Go the type checker cannot load (go 1.999 here) is stored under the type
// checker's names, and the cross-file pass resolves across files and packages
// as it does with file-scoped names.
func TestFallbackGoResolvesUnderTypeCheckedNames(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for rel, src := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.999\n",
		"util/util.go": `package util

type Getter interface{ Get() int }

type Store struct{}

func (s *Store) Get() int { return helper() }

func New() *Store { return &Store{} }
`,
		"util/other.go": "package util\n\nfunc helper() int { return 1 }\n",
		"main.go": `package main

import "example.com/m/util"

func main() {
	s := util.New()
	s.Get()
}

func init() { util.New() }

func init() { main() }
`,
	} {
		if err := write(root, rel, src); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(t.TempDir() + "/graph.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	rep, err := index.Run(ctx, root, st, index.Options{Extract: treesitter.Extractor{}.Extract, Go: golang.Options{Env: []string{"GOPROXY=off"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoTypes {
		t.Fatal("the module loaded: the test needs the fallback")
	}
	const m = "example.com/m"
	for _, want := range []struct {
		kind     graph.EdgeKind
		from, to string
		res      graph.Resolution
	}{
		{graph.EdgeCalls, m + ".main", m + "/util.New", graph.ResolvedImport},
		{graph.EdgeCalls, m + ".main", m + "/util.Store.Get", graph.ResolvedImport},
		{graph.EdgeCalls, m + "/util.Store.Get", m + "/util.helper", graph.ResolvedImport},
		{graph.EdgeCalls, m + ".init@main.go", m + "/util.New", graph.ResolvedImport},
		{graph.EdgeCalls, m + ".init@main.go#2", m + ".main", graph.ResolvedName},
		{graph.EdgeImplements, m + "/util.Store", m + "/util.Getter", graph.ResolvedName},
	} {
		edges, err := st.Edges(ctx, want.to, want.kind, store.In)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range edges {
			if e.From == want.from {
				found = true
				if e.Resolution != want.res {
					t.Errorf("%s %s → %s resolved by %s, want %s", want.kind, want.from, want.to, e.Resolution, want.res)
				}
			}
		}
		if !found {
			t.Errorf("%s %s → %s missing; edges in: %+v", want.kind, want.from, want.to, edges)
		}
	}
	nodes, err := st.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if strings.Contains(n.QName, "::") {
			t.Errorf("node %s keeps a file-scoped name", n.QName)
		}
	}
	edges, err := st.AllEdges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		if strings.Contains(e.From, "::") || strings.Contains(e.To, "::") {
			t.Errorf("edge %s %s → %s keeps a file-scoped name", e.Kind, e.From, e.To)
		}
	}
}
