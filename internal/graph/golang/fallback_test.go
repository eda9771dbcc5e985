package golang_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// The definitions of a module have the same qualified names whether the type
// checker or the tree-sitter fallback extracted them.
func TestFallbackNamesAreTheTypeCheckersNames(t *testing.T) {
	t.Parallel()
	for _, mod := range []string{"fixture", "honest"} {
		root := filepath.Join("testdata", mod)
		res, err := golang.Extract(context.Background(), root, golang.Options{Tests: true, Env: []string{"GOPROXY=off"}})
		if err != nil {
			t.Fatal(err)
		}
		typed := map[string]bool{}
		for _, f := range res.Files {
			for _, n := range f.Nodes {
				if comparable(n) {
					typed[n.QName] = true
				}
			}
		}
		fallback := map[string]bool{}
		extract := golang.FallbackNames(root, treesitter.Extract)
		for _, f := range res.Files {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			ff, err := extract(context.Background(), f.Path, "go", src)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range ff.Nodes {
				if comparable(n) {
					fallback[n.QName] = true
				}
			}
			for _, e := range ff.Edges {
				if strings.Contains(e.From, "::") || strings.Contains(e.To, "::") {
					t.Errorf("%s: edge %s → %s keeps a file-scoped name", mod, e.From, e.To)
				}
			}
		}
		if only := missing(typed, fallback); len(only) > 0 {
			t.Errorf("%s: type-checked names the fallback lacks: %s", mod, strings.Join(only, " "))
		}
		if only := missing(fallback, typed); len(only) > 0 {
			t.Errorf("%s: fallback names the type checker does not give: %s", mod, strings.Join(only, " "))
		}
		if len(typed) < 20 {
			t.Errorf("%s: only %d names compared", mod, len(typed))
		}
	}
}

// comparable: what both extract (embedded fields and packages are the type
// checker's alone).
func comparable(n graph.Node) bool {
	switch n.Kind {
	case graph.KindFile, graph.KindPackage:
		return false
	case graph.KindField:
		return !strings.HasPrefix(n.Signature, "field "+n.Name+" ") || !strings.HasSuffix(n.Signature, " "+n.Name)
	}
	return true
}

func missing(want, have map[string]bool) []string {
	var out []string
	for q := range want {
		if !have[q] {
			out = append(out, q)
		}
	}
	sort.Strings(out)
	return out
}
