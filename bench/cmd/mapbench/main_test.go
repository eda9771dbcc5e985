package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// TestOneRunOnATinyModule runs the bench's measurement on a module of three
// functions: every figure is there and the map is the one drawn.
func TestOneRunOnATinyModule(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/tiny\n\ngo 1.26\n",
		"a.go":   "package tiny\n\nfunc A() int { return B() + C() }\n\nfunc B() int { return C() }\n\nfunc C() int { return 1 }\n",
	}
	for rel, src := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path, err := agenttool.DefaultIndexPath(root, true)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = index.Run(context.Background(), root, st, index.Options{Go: golang.DefaultOptions()})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	r, err := once(root)
	if err != nil {
		t.Fatal(err)
	}
	if r.Floor <= 0 || r.ColdPaint <= 0 || r.WarmPaint <= 0 || r.WarmData <= 0 || r.WarmDraw <= 0 {
		t.Errorf("a figure is missing: %+v", r)
	}
	if r.Mode != "map" || r.Drawn != 1 || r.Symbols != 3 {
		t.Errorf("drawn %s with %d nodes of %d symbols, want the map of one community of 3", r.Mode, r.Drawn, r.Symbols)
	}
}
