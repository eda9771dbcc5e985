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
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
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

// comparable: what both extract. Packages and embedded fields (signature
// `field T T`, which an explicit `T T` shares) are the type checker's alone.
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

// Indexed both ways (the module loads; the same module with a go line this Go
// refuses), the store holds the same names.
func TestIndexedBothWaysTheNamesMatch(t *testing.T) {
	t.Parallel()
	names := func(goLine string) map[string]bool {
		root := t.TempDir()
		src := filepath.Join("testdata", "honest")
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if rel == "go.mod" {
				b = []byte(strings.Replace(string(b), "go 1.26", goLine, 1))
			}
			dst := filepath.Join(root, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ctx := context.Background()
		rep, err := index.Run(ctx, root, st, index.Options{Extract: treesitter.Extract, Go: golang.Options{Tests: true, Env: []string{"GOPROXY=off"}}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.GoTypes != (goLine == "go 1.26") {
			t.Fatalf("%s: go_types %v (%s)", goLine, rep.GoTypes, rep.GoLoadError)
		}
		nodes, err := st.AllNodes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, n := range nodes {
			if comparable(n) {
				out[n.QName] = true
			}
		}
		return out
	}
	typed, fallback := names("go 1.26"), names("go 1.999")
	if only := missing(typed, fallback); len(only) > 0 {
		t.Errorf("type-checked names the fallback index lacks: %s", strings.Join(only, " "))
	}
	if only := missing(fallback, typed); len(only) > 0 {
		t.Errorf("fallback index names the type checker does not give: %s", strings.Join(only, " "))
	}
	if len(typed) < 20 {
		t.Errorf("only %d names compared", len(typed))
	}
}
