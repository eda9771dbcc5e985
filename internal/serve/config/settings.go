package config

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/api"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// prefix starts every variable of ours.
const prefix = "ALBERT_CODE_"

// originalPrefixes are the original's names, most preferred first: aicodebox's own,
// then its children images', which alias the same suffixes.
var originalPrefixes = []string{"AICODEBOX_", "CLAUDEBOX_", "PIBOX_", "CODEXBOX_"}

// Setting is one configuration value: its variable, its flag, its aliases and how
// it lands in a Config. The table below is the single source of names: Load, the
// flags and the documentation's table all come from it.
type Setting struct {
	// Suffix follows ALBERT_CODE_ (and the original prefixes) in the variable name.
	Suffix string
	// Flag is the command-line flag, without dashes.
	Flag string
	// Legacy are more names read as aliases, after the original prefixes.
	Legacy []string
	// Original is false for our own additions, which have no AICODEBOX_ name.
	Original bool
	Default  string
	// Secret values are never printed.
	Secret bool
	// Switch settings take 1 or 0, and their flag alone means 1 (--api).
	Switch bool
	Help   string
	// set parses v into c; its error message says what is wanted.
	set func(c *Config, v string) error
}

// Var is the setting's variable name.
func (s *Setting) Var() string { return prefix + s.Suffix }

// Aliases are the other names read for the setting, most preferred first.
func (s *Setting) Aliases() []string {
	var out []string
	if s.Original {
		for _, p := range originalPrefixes {
			out = append(out, p+s.Suffix)
		}
	}
	return append(out, s.Legacy...)
}

