package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestMCPServersMergeByNameAcrossLayers(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `[mcp_servers.fs]
command = "mcp-server-filesystem"
args = ["/srv"]
env = { A = "1" }
disabled_tools = ["write_*"]

[mcp_servers.everything]
url = "http://127.0.0.1:3001/mcp"
headers = { X-Team = "core" }
bearer_token_env = "EVERYTHING_TOKEN"
tool_timeout = "5s"
sampling = "allow"
`)
	write(t, s.projectFile(".albert-code.toml"), `[mcp_servers.fs]
args = ["."]
env = { B = "2" }
startup_timeout = "3s"

[mcp_servers.everything]
enabled = false
`)
	c := s.load(t, Overrides{})
	if len(c.MCPServers) != 2 {
		t.Fatalf("servers = %+v, want fs and everything", c.MCPServers)
	}
	byName := map[string]MCPServer{}
	for _, srv := range c.MCPServers {
		byName[srv.Name] = srv
	}
	fs := byName["fs"]
	if fs.Command != "mcp-server-filesystem" || !reflect.DeepEqual(fs.Args, []string{"."}) || fs.IsHTTP() {
		t.Errorf("fs = %+v: want the global command with the project's args", fs)
	}
	if !reflect.DeepEqual(fs.Env, map[string]string{"A": "1", "B": "2"}) {
		t.Errorf("fs env = %v, want both layers' variables", fs.Env)
	}
	if fs.StartupTimeout != 3*time.Second || fs.ToolTimeout != DefaultMCPToolTimeout {
		t.Errorf("fs timeouts = %v / %v", fs.StartupTimeout, fs.ToolTimeout)
	}
	if !reflect.DeepEqual(fs.DisabledTools, []string{"write_*"}) {
		t.Errorf("fs disabled tools = %v", fs.DisabledTools)
	}
	ev := byName["everything"]
	if !ev.IsHTTP() || ev.Headers["X-Team"] != "core" || ev.BearerTokenEnv != "EVERYTHING_TOKEN" || ev.ToolTimeout != 5*time.Second || !ev.Disabled {
		t.Errorf("everything = %+v", ev)
	}
	if fs.Sampling != SamplingAsk || ev.Sampling != SamplingAllow {
		t.Errorf("sampling = %q / %q, want ask by default and the global file's allow", fs.Sampling, ev.Sampling)
	}
	if got := source(t, c, "mcp_servers.fs.args"); got != s.projectFile(".albert-code.toml")+":2" {
		t.Errorf("source of fs.args = %s", got)
	}
}

