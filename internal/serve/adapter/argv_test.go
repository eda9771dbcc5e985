package adapter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/albertcode"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/pi"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestBuildArgv(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{ "type": "object" }`)
	full := backend.Request{Model: "m", Thinking: "high", SystemPrompt: "sys", AppendSystemPrompt: "more",
		Resume: "s-1", ToolsAllowlist: []string{"Read", "Grep"}, ExtraArgs: []string{"--x"}}
	noEnv := func(string) string { return "" }
	tests := []struct {
		name    string
		adapter cli.Adapter
		req     backend.Request
		want    string
	}{
		{"claude fresh", &claude.Adapter{}, backend.Request{},
			"claude -p --output-format stream-json --verbose --permission-mode bypassPermissions"},
		{"claude everything", &claude.Adapter{Binary: "/opt/claude"}, full,
			"/opt/claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --model m --effort high " +
				"--append-system-prompt more --system-prompt sys --resume s-1 --tools Read,Grep --x"},
		{"claude continue, no tools, schema, off", &claude.Adapter{}, backend.Request{Continue: true, NoTools: true, Thinking: "off", JSONSchema: schema},
			`claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --json-schema {"type":"object"} --continue --tools `},
		{"claude token streaming", &claude.Adapter{}, backend.Request{StreamTokens: true},
			"claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --include-partial-messages"},
		{"claude full events", &claude.Adapter{}, backend.Request{EventMode: backend.EventsFull, StreamTokens: true},
			"claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --include-partial-messages --forward-subagent-text --include-hook-events"},
		{"codex fresh", &codex.Adapter{}, backend.Request{},
			"codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox --ephemeral -"},
		{"codex continue", &codex.Adapter{}, backend.Request{Continue: true},
			"codex exec resume --last --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -"},
		{"codex everything", &codex.Adapter{}, backend.Request{Model: "m", Thinking: "high", SystemPrompt: `say "true"`, AppendSystemPrompt: "true",
			Resume: "s-1", NoTools: true, ExtraArgs: []string{"--x"}},
			`codex exec resume s-1 --json --skip-git-repo-check -c sandbox_mode="read-only" -c features.shell_tool=false ` +
				`-c web_search=disabled --model m -c model_reasoning_effort=high ` +
				`-c instructions="say \"true\"" -c developer_instructions="true" --x -`},
		{"pi fresh", &pi.Adapter{Getenv: noEnv}, backend.Request{}, "pi -p --mode json --no-session"},
		{"pi everything", &pi.Adapter{Getenv: noEnv}, full,
			"pi -p --mode json --model m --thinking high --system-prompt sys --append-system-prompt more --session s-1 --tools Read,Grep --x"},
		{"pi anthropic endpoint", &pi.Adapter{Getenv: noEnv}, backend.Request{Continue: true, NoTools: true, Env: map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}},
			"pi -p --mode json --continue --no-tools --provider anthropic"},
		{"albert-code fresh", &albertcode.Adapter{}, backend.Request{},
			"albert-code -p --output stream-json --trust --agent auto-approve"},
		{"albert-code everything", &albertcode.Adapter{}, backend.Request{Model: "m", Resume: "s-1", ToolsAllowlist: []string{"read"}, ExtraArgs: []string{"--max-turns", "3"}},
			"albert-code -p --output stream-json --trust --agent auto-approve --model m --resume s-1 --enabled-tools read --max-turns 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			argv, err := tc.adapter.BuildArgv(&tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(argv, " "); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestCodexWritesTheSchemaInTheRunFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	argv, err := (&codex.Adapter{}).BuildArgv(&backend.Request{JSONSchema: json.RawMessage(`{"type": "object"}`), TempDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "codex-output-schema.json")
	if got := strings.Join(argv, " "); !strings.Contains(got, "--output-schema "+path+" -") {
		t.Errorf("argv %s", got)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != `{"type":"object"}` {
		t.Errorf("schema file: %q, %v", data, err)
	}
	if _, err := (&codex.Adapter{}).BuildArgv(&backend.Request{JSONSchema: json.RawMessage(`{}`)}); err == nil {
		t.Error("a schema without a TempDir was accepted")
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		adapter cli.Adapter
		req     backend.Request
		errHas  string // empty: accepted
	}{
		{"claude level", &claude.Adapter{}, backend.Request{Thinking: "max"}, ""},
		{"claude unknown level", &claude.Adapter{}, backend.Request{Thinking: "ultra"}, `thinking "ultra" is not a level of claude: want one of off, low`},
		{"pi unknown level", &pi.Adapter{}, backend.Request{Thinking: "max"}, "not a level of pi"},
		{"codex level", &codex.Adapter{}, backend.Request{Thinking: "none"}, ""},
		{"codex allowlist", &codex.Adapter{}, backend.Request{ToolsAllowlist: []string{"shell"}}, "codex cannot restrict its tools by name"},
		{"both tool switches", &claude.Adapter{}, backend.Request{NoTools: true, ToolsAllowlist: []string{"Read"}}, "noTools and toolsAllowlist together"},
		{"event mode", &pi.Adapter{}, backend.Request{EventMode: "some"}, `eventMode "some"`},
		{"albert-code system prompt", &albertcode.Adapter{}, backend.Request{SystemPrompt: "x", NoTools: true}, "systemPrompt/appendSystemPrompt (use an agent profile); noTools"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := cli.Validate(tc.adapter, &tc.req)
			switch {
			case tc.errHas == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)):
				t.Errorf("err %v, want one containing %q", err, tc.errHas)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	a, err := Resolve("claude", "/opt/bin/claude")
	if err != nil || a.Name() != "claude" {
		t.Fatalf("%v %v", a, err)
	}
	if argv, _ := a.BuildArgv(&backend.Request{}); argv[0] != "/opt/bin/claude" {
		t.Errorf("binary not applied: %v", argv)
	}
	if _, err := Resolve("claud", ""); err == nil || !strings.Contains(err.Error(), "albert-code, claude, codex, pi") {
		t.Errorf("unknown adapter: %v", err)
	}
	if _, err := Resolve("testdata/missing.toml", ""); err == nil {
		t.Error("missing file accepted")
	}
}

func TestDeclarativeFilesCannotTakeABuiltinName(t *testing.T) {
	t.Parallel()
	if !slices.Equal(declarative.BuiltinNames, BuiltinNames()) {
		t.Errorf("declarative.BuiltinNames %q, want %q", declarative.BuiltinNames, BuiltinNames())
	}
}
