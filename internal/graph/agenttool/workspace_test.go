package agenttool

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/embed"
)

// ForWorkspace carries the workspace rules: the index in the folder's
// .albert-code/graph/ (ignoring itself), cgo off for the type checker, and the
// embeddings leg in search, whose failure is reported beside BM25's answer.
func TestForWorkspace(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/ws\n\ngo 1.22\n")
	write(t, root, "calc/calc.go", calcSrc)
	tl := ForWorkspace(root, WorkspaceOptions{Embeddings: embed.Config{Err: errors.New("no key for provider albert")}})
	defer tl.Stop()
	if !slices.Contains(tl.g.cfg.Index.Go.Env, "CGO_ENABLED=0") {
		t.Errorf("the type checker's environment %v lacks CGO_ENABLED=0", tl.g.cfg.Index.Go.Env)
	}
	res, d := call(t, tl, map[string]any{"question": "search", "symbol": "sums two numbers"})
	if res.IsError || d.Index.Status != "indexed" || !strings.Contains(strings.Join(qnames(d.Items), " "), "calc.Add") {
		t.Fatalf("search: index %+v, output:\n%s", d.Index, res.Output)
	}
	if !strings.Contains(res.Output, "no key for provider albert") {
		t.Errorf("search does not say why the vector leg failed:\n%s", res.Output)
	}
	dir := filepath.Join(root, ".albert-code", "graph")
	if _, err := os.Stat(filepath.Join(dir, "graph.db")); err != nil {
		t.Errorf("the index is not in the workspace's .albert-code/graph: %v", err)
	}
	if ignore, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err != nil || string(ignore) != "*\n" {
		t.Errorf("the index folder does not ignore itself: %q, %v", ignore, err)
	}
}

// Without embeddings, search has no vector leg, and says how to add one.
func TestForWorkspaceWithoutEmbeddings(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/ws\n\ngo 1.22\n")
	write(t, root, "calc/calc.go", calcSrc)
	tl := ForWorkspace(root, WorkspaceOptions{})
	defer tl.Stop()
	if tl.g.cfg.Vectors != nil {
		t.Fatalf("a vector leg without embeddings configured: %T", tl.g.cfg.Vectors)
	}
	res, _ := call(t, tl, map[string]any{"question": "search", "symbol": "sums two numbers"})
	if res.IsError || !strings.Contains(res.Output, "set graph.embeddings_model") {
		t.Fatalf("search without embeddings:\n%s", res.Output)
	}
}