// Settings lists every setting, in the documentation's order.
var Settings = []*Setting{
	modeSwitch(ModeAPI, "api", true, "serve the HTTP API: /run, /files, /v1/chat/completions", func(c *Config) *bool { return &c.API.Enabled }),
	{Suffix: "API_MODE_HOST", Flag: "api-host", Help: "address the API listens on (empty: every interface)",
		set: func(c *Config, v string) error { c.API.Host = v; return nil }},
	{Suffix: "API_MODE_PORT", Flag: "api-port", Original: true, Default: strconv.Itoa(DefaultAPIPort), Help: "port of the API",
		set: func(c *Config, v string) error { return parsePort(v, &c.API.Port) }},
	{Suffix: "API_MODE_MAX_BODY", Flag: "api-max-body", Default: "10MiB",
		Help: "largest request body the API reads (a prompt, a file); past it, 413 (bytes, or 512KiB, 10MiB, 1GiB)",
		set:  func(c *Config, v string) error { return parseSize(v, &c.API.MaxBody) }},
	{Suffix: "API_MODE_KEEPALIVE_TIMEOUT", Flag: "api-keepalive-timeout", Default: formatDuration(api.DefaultKeepAliveTimeout),
		Help: "time a connection may stay idle between requests before it is closed (API and MCP ports)",
		set:  func(c *Config, v string) error { return parseDuration(v, &c.API.KeepAliveTimeout) }},
	{Suffix: "API_MODE_BODY_TIMEOUT", Flag: "api-body-timeout", Default: formatDuration(api.DefaultBodyTimeout),
		Help: "time to receive a request body; past it, 408 (API and MCP ports)",
		set:  func(c *Config, v string) error { return parseDuration(v, &c.API.BodyTimeout) }},
	{Suffix: "API_MODE_MAX_CONNS_PER_CLIENT", Flag: "api-max-conns-per-client", Default: strconv.Itoa(api.DefaultMaxConnsPerClient),
		Help: "connections one client address may hold open at once; more are closed at once (0: no cap; behind a proxy, every client is the proxy)",
		set:  func(c *Config, v string) error { return parseCount(v, &c.API.MaxConnsPerClient) }},
	{Suffix: "API_MODE_TOKEN", Flag: "api-token", Original: true, Secret: true,
		Help: "bearer tokens of the API, comma separated (unset or empty: no authentication)",
		set:  func(c *Config, v string) error { return parseTokens(v, &c.API.Tokens) }},

	modeSwitch(ModeMCP, "mcp", true, "serve the MCP server (/mcp)", func(c *Config) *bool { return &c.MCP.Enabled }),
	{Suffix: "MCP_MODE_PORT", Flag: "mcp-port", Original: true,
		Help: "port of its own for the MCP server (default: the API's port with the API on, else 8081)",
		set:  func(c *Config, v string) error { return parsePort(v, &c.MCP.Port) }},
	{Suffix: "MCP_MODE_TOKEN", Flag: "mcp-token", Original: true, Secret: true,
		Help: "bearer tokens of the MCP server, comma separated; never the API's",
		set:  func(c *Config, v string) error { return parseTokens(v, &c.MCP.Tokens) }},
	{Suffix: "MCP_MODE_ALLOWED_HOSTS", Flag: "mcp-allowed-hosts", Original: true,
		Help: "Host headers the MCP server accepts, comma separated (DNS-rebinding guard)",
		set:  func(c *Config, v string) error { c.MCP.AllowedHosts = splitList(v); return nil }},
	{Suffix: "MCP_MODE_ALLOWED_ORIGINS", Flag: "mcp-allowed-origins", Original: true,
		Help: "Origin headers the MCP server accepts, comma separated",
		set:  func(c *Config, v string) error { c.MCP.AllowedOrigins = splitList(v); return nil }},

	modeSwitch(ModeTelegram, "telegram", true, "run the Telegram bot (see docs/serve-telegram.md)", func(c *Config) *bool { return &c.Telegram.Enabled }),
	{Suffix: "TELEGRAM_MODE_TOKEN", Flag: "telegram-token", Original: true, Secret: true, Help: "the bot's token",
		set: func(c *Config, v string) error { c.Telegram.Token = v; return nil }},
	{Suffix: "TELEGRAM_MODE_CONFIG", Flag: "telegram-config", Original: true, Help: "the bot's YAML file",
		set: func(c *Config, v string) error { c.Telegram.File = v; return nil }},
	{Suffix: "TELEGRAM_MODE_OVERRIDES", Flag: "telegram-overrides", Original: true, Help: "the bot's per-chat overrides file",
		set: func(c *Config, v string) error { c.Telegram.Overrides = v; return nil }},
	{Suffix: "TELEGRAM_MODE_API_URL", Flag: "telegram-api-url", Default: DefaultTelegramAPIURL,
		Help: "base URL of the Bot API, for a self-hosted Bot API server (also used by cron notifications)",
		set:  setTelegramAPIURL},

	modeSwitch(ModeCron, "cron", true, "run the scheduler: jobs from ALBERT_CODE_CRON_MODE_FILE (see docs/serve-cron.md)", func(c *Config) *bool { return &c.Cron.Enabled }),
	{Suffix: "CRON_MODE_FILE", Flag: "cron-file", Original: true, Help: "the jobs' YAML file",
		set: func(c *Config, v string) error { c.Cron.File = v; return nil }},
	{Suffix: "CRON_MODE_HISTORY_DIR", Flag: "cron-history-dir", Original: true, Help: "where each job's runs are kept",
		set: func(c *Config, v string) error { c.Cron.HistoryDir = v; return nil }},

	{Suffix: "ADAPTER", Flag: "adapter", Original: true, Default: DefaultAdapter,
		Help: "native, claude, codex, pi, albert-code, or a .toml adapter file",
		set:  setAdapter},
	{Suffix: "AGENT_BINARY", Flag: "agent-binary", Original: true, Help: "the program a CLI adapter runs, instead of its usual name",
		set: func(c *Config, v string) error { c.AgentBinary = v; return nil }},
	{Suffix: "ADAPTER_SANDBOX", Flag: "adapter-sandbox", Default: "off",
		Help: "OS sandbox of a CLI adapter's agent: off, read-only or workspace-write (writes to its workspace and ADAPTER_SANDBOX_WRITABLE only; network on)",
		set:  parseAdapterSandbox},
	{Suffix: "ADAPTER_SANDBOX_WRITABLE", Flag: "adapter-sandbox-writable",
		Help: "folders a sandboxed CLI agent may write besides its workspace, comma separated (its own state: ~/.claude, $CODEX_HOME)",
		set: func(c *Config, v string) error {
			c.AdapterWritable = nil
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					c.AdapterWritable = append(c.AdapterWritable, p)
				}
			}
			return nil
		}},
	{Suffix: "SANDBOXED", Flag: "sandboxed", Switch: true,
		Help: "1: serve runs inside a container or sandbox of its own (our container images set it), so CLI agents may run as root with their permission prompts off (Claude Code is told IS_SANDBOX=1); that container is then the only boundary around them",
		set:  func(c *Config, v string) error { return parseSwitch(v, &c.Sandboxed) }},
	{Suffix: "WORKSPACE", Flag: "workspace", Original: true, Legacy: []string{"AICODE_WORKSPACE"}, Default: DefaultWorkspace,
		Help: "root folder of the workspaces",
		set:  func(c *Config, v string) error { c.Workspace = v; return nil }},
	{Suffix: "AVAILABLE_MODELS", Flag: "available-models", Original: true,
		Help: "models offered by /v1/models, comma separated (default: the adapter's)",
		set:  func(c *Config, v string) error { c.AvailableModels = splitList(v); return nil }},
	{Suffix: "AVAILABLE_EFFORTS", Flag: "available-efforts", Original: true,
		Help: "thinking levels offered, comma separated (default: the adapter's)",
		set:  func(c *Config, v string) error { c.AvailableEfforts = splitList(v); return nil }},
	{Suffix: "TIMEOUT", Flag: "timeout", Default: formatDuration(runner.DefaultTimeout), Help: "total time of a run that sets none (a duration, or seconds)",
		set: func(c *Config, v string) error { return parseDuration(v, &c.Timeout) }},
	{Suffix: "IDLE_TIMEOUT", Flag: "idle-timeout", Default: formatDuration(runner.DefaultIdleTimeout), Help: "time without output after which a run is stopped",
		set: func(c *Config, v string) error { return parseDuration(v, &c.IdleTimeout) }},
	{Suffix: "QUEUE_BOUND", Flag: "queue-bound", Default: strconv.Itoa(workspace.DefaultMaxWaiters), Help: "runs that may wait for one workspace before a 429 (0: none waits)",
		set: func(c *Config, v string) error { return parseCount(v, &c.QueueBound) }},
	{Suffix: "RESULT_RETENTION", Flag: "result-retention", Default: formatDuration(runstore.DefaultRetention), Help: "how long finished runs stay readable",
		set: func(c *Config, v string) error { return parseDuration(v, &c.Retention) }},
	{Suffix: "RUN_STORE", Flag: "run-store", Help: "SQLite file of the run store (default: serve/runs.db under ALBERT_CODE_HOME)",
		set: func(c *Config, v string) error { c.RunStore = v; return nil }},
	{Suffix: "DATABASE_URL", Flag: "database-url", Secret: true, Help: "postgres:// URL of the state shared by many replicas (default: the SQLite run store)",
		set: func(c *Config, v string) error { c.DatabaseURL = v; return nil }},
}

