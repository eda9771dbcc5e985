package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/sandbox"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// shAgent is a CLI adapter whose "agent" runs its prompt as a shell script.
func shAgent(t *testing.T) cli.Adapter {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sh-agent.toml")
	os.WriteFile(path, []byte("name = \"sh-agent\"\nbinary = \"/bin/sh\"\nargv = [\"{binary}\", \"-c\", \"{prompt}\"]\nprompt = \"argument\"\n"), 0o644)
	a, err := declarative.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAdapterSandbox: with ALBERT_CODE_ADAPTER_SANDBOX=workspace-write a CLI agent
// writes its workspace and the folders it is given, and nothing else; its provider
// key stays in its environment, since it needs it.
func TestAdapterSandbox(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-agent-needs-this")
	ws, state, outside := t.TempDir(), t.TempDir(), t.TempDir()
	script := "echo ok > inside; echo s > " + state + "/s; echo x > " + outside + "/x; echo t > \"$TMPDIR/t\" && echo tmp-writable; env"
	for _, mode := range []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.Off} {
		r := New(Options{Sandbox: mode, Writable: []string{state}, Timeout: time.Minute})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := r.Run(ctx, shAgent(t), backend.Request{Prompt: script, Workspace: ws}, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Stdout, "tmp-writable") {
			t.Errorf("%s: $TMPDIR is not writable: %s", mode, res.Stderr)
		}
		if !strings.Contains(res.Stdout, "sk-agent-needs-this") {
			t.Errorf("%s: the agent lost its provider key: %s", mode, res.Stdout)
		}
		for _, want := range []string{filepath.Join(ws, "inside"), filepath.Join(state, "s")} {
			if _, err := os.Stat(want); err != nil {
				t.Errorf("%s: %s was not written: %s", mode, want, res.Stderr)
			}
		}
		_, err = os.Stat(filepath.Join(outside, "x"))
		if mode == sandbox.WorkspaceWrite && err == nil {
			t.Errorf("the sandboxed agent wrote outside its workspace")
		}
		if mode == sandbox.Off && err != nil {
			t.Errorf("with the sandbox off the agent could not write: %s", res.Stderr)
		}
	}
}
