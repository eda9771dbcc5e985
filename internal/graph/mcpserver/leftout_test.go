package mcpserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/index"
)

// TestHealthCheckListsWhatWasLeftOut: after analyze_codebase, health_check
// answers with every file the index left out, by reason.
func TestHealthCheckListsWhatWasLeftOut(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	if err := os.WriteFile(filepath.Join(root, "blob.c"), []byte("int x;\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, Config{Root: root, Profile: Core})
	if res := call(t, cs, "analyze_codebase", nil, nil); res.IsError {
		t.Fatalf("analyze_codebase = %s", resultText(res))
	}
	var health HealthOut
	call(t, cs, "health_check", nil, &health)
	lo := health.LeftOut
	if lo == nil || lo.ByReason[index.WhyBinary] != 1 || len(lo.Files) == 0 || lo.Files[0].Path != "blob.c" || lo.Files[0].Why != index.WhyBinary {
		t.Fatalf("health_check left_out = %+v", lo)
	}
	if lo.ByReason[index.WhyUnknownLanguage] == 0 || lo.Count != len(lo.Files) {
		t.Errorf("go.mod is of no language the graph reads, and is counted: %+v", lo)
	}
}