func modeSwitch(m Mode, flag string, original bool, help string, field func(*Config) *bool) *Setting {
	return &Setting{Suffix: string(m) + "_MODE", Flag: flag, Original: original, Switch: true, Help: help + " (1 turns it on)",
		set: func(c *Config, v string) error { return parseSwitch(v, field(c)) }}
}

// noEffect are original names read but without use here, with the reason.
var noEffect = map[string]string{
	"AICODEBOX_CONTAINER_NAME": "the container's auth file is not read: pass provider keys in the environment",
	"AICODE_CONTAINER_NAME":    "the container's auth file is not read: pass provider keys in the environment",
	"CLAUDEBOX_CONTAINER_NAME": "the container's auth file is not read: pass provider keys in the environment",
	"PIBOX_CONTAINER_NAME":     "the container's auth file is not read: pass provider keys in the environment",
	"CODEXBOX_CONTAINER_NAME":  "the container's auth file is not read: pass provider keys in the environment",
}

// pythonAdapters maps the original's adapter classes to our built-in adapters.
var pythonAdapters = map[string]string{
	"ClaudecodeAdapter": "claude",
	"PiAdapter":         "pi",
	"CodexAdapter":      "codex",
}

// setAdapter takes an adapter name, and the original's "package.module:Class" for
// the three agents it shipped.
func setAdapter(c *Config, v string) error {
	if mod, class, ok := strings.Cut(v, ":"); ok && !strings.ContainsAny(mod, "/\\") {
		if name, known := pythonAdapters[class]; known {
			c.Adapter = name
			return nil
		}
		return errorf("%q is a Python adapter class: name a built-in adapter (native, claude, codex, pi, albert-code) or a .toml adapter file", v)
	}
	c.Adapter = v
	return nil
}

// setTelegramAPIURL takes an http or https URL with a host and no path past "/".
func setTelegramAPIURL(c *Config, v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return errorf("not a Bot API base URL: want one such as %s or http://127.0.0.1:8081", DefaultTelegramAPIURL)
	}
	c.Telegram.APIURL = strings.TrimSuffix(v, "/")
	return nil
}
