package claude_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/sandbox"
)

// TestRealClaudeInTheAdapterSandbox: with serve's OS sandbox on (what
// ALBERT_CODE_ADAPTER_SANDBOX=workspace-write does), Claude Code runs, as root
// too (the adapter sets IS_SANDBOX), its Bash call writes in the workspace and
// nowhere else.
func TestRealClaudeInTheAdapterSandbox(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "escape.txt")
	rc := newRealClaude(t,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{bashCall("toolu_1", "echo confined > out.txt; echo escape > "+outside)}},
		fakemodel.Turn{Text: []string{"written"}},
	)
	// Claude Code's Bash tool keeps its state under $TMPDIR/claude-UID: the system's
	// /tmp is not writable in the sandbox, so TMPDIR is a writable folder.
	tmp := filepath.Join(rc.home, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	rc.opts.Sandbox, rc.opts.Writable = sandbox.WorkspaceWrite, []string{rc.home}
	rc.opts.BaseEnv = append(rc.opts.BaseEnv, "TMPDIR="+tmp)
	res, _ := rc.run(rc.request("Write."))
	if res.Text != "written" {
		t.Errorf("text %q", res.Text)
	}
	if data, err := os.ReadFile(filepath.Join(rc.work, "out.txt")); err != nil || string(data) != "confined\n" {
		t.Errorf("the workspace write: %q, %v\n%.4000s", data, err, res.Stdout)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("the sandboxed Bash call wrote outside its workspace (%s): %v", outside, err)
	}
}
