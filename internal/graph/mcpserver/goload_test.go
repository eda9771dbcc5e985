package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A module this Go cannot load: health_check says why, and an answer about
// its Go is a lower bound that cites it.
func TestHealthCheckSaysWhyGoDidNotLoad(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/fixture\n\ngo 1.999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, Config{Root: root, Profile: Full})
	if res := call(t, cs, "analyze_codebase", nil, nil); res.IsError {
		t.Fatalf("analyze_codebase = %s", resultText(res))
	}
	var health HealthOut
	call(t, cs, "health_check", nil, &health)
	if !strings.Contains(health.GoLoadError, "go.mod requires go >= 1.999") {
		t.Fatalf("health_check go_load_error = %q", health.GoLoadError)
	}
	res := call(t, cs, "find_callees", map[string]any{"symbol": "example.com/fixture/shapes.Describe"}, nil)
	if text := resultText(res); res.IsError || !strings.Contains(text, `"certainty":"lower-bound"`) || !strings.Contains(text, "1.999") {
		t.Fatalf("find_callees = %s", text)
	}
}
