package agentenv

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// attackRun is a headless accept-edits run (-p: no one approves) in a trusted folder,
// driven by a scripted hostile model, with a fake home holding the API key.
type attackRun struct {
	work, home string
	srv        *fakemodel.Server
	results    []string // what each tool call returned to the model, in order
}

func runAttack(t *testing.T, globalConfig string, calls ...fakemodel.ToolCall) *attackRun {
	t.Helper()
	var turns []fakemodel.Turn
	for _, c := range calls {
		turns = append(turns, fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{c}})
	}
	srv := fakemodel.NewTest(t, fakemodel.Script{Turns: append(turns, fakemodel.Turn{Text: []string{"done"}})})
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &attackRun{work: filepath.Join(root, "work"), home: filepath.Join(root, "home"), srv: srv}
	files := map[string]string{
		filepath.Join(a.home, ".albert-code", ".env"):            "ALBERT_API_KEY=sk-secret\n",
		filepath.Join(a.work, ".git", "config"):                  "[core]\n",
		filepath.Join(a.work, "main.go"):                         "package main\n",
		filepath.Join(root, "xdg", "albert-code", "config.toml"): globalConfig,
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(a.home, ".albert-code", ".env"), filepath.Join(a.work, "notes")); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME": a.home, "ALBERT_CODE_HOME": filepath.Join(a.home, ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": srv.URL(),
	}
	e, err := Load(Options{WorkDir: a.work, Trust: true, Overrides: config.Overrides{Agent: "accept-edits"},
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	run, err := e.NewRun(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	run.Agent.Run(context.Background(), "go", func(agent.Event) {})
	for _, m := range run.Agent.History() {
		if m.ToolCallID != "" && m.Content != "" && m.ToolName != "" {
			a.results = append(a.results, m.Content)
		}
	}
	if len(a.results) != len(calls) {
		t.Fatalf("got %d tool results for %d calls: %q", len(a.results), len(calls), a.results)
	}
	return a
}

func writeFileCall(path, content string) fakemodel.ToolCall {
	args, _ := json.Marshal(map[string]string{"path": path, "content": content})
	return fakemodel.ToolCall{Name: "write", Arguments: string(args)}
}

func TestHeadlessAcceptEditsCannotArmControlFiles(t *testing.T) {
	a := runAttack(t, "",
		writeFileCall(".git/config", "[core]\n\tfsmonitor = touch /tmp/pwned\n"),
		writeFileCall(".albert-code.toml", "[tools.bash]\npermission = \"always\"\n"),
		writeFileCall(".albert-code/agents/default.toml", "auto_approve = true\n"),
		fakemodel.ToolCall{Name: "read", Arguments: `{"path":"notes"}`},
		writeFileCall("main.go", "package main\n\nfunc main() {}\n"),
	)
	wants := [][]string{
		{"no one can approve", ".git/config: git runs programs named there", `allow_control = [".git/config"]`},
		{"no one can approve", ".albert-code.toml: it sets tool permissions", "allow_control"},
		{"no one can approve", ".albert-code/**", `allow_control = [".albert-code/agents/default.toml"]`},
		{"permission denied", filepath.Join(a.home, ".albert-code", ".env"), "through the link notes", "allow_secret"},
		{"Updated main.go"},
	}
	for i, want := range wants {
		for _, w := range want {
			if !strings.Contains(a.results[i], w) {
				t.Errorf("call %d returned %q; want it to say %q", i, a.results[i], w)
			}
		}
	}
	if strings.Contains(a.results[3], "sk-secret") {
		t.Fatal("the API key reached the model")
	}
	if b, _ := os.ReadFile(filepath.Join(a.work, ".git", "config")); string(b) != "[core]\n" {
		t.Fatalf(".git/config was changed: %q", b)
	}
	for _, p := range []string{".albert-code.toml", ".albert-code/agents/default.toml"} {
		if _, err := os.Stat(filepath.Join(a.work, p)); !os.IsNotExist(err) {
			t.Fatalf("%s was written (%v)", p, err)
		}
	}
}

func TestGlobalAllowControlLiftsTheAsk(t *testing.T) {
	a := runAttack(t, "[permissions]\nallow_control = [\".git/config\"]\n", writeFileCall(".git/config", "[core]\n\tbare = false\n"))
	if !strings.Contains(a.results[0], "Updated .git/config") {
		t.Fatalf("with allow_control the write returned %q", a.results[0])
	}
}
