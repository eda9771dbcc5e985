package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// TestHooksRunInTheSandbox: a hook (which a project file may define) sees no
// secrets in its environment and writes only the workspace.
func TestHooksRunInTheSandbox(t *testing.T) {
	t.Setenv("ALBERT_API_KEY", "sk-hook-secret")
	ws, outside := t.TempDir(), t.TempDir()
	body := "cat >/dev/null; env > " + filepath.Join(ws, "env.txt") + "; echo x > " + filepath.Join(outside, "planted") + "; true"
	r := runner(t, ws, config.Hook{Event: config.HookBeforeTool, Command: script(t, t.TempDir(), "hook.sh", body)})
	r.Sandbox = sandbox.New(sandbox.Config{Mode: sandbox.WorkspaceWrite, WorkDir: ws})
	defer r.Sandbox.Close()
	if !r.Sandbox.Status().Active {
		t.Fatalf("no sandbox on this machine: %s", r.Sandbox.Status().Reason)
	}
	v := r.BeforeTool(context.Background(), bashCall)
	if len(v.Warnings) > 0 || v.Deny {
		t.Fatalf("the hook failed: %+v", v)
	}
	env, err := os.ReadFile(filepath.Join(ws, "env.txt"))
	if err != nil {
		t.Fatalf("the hook could not write the workspace: %v", err)
	}
	if strings.Contains(string(env), "sk-hook-secret") {
		t.Fatal("the hook saw the API key")
	}
	if _, err := os.Stat(filepath.Join(outside, "planted")); err == nil {
		t.Fatal("the hook wrote outside the workspace")
	}
}
