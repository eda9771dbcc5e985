package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// env is a fake environment.
type env map[string]string

func (e env) source() Source {
	var environ []string
	for k, v := range e {
		environ = append(environ, k+"="+v)
	}
	slices.Sort(environ)
	return Source{LookupEnv: func(k string) (string, bool) { v, ok := e[k]; return v, ok }, Environ: environ}
}

// machine has every program and folder.
var machine = System{
	LookPath:      func(p string) (string, error) { return "/usr/bin/" + p, nil },
	IsDir:         func(string) bool { return true },
	AdapterModels: []string{"albert-large"},
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, warnings, err := Load(env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_API_MODE_TOKEN": "0123456789abcdef0123"}.source(), machine)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %q", err, warnings)
	}
	want := Config{
		API: API{Enabled: true, Port: 8080, Tokens: []string{"0123456789abcdef0123"}, MaxBody: 10 << 20,
			KeepAliveTimeout: time.Minute, BodyTimeout: 2 * time.Minute, MaxConnsPerClient: 64},
		Telegram: Telegram{APIURL: DefaultTelegramAPIURL},
		Adapter:  "native", Workspace: "/workspace",
		Timeout: 30 * time.Minute, IdleTimeout: 10 * time.Minute, QueueBound: 16, Retention: 6 * time.Hour,
	}
	if !equal(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func equal(a, b Config) bool {
	a.origin, b.origin = nil, nil
	return reflect.DeepEqual(a, b)
}

func TestEveryKnob(t *testing.T) {
	t.Parallel()
	c, _, err := Load(env{
		"ALBERT_CODE_API_MODE": "true", "ALBERT_CODE_API_MODE_HOST": "127.0.0.1", "ALBERT_CODE_API_MODE_PORT": " 9000 ",
		"ALBERT_CODE_API_MODE_TOKEN": " tok-a-0123456789abcdef , tok-b-0123456789abcdef", "ALBERT_CODE_API_MODE_MAX_BODY": "512KiB",
		"ALBERT_CODE_API_MODE_KEEPALIVE_TIMEOUT": "30s", "ALBERT_CODE_API_MODE_BODY_TIMEOUT": "90", "ALBERT_CODE_API_MODE_MAX_CONNS_PER_CLIENT": "8",
		"ALBERT_CODE_MCP_MODE": "yes", "ALBERT_CODE_MCP_MODE_PORT": "9001", "ALBERT_CODE_MCP_MODE_TOKEN": "mcp-0123456789abcdef",
		"ALBERT_CODE_MCP_MODE_ALLOWED_HOSTS": "a.example,b.example", "ALBERT_CODE_MCP_MODE_ALLOWED_ORIGINS": "https://a.example",
		"ALBERT_CODE_ADAPTER": "claude", "ALBERT_CODE_AGENT_BINARY": "/opt/claude", "ALBERT_CODE_WORKSPACE": "/srv/w",
		"ALBERT_CODE_AVAILABLE_MODELS": "sonnet,opus", "ALBERT_CODE_AVAILABLE_EFFORTS": "low,high",
		"ALBERT_CODE_TIMEOUT": "1800", "ALBERT_CODE_IDLE_TIMEOUT": "90s", "ALBERT_CODE_QUEUE_BOUND": "0",
		"ALBERT_CODE_RESULT_RETENTION": "24h", "ALBERT_CODE_RUN_STORE": "/var/lib/runs.db", "ALBERT_CODE_SANDBOXED": "1",
		"ALBERT_CODE_TELEGRAM_MODE": "1", "AICODEBOX_TELEGRAM_MODE_TOKEN": "123456:AbC-d_e", "ALBERT_CODE_TELEGRAM_MODE_CONFIG": "/etc/bot.yml",
		"ALBERT_CODE_TELEGRAM_MODE_OVERRIDES": "/var/lib/ov.json", "ALBERT_CODE_TELEGRAM_MODE_API_URL": "http://127.0.0.1:8081/",
	}.source(), machine)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		API: API{Enabled: true, Host: "127.0.0.1", Port: 9000, Tokens: []string{"tok-a-0123456789abcdef", "tok-b-0123456789abcdef"}, MaxBody: 512 << 10,
			KeepAliveTimeout: 30 * time.Second, BodyTimeout: 90 * time.Second, MaxConnsPerClient: 8},
		MCP: MCP{Enabled: true, Port: 9001, Tokens: []string{"mcp-0123456789abcdef"}, AllowedHosts: []string{"a.example", "b.example"},
			AllowedOrigins: []string{"https://a.example"}},
		Adapter: "claude", AgentBinary: "/opt/claude", Workspace: "/srv/w", Sandboxed: true,
		AvailableModels: []string{"sonnet", "opus"}, AvailableEfforts: []string{"low", "high"},
		Timeout: 30 * time.Minute, IdleTimeout: 90 * time.Second, QueueBound: 0, Retention: 24 * time.Hour, RunStore: "/var/lib/runs.db",
		Telegram: Telegram{Enabled: true, Token: "123456:AbC-d_e", File: "/etc/bot.yml", Overrides: "/var/lib/ov.json", APIURL: "http://127.0.0.1:8081"},
	}
	if !equal(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func TestMCPPort(t *testing.T) {
	t.Parallel()
	tok := "ALBERT_CODE_MCP_MODE_TOKEN"
	alone, _, _ := Parse(env{"ALBERT_CODE_MCP_MODE": "1", tok: "x"}.source())
	shared, _, _ := Parse(env{"ALBERT_CODE_MCP_MODE": "1", "ALBERT_CODE_API_MODE": "1", tok: "x"}.source())
	if alone.MCP.Port != DefaultMCPPort || shared.MCP.Port != 0 {
		t.Errorf("standalone port %d (want %d), beside the API %d (want 0: the API's)", alone.MCP.Port, DefaultMCPPort, shared.MCP.Port)
	}
}

func TestFlagsWinOverTheEnvironment(t *testing.T) {
	t.Parallel()
	src := env{"ALBERT_CODE_API_MODE_PORT": "9000", "AICODEBOX_API_MODE": "1"}.source()
	src.Flags = map[string]string{"api-port": "9100", "adapter": "pi"}
	c, _, problems := Parse(src)
	if len(problems) > 0 || c.API.Port != 9100 || c.Adapter != "pi" || !c.API.Enabled || c.Source("API_MODE_PORT") != "--api-port" {
		t.Errorf("port %d, adapter %s, api %v, problems %v", c.API.Port, c.Adapter, c.API.Enabled, problems)
	}
}

func TestOriginalNames(t *testing.T) {
	t.Parallel()
	c, warnings, err := Load(env{
		"AICODEBOX_API_MODE": "1", "AICODEBOX_API_MODE_PORT": "8181", "AICODEBOX_API_MODE_TOKEN": "old-token-0123456789",
		"ALBERT_CODE_API_MODE_TOKEN": "new-token-0123456789",
		"AICODE_WORKSPACE":           "/legacy", "AICODEBOX_AVAILABLE_MODELS": "a,b",
		"CLAUDEBOX_MCP_MODE": "1", "CLAUDEBOX_MCP_MODE_TOKEN": "claudebox-token-0123",
		"PIBOX_ADAPTER": "pi", "AICODEBOX_ADAPTER": "claudebox.adapter:ClaudecodeAdapter",
		"AICODEBOX_CONTAINER_NAME": "box",
	}.source(), machine)
	if err != nil {
		t.Fatal(err)
	}
	if !c.API.Enabled || c.API.Port != 8181 || c.Workspace != "/legacy" || !slices.Equal(c.AvailableModels, []string{"a", "b"}) ||
		!c.MCP.Enabled || c.MCP.Tokens[0] != "claudebox-token-0123" || c.Adapter != "claude" {
		t.Errorf("config %+v", c)
	}
	if !slices.Equal(c.API.Tokens, []string{"new-token-0123456789"}) {
		t.Errorf("tokens %q: ours must win over the original's", c.API.Tokens)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		"ALBERT_CODE_API_MODE_TOKEN and AICODEBOX_API_MODE_TOKEN are both set and differ: using ALBERT_CODE_API_MODE_TOKEN",
		"AICODEBOX_ADAPTER and PIBOX_ADAPTER are both set and differ",
		"AICODEBOX_CONTAINER_NAME has no effect",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "token-0123456789") {
		t.Errorf("a token is printed in the warnings:\n%s", all)
	}
}

func TestProblemsAreAllReportedAtOnce(t *testing.T) {
	t.Parallel()
	noPrograms := System{LookPath: func(p string) (string, error) { return "", errors.New("not in $PATH") }, IsDir: func(string) bool { return false }}
	_, _, err := Load(env{
		"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_API_MODE_PORT": "80a", "ALBERT_CODE_API_MODE_TOKEN": "same-token-0123456789",
		"ALBERT_CODE_MCP_MODE": "1", "ALBERT_CODE_MCP_MODE_PORT": "70000", "ALBERT_CODE_MCP_MODE_TOKEN": "other-token-0123456789,same-token-0123456789",
		"ALBERT_CODE_TELEGRAM_MODE": "1", "ALBERT_CODE_CRON_MODE": "2",
		"ALBERT_CODE_ADAPTER": "codex", "ALBERT_CODE_WORKSPACE": "/nope", "ALBERT_CODE_SANDBOXED": "maybe",
		"ALBERT_CODE_TIMEOUT": "soon", "ALBERT_CODE_IDLE_TIMEOUT": "-5s", "ALBERT_CODE_QUEUE_BOUND": "-1", "ALBERT_CODE_RESULT_RETENTION": "0",
	}.source(), noPrograms)
	var ps problems.List
	if !errors.As(err, &ps) {
		t.Fatalf("err %v", err)
	}
	want := []string{
		`ALBERT_CODE_API_MODE_PORT: "80a": not a port: want a number from 1 to 65535`,
		`ALBERT_CODE_MCP_MODE_PORT: "70000": not a port`,
		`ALBERT_CODE_CRON_MODE: "2": want 1 (on) or 0 (off)`,
		`ALBERT_CODE_SANDBOXED: "maybe": want 1 (on) or 0 (off)`,
		`ALBERT_CODE_TIMEOUT: "soon": not a duration`,
		`ALBERT_CODE_IDLE_TIMEOUT: "-5s": must be more than zero`,
		`ALBERT_CODE_QUEUE_BOUND: "-1": want a whole number, 0 or more`,
		`ALBERT_CODE_RESULT_RETENTION: "0": must be more than zero`,
		`ALBERT_CODE_AVAILABLE_MODELS: the API needs models to offer on /v1/models and the codex adapter lists none`,
		`ALBERT_CODE_MCP_MODE_TOKEN: a token of the MCP server is also a token of the API`,
		`ALBERT_CODE_ADAPTER: the codex adapter runs "codex", which is not found (not in $PATH)`,
		`ALBERT_CODE_WORKSPACE: /nope is not a folder`,
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("missing %q in\n%s", w, msg)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(ps), len(want), msg)
	}
	if strings.Contains(msg, "same-token") {
		t.Error("a token is printed in the problems")
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  env
		sys  System
		want string // "" for no problem
	}{
		{"no mode", env{}, machine, "ALBERT_CODE_API_MODE: no mode is on"},
		{"mode off spelt 0", env{"ALBERT_CODE_API_MODE": "0"}, machine, "no mode is on"},
		{"MCP alone needs no models", env{"ALBERT_CODE_MCP_MODE": "1"}, System{IsDir: machine.IsDir}, ""},
		{"models from the adapter", env{"ALBERT_CODE_API_MODE": "1"}, machine, ""},
		{"unknown adapter", env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_ADAPTER": "gemini"}, machine,
			`ALBERT_CODE_ADAPTER: "gemini" is not an adapter: want native, albert-code, claude, codex, pi`},
		{"python adapter class", env{"ALBERT_CODE_API_MODE": "1", "AICODEBOX_ADAPTER": "mybox.adapter:MyAdapter"}, machine,
			`AICODEBOX_ADAPTER: "mybox.adapter:MyAdapter": "mybox.adapter:MyAdapter" is a Python adapter class`},
		{"adapter file is checked when loaded", env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_ADAPTER": "/etc/agents/my.toml"}, machine, ""},
		{"missing agent binary named by its variable", env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_ADAPTER": "pi", "AICODEBOX_AGENT_BINARY": "/opt/pi"},
			System{LookPath: func(string) (string, error) { return "", errors.New("no such file") }, IsDir: machine.IsDir, AdapterModels: []string{"m"}},
			`AICODEBOX_AGENT_BINARY: the pi adapter runs "/opt/pi", which is not found`},
		{"telegram alone", env{"ALBERT_CODE_TELEGRAM_MODE": "1", "ALBERT_CODE_TELEGRAM_MODE_TOKEN": "42:secret"}, machine, ""},
		{"telegram needs a token", env{"ALBERT_CODE_TELEGRAM_MODE": "1"}, machine,
			"ALBERT_CODE_TELEGRAM_MODE_TOKEN: the telegram mode needs the bot's token"},
		{"telegram token malformed, not printed", env{"ALBERT_CODE_TELEGRAM_MODE": "1", "AICODEBOX_TELEGRAM_MODE_TOKEN": "42:se/cret"}, machine,
			"AICODEBOX_TELEGRAM_MODE_TOKEN: the value is not a bot token"},
		{"telegram ignored when the API wins", env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_TELEGRAM_MODE": "1"}, machine, ""},
		{"telegram API URL", env{"ALBERT_CODE_TELEGRAM_MODE": "1", "ALBERT_CODE_TELEGRAM_MODE_TOKEN": "42:s", "ALBERT_CODE_TELEGRAM_MODE_API_URL": "127.0.0.1:8081"}, machine,
			`ALBERT_CODE_TELEGRAM_MODE_API_URL: "127.0.0.1:8081": not a Bot API base URL`},
		{"telegram needs the workspace root", env{"ALBERT_CODE_TELEGRAM_MODE": "1", "ALBERT_CODE_TELEGRAM_MODE_TOKEN": "42:s"}, System{IsDir: func(string) bool { return false }},
			"ALBERT_CODE_WORKSPACE: /workspace is not a folder"},
		{"flag named in the problem", env{"ALBERT_CODE_API_MODE": "1"}, System{IsDir: func(string) bool { return false }, AdapterModels: []string{"m"}},
			"ALBERT_CODE_WORKSPACE: /workspace is not a folder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Load(tc.env.source(), tc.sys)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v\nwant %q", err, tc.want)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	_, warnings, _ := Parse(env{
		"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_API_MODE_PROT": "9000", "AICODEBOX_API_MODE_TOKN": "x",
		"ALBERT_CODE_MODEL": "agent settings are not ours", "CLAUDEBOX_CLAUDE_VERSION": "children settings are not ours",
		"ALBERT_CODE_MCP_MODE": "1", "ALBERT_CODE_MCP_MODE_TOKEN": "short",
		"ALBERT_CODE_AGENT_BINARY": "/opt/x",
	}.source())
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		"ALBERT_CODE_API_MODE_TOKEN is empty: anyone who reaches port 8080 can run the agent",
		"a bearer token is shorter than 16 characters",
		"ALBERT_CODE_API_MODE_PROT is not a setting of albert-code serve: did you mean ALBERT_CODE_API_MODE_PORT?",
		"AICODEBOX_API_MODE_TOKN is not a setting of albert-code serve: did you mean ALBERT_CODE_API_MODE_TOKEN?",
		"ALBERT_CODE_AGENT_BINARY has no effect with the native adapter",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "ALBERT_CODE_MODEL") || strings.Contains(all, "CLAUDEBOX_CLAUDE_VERSION") {
		t.Errorf("warned about a variable that is not the serve layer's:\n%s", all)
	}
}

func TestSettingsTableIsConsistent(t *testing.T) {
	t.Parallel()
	vars, flags := map[string]bool{}, map[string]bool{}
	for _, s := range Settings {
		if vars[s.Var()] || flags[s.Flag] || s.Flag == "" || s.Help == "" || s.set == nil {
			t.Errorf("setting %s: duplicate or incomplete", s.Var())
		}
		vars[s.Var()], flags[s.Flag] = true, true
		var c Config
		if s.Default != "" {
			if err := s.set(&c, s.Default); err != nil {
				t.Errorf("%s: its default %q does not parse: %v", s.Var(), s.Default, err)
			}
		}
	}
}

func TestSizes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"1": 1, "2048": 2048, "3 KiB": 3 << 10, "10MiB": 10 << 20, "1GiB": 1 << 30, "7B": 7} {
		var n int64
		if err := parseSize(in, &n); err != nil || n != want {
			t.Errorf("%q: %d, %v; want %d", in, n, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "10MB", "ten", "1.5MiB", "9999999999GiB"} {
		var n int64
		if err := parseSize(in, &n); err == nil {
			t.Errorf("%q: read as %d, want an error", in, n)
		}
	}
}

// A token list that is set but holds no token would start an API without
// authentication: it is refused, naming the variable and what to do.
func TestEmptyLookingTokensAreRefused(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ALBERT_CODE_API_MODE_TOKEN", "ALBERT_CODE_MCP_MODE_TOKEN"} {
		for _, v := range []string{",", " ", " , ", ",,,", "tok-a-0123456789abcdef,", "tok-a-0123456789abcdef,,tok-b-0123456789abcdef", "tok-a-0123456789abcdef,   "} {
			_, _, err := Load(env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_MCP_MODE": "1", name: v}.source(), machine)
			if err == nil {
				t.Errorf("%s=%q: started", name, v)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, name) || !strings.Contains(msg, "empty or only spaces") || !strings.Contains(msg, "unset the variable") {
				t.Errorf("%s=%q: %v", name, v, err)
			}
			if strings.Contains(msg, "tok-a") {
				t.Errorf("%s=%q: the error shows a token: %v", name, v, err)
			}
		}
	}
	c, _, err := Load(env{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_API_MODE_TOKEN": " tok-a-0123456789abcdef , tok-b-0123456789abcdef "}.source(), machine)
	if err != nil || !slices.Equal(c.API.Tokens, []string{"tok-a-0123456789abcdef", "tok-b-0123456789abcdef"}) {
		t.Errorf("spaces around tokens: %q, %v", c.API.Tokens, err)
	}
}
