package serve

import (
	"errors"
	"os"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
)

// TestServeClaudeAsRoot: as root, serve starts the claude adapter only when the
// agent is sandboxed (serve's OS sandbox, or the ALBERT_CODE_SANDBOXED setting),
// and then tells Claude Code so; otherwise it refuses to start and says what to do.
// The setting comes through the configuration, variable or flag: the process
// environment alone is not read. These machines run the tests as root; as a user
// every case starts.
func TestServeClaudeAsRoot(t *testing.T) {
	// A variable in serve's own environment that the Source does not carry must
	// not count: only the configuration does.
	t.Setenv("ALBERT_CODE_SANDBOXED", "1")
	tests := []struct {
		name  string
		env   map[string]string
		flags map[string]string
		want  bool // Sandboxed
	}{
		{"unconfined", nil, nil, false},
		{"serve's OS sandbox", map[string]string{"ALBERT_CODE_ADAPTER_SANDBOX": "workspace-write"}, nil, true},
		{"a container that is the sandbox", map[string]string{"ALBERT_CODE_SANDBOXED": "1"}, nil, true},
		{"the flag", nil, map[string]string{"sandboxed": "1"}, true},
		{"the flag turns it off", map[string]string{"ALBERT_CODE_SANDBOXED": "1"}, map[string]string{"sandboxed": "0"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{"ALBERT_CODE_ADAPTER": "claude"}
			for k, v := range tc.env {
				vars[k] = v
			}
			src := serveconfig.Source{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Flags: tc.flags}
			c, _, problems := serveconfig.Parse(src)
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			b, _, err := buildBackend(c, "albert-code/test")
			if os.Geteuid() == 0 && !tc.want {
				if !errors.Is(err, claude.ErrAsRoot) {
					t.Fatalf("as root, unconfined: err %v, want the refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cl := b.(*claude.Adapter); cl.Sandboxed != tc.want {
				t.Errorf("Sandboxed = %v, want %v", cl.Sandboxed, tc.want)
			}
		})
	}
}

// --sandboxed alone turns the setting on, as --api does its mode.
func TestServeSandboxedFlagAlone(t *testing.T) {
	t.Parallel()
	f, _, _ := cmdtest.Factory(t)
	cmd := NewCmdServe(f, nil)
	if err := cmd.ParseFlags([]string{"--sandboxed"}); err != nil {
		t.Fatal(err)
	}
	if v := cmd.Flags().Lookup("sandboxed").Value.String(); v != "1" {
		t.Errorf("--sandboxed alone is %q, want 1", v)
	}
}
