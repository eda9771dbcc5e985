package app

import (
	"errors"
	"os"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
)

// TestServeClaudeAsRoot: as root, serve starts the claude adapter only when the
// agent is sandboxed (serve's OS sandbox, or ALBERT_CODE_SANDBOXED=1), and then
// tells Claude Code so; otherwise it refuses to start and says what to do. These
// machines run the tests as root; as a user every case starts.
func TestServeClaudeAsRoot(t *testing.T) {
	tests := []struct {
		name      string
		sandbox   string
		sandboxed string
		want      bool // Sandboxed
	}{
		{"unconfined", "", "", false},
		{"serve's OS sandbox", "workspace-write", "", true},
		{"a container that is the sandbox", "", "1", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("ALBERT_CODE_SANDBOXED", tc.sandboxed)
			b, _, err := buildBackend(serveconfig.Config{Adapter: "claude", AdapterSandbox: tc.sandbox})
			if os.Geteuid() == 0 && !tc.want {
				if !errors.Is(err, adapter.ErrClaudeAsRoot) {
					t.Fatalf("as root, unconfined: err %v, want the refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cl := b.(*adapter.Claude); cl.Sandboxed != tc.want {
				t.Errorf("Sandboxed = %v, want %v", cl.Sandboxed, tc.want)
			}
		})
	}
}