func TestBadMCPServersAreRefusedWhereWritten(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"both transports", "[mcp_servers.x]\ncommand = \"a\"\nurl = \"http://h/mcp\"\n", "has both command (stdio) and url (HTTP)"},
		{"no transport", "[mcp_servers.x]\nargs = [\"a\"]\n", "has neither command"},
		{"bad url", "[mcp_servers.x]\nurl = \"ftp://h\"\n", "must start with http://"},
		{"bad name", "[mcp_servers.\"my server\"]\ncommand = \"a\"\n", `invalid MCP server name "my server"`},
		{"typo", "[mcp_servers.x]\ncomand = \"a\"\n", `did you mean "command"`},
		{"bad timeout", "[mcp_servers.x]\ncommand = \"a\"\ntool_timeout = \"10\"\n", `invalid duration "10"`},
		{"bad filter", "[mcp_servers.x]\ncommand = \"a\"\nenabled_tools = [\"re:(\"]\n", "enabled_tools"},
		{"bad sampling", "[mcp_servers.x]\ncommand = \"a\"\nsampling = \"yes\"\n", `invalid sampling mode "yes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			path := write(t, s.globalFile(), tt.file)
			_, err := Load(Options{WorkDir: s.work})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want %q naming %s", err, tt.want, path)
			}
		})
	}
}

func TestHooksFromEveryLayerAddUp(t *testing.T) {
	s := newSandbox(t)
	global := write(t, s.globalFile(), `[[hooks.before_tool]]
command = "guard.sh"
tools = ["bash"]
on_failure = "deny"

[[hooks.after_turn]]
command = "notify-send done"
`)
	project := write(t, s.projectFile(".albert-code.toml"), `[[hooks.after_tool]]
command = "gofmt -l ."
tools = ["write_file", "edit_*"]
timeout = "5s"
`)
	c := s.load(t, Overrides{})
	want := []Hook{
		{Event: HookBeforeTool, Command: "guard.sh", Tools: []string{"bash"}, Timeout: DefaultHookTimeout, FailClosed: true, Source: global + ":1"},
		{Event: HookAfterTurn, Command: "notify-send done", Timeout: DefaultHookTimeout, Source: global + ":6"},
		{Event: HookAfterTool, Command: "gofmt -l .", Tools: []string{"write_file", "edit_*"}, Timeout: 5 * time.Second, Source: project + ":1"},
	}
	if !reflect.DeepEqual(c.Hooks, want) {
		t.Errorf("hooks =\n%+v\nwant\n%+v", c.Hooks, want)
	}
}

func TestBadHooksAreRefused(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"no command", "[[hooks.before_tool]]\ntools = [\"bash\"]\n", "a hook needs a command"},
		{"bad on_failure", "[[hooks.before_tool]]\ncommand = \"x\"\non_failure = \"deni\"\n", `did you mean "deny"`},
		{"deny after", "[[hooks.after_tool]]\ncommand = \"x\"\non_failure = \"deny\"\n", "only before_tool hooks can deny"},
		{"tools on turn", "[[hooks.after_turn]]\ncommand = \"x\"\ntools = [\"bash\"]\n", "remove tools"},
		{"unknown event", "[[hooks.before_call]]\ncommand = \"x\"\n", `did you mean "before_tool"`},
		{"bad timeout", "[[hooks.after_turn]]\ncommand = \"x\"\ntimeout = \"-1s\"\n", "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			write(t, s.globalFile(), tt.file)
			_, err := Load(Options{WorkDir: s.work})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestSkillsSettings(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `[skills]
paths = ["team-skills", "/abs/skills"]
enabled = ["review-*"]
disabled = ["re:.*-old"]
`)
	c := s.load(t, Overrides{})
	wantPaths := []string{filepath.Join(filepath.Dir(s.globalFile()), "team-skills"), "/abs/skills"}
	if !reflect.DeepEqual(c.Skills.Paths, wantPaths) {
		t.Errorf("paths = %v, want %v (relative to the file)", c.Skills.Paths, wantPaths)
	}
	if !reflect.DeepEqual(c.Skills.Enabled, []string{"review-*"}) || !reflect.DeepEqual(c.Skills.Disabled, []string{"re:.*-old"}) {
		t.Errorf("skills = %+v", c.Skills)
	}
}

func TestShowPrintsExtensionsWithoutSecrets(t *testing.T) {
	s := newSandbox(t)
	path := write(t, s.globalFile(), `[mcp_servers.fs]
command = "mcp-server-filesystem"
args = ["."]
env = { GITHUB_TOKEN = "ghp_secret123", LEVEL = "debug" }

[mcp_servers.remote]
url = "https://example.org/mcp"
headers = { Authorization = "Bearer hunter2" }

[skills]
disabled = ["old-*"]

[[hooks.before_tool]]
command = "guard.sh"
tools = ["bash"]
on_failure = "deny"
`)
	var b strings.Builder
	if err := Show(&b, s.load(t, Overrides{})); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, secret := range []string{"ghp_secret123", "hunter2"} {
		if strings.Contains(out, secret) {
			t.Errorf("Show printed %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{
		"[mcp_servers.fs]", `command = "mcp-server-filesystem"  # from ` + path + ":2",
		`env."LEVEL" = "debug"`, `env."GITHUB_TOKEN" = "<masked>"`, `tool_timeout = "1m0s"  # from default`, `sampling = "ask"  # from default`,
		"[mcp_servers.remote]", `url = "https://example.org/mcp"`, `headers."Authorization" = "<masked>"`,
		"[skills]", `disabled = ["old-*"]`,
		"[[hooks.before_tool]]  # from " + path + ":13", `command = "guard.sh"`, `tools = ["bash"]`, `on_failure = "deny"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Show lacks %q:\n%s", want, out)
		}
	}
}
