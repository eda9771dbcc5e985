package query

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// indexTree indexes files with the tree-sitter extractor into a fresh store.
func indexTree(t *testing.T, files map[string]string) *store.Store {
	t.Helper()
	root := t.TempDir()
	for rel, src := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := index.Run(context.Background(), root, st, index.Options{Extract: treesitter.Extract}); err != nil {
		t.Fatal(err)
	}
	return st
}

// A Python class deriving from a Protocol implements it, across files; a class
// deriving from a plain class does not.
func TestImplementationsThroughDeclaredBases(t *testing.T) {
	t.Parallel()
	st := indexTree(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/proto.py":    "from typing import Protocol\n\nclass Reader(Protocol):\n    def read(self): ...\n",
		"pkg/impl.py": "from pkg.proto import Reader\n\nclass Base:\n    pass\n\n" +
			"class File(Base, Reader):\n    def read(self):\n        return b''\n",
	})
	ctx := context.Background()
	a, err := Ask(ctx, st, "implementations", "pkg/proto.py::Reader")
	if err != nil {
		t.Fatal(err)
	}
	if got := qnames(a.Items); got != "pkg/impl.py::File" {
		t.Errorf("implementations of Reader = %q, want File", got)
	}
	a, err = Ask(ctx, st, "implementations", "pkg/impl.py::File")
	if err != nil {
		t.Fatal(err)
	}
	if got := qnames(a.Items); got != "pkg/proto.py::Reader" {
		t.Errorf("what File implements = %q, want Reader only (Base is a class)", got)
	}
	if a.Certainty != LowerBound {
		t.Errorf("certainty %s: declared bases are not checked by a type checker", a.Certainty)
	}
}
