package app

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The sandbox turned off is said in every face: -p and serve in attack_e2e_test.go,
// the editor and the terminal UI here.

func TestSandboxOffIsAnnouncedToTheEditor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, text("unused"))
	h.env = append(h.env, "ALBERT_CODE_SANDBOX=off")
	newSession, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "session/new",
		"params": map[string]any{"cwd": h.work, "mcpServers": []any{}}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, "acp")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n" + string(newSession) + "\n")
	res := runToEnd(t, ctx, cmd, []string{"acp"})
	for _, line := range strings.Split(res.stdout, "\n") {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Method == "session/update" && strings.Contains(m.Params.Update.Content.Text, "sandbox is off") {
			return
		}
	}
	t.Fatalf("no session/update says the sandbox is off:\n%s", res.stdout)
}

func TestSandboxOffIsAnnouncedInTheUI(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"unused"}})
	tm := h.startTUI(nil, "--trust", "--sandbox", "off")
	tm.waitFor("sandbox is off")
	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestNoSandboxFailsClosed: where no backend can confine commands (bubblewrap asked
// for and not installed, standing in for a kernel without Landlock), the agent says
// so once, and a command the allowlist would let run unasked asks instead.
func TestNoSandboxFailsClosed(t *testing.T) {
	t.Parallel()
	h := hostile(t)
	bin := t.TempDir()
	for _, prog := range []string{"bash", "git", "rg"} {
		if p, err := exec.LookPath(prog); err == nil {
			os.Symlink(p, filepath.Join(bin, prog))
		}
	}
	h.env = append(withoutVar(h.env, "PATH"), "PATH="+bin)
	h.writeUnder(filepath.Join(filepath.Dir(filepath.Dir(h.home)), "xdg", "albert-code"), "config.toml", "[sandbox]\nbackend = \"bubblewrap\"\n")
	h.srv = fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{calls(bashCall("n1", "echo hi")), text("done")}})
	r := h.run("-p", "--trust", "--output", "json", "go")
	if r.code != ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if strings.Count(r.stderr, "No OS sandbox is available") != 1 {
		t.Errorf("the missing sandbox is not said once on stderr:\n%s", r.stderr)
	}
	if res := h.toolResult(1, "n1"); !strings.Contains(res, "needs approval") || !strings.Contains(res, "no OS sandbox") {
		t.Errorf("an allowlisted command ran without a sandbox: %s", res)
	}
}
