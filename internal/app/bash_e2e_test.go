package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func bashCall(id, cmd string) fakemodel.ToolCall {
	return fakemodel.ToolCall{ID: id, Name: "bash", Arguments: args(map[string]any{"command": cmd})}
}

// TestHeadlessBashFollowsTheCommandRules runs the bash tool headless with the default
// settings: read-only commands run, a redirection into a file needs an approval no one
// can give, and a denied command is refused outright.
func TestHeadlessBashFollowsTheCommandRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(bashCall("b1", "ls"), bashCall("b2", "echo hi | wc -c"), bashCall("b3", "echo hi > out.txt"), bashCall("b4", "sudo ls")),
		text("done"),
	)
	h.writeFile("marker.txt", "x")
	r := h.run("-p", "--trust", "--output", "json", "look around")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if res := h.toolResult(1, "b1"); !strings.Contains(res, "marker.txt") {
		t.Errorf("ls result = %q, want the workspace listing", res)
	}
	if res := h.toolResult(1, "b2"); strings.TrimSpace(res) != "3" {
		t.Errorf("echo hi | wc -c result = %q, want 3", res)
	}
	if res := h.toolResult(1, "b3"); !strings.Contains(res, "needs approval") || !strings.Contains(res, "redirect") {
		t.Errorf("echo hi > out.txt result = %q, want a refusal for want of approval", res)
	}
	if _, err := os.Stat(filepath.Join(h.work, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("out.txt was written without approval (stat err %v)", err)
	}
	if res := h.toolResult(1, "b4"); !strings.Contains(res, "permission denied") || !strings.Contains(res, `rule "sudo"`) {
		t.Errorf("sudo ls result = %q, want a denial naming the rule", res)
	}
}

// TestBashCommandRulesFromConfig checks that [tools.bash] allow and deny add command
// prefixes to the built-in lists.
func TestBashCommandRulesFromConfig(t *testing.T) {
	t.Parallel()
	h := newHarness(t,
		calls(bashCall("b1", "touch made.txt"), bashCall("b2", "ls")),
		text("done"),
	)
	h.globalConfig("[tools.bash]\nallow = [\"touch\"]\ndeny = [\"ls\"]\n")
	r := h.run("-p", "--trust", "--output", "json", "touch")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(h.work, "made.txt")); err != nil {
		t.Errorf("allowlisted touch did not run: %v (result %q)", err, h.toolResult(1, "b1"))
	}
	if res := h.toolResult(1, "b2"); !strings.Contains(res, `rule "ls"`) {
		t.Errorf("ls result = %q, want a denial by the configured rule", res)
	}
}
