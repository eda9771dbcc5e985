package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/artifact"
)

// analyze_codebase on a clone without an index starts from the committed
// artifact and parses only what changed since.
func TestAnalyzeStartsFromTheCommittedArtifact(t *testing.T) {
	t.Parallel()
	indexed := indexedFixture(t)
	clone := copyFixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	db, _ := indexPath(indexed)(false)
	if _, err := artifact.Export(ctx, db, filepath.Join(clone, filepath.FromSlash(artifact.RelPath)), "test"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, "notes.py"), []byte("def note():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, Config{Root: clone, Profile: Core})
	var out AnalyzeOut
	res := call(t, cs, "analyze_codebase", nil, &out)
	if res.IsError || !strings.HasPrefix(out.Bootstrap, "started from .albert-code/graph.zst") || out.Report == nil || out.Extracted != 1 {
		t.Fatalf("analyze_codebase = %s", resultText(res))
	}
}
