// Package config reads the serve layer's configuration from the environment and the
// command line, and checks at start-up that every mode switched on can work. Names
// follow the seed's rule: ALBERT_CODE_<MODE>_MODE=1 turns a mode on and
// ALBERT_CODE_<MODE>_MODE_<KNOB> configures it; other settings are bare
// (ALBERT_CODE_ADAPTER...). The original's AICODEBOX_* names are read as aliases so
// its users move over unchanged. Everything here is a pure function of its inputs.
package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
)

// Defaults, with their reasons.
const (
	// DefaultAPIPort is the original's.
	DefaultAPIPort = 8080
	// DefaultMCPPort is the original's port for a standalone MCP server; with the
	// API on, MCP is served on the API's port unless given its own.
	DefaultMCPPort = 8081
	// DefaultAdapter runs our agent in-process: no subprocess, true streaming.
	DefaultAdapter = "native"
	// DefaultWorkspace is the original's root, the folder its container mounts.
	DefaultWorkspace = "/workspace"
	// DefaultTelegramAPIURL is Telegram's cloud Bot API.
	DefaultTelegramAPIURL = "https://api.telegram.org"
)

// Mode names a way of serving, as it appears in variable names.
type Mode string

const (
	ModeAPI      Mode = "API"
	ModeMCP      Mode = "MCP"
	ModeTelegram Mode = "TELEGRAM"
	ModeCron     Mode = "CRON"
)

// Modes lists every mode, in the order they are documented.
var Modes = []Mode{ModeAPI, ModeMCP, ModeTelegram, ModeCron}

// Config is the serve layer's configuration.
type Config struct {
	API      API
	MCP      MCP
	Telegram Telegram
	Cron     Cron

	// Adapter is "native", a built-in CLI adapter's name, or a .toml adapter file.
	Adapter string
	// AgentBinary overrides the program a CLI adapter runs.
	AgentBinary string
	// AdapterSandbox confines a CLI adapter's agent: "" (off), "read-only" or
	// "workspace-write"; AdapterWritable are more folders it may write.
	AdapterSandbox  string
	AdapterWritable []string
	// Sandboxed says serve itself runs in a container or sandbox of its own: CLI
	// agents may run as root with their permission prompts off.
	Sandboxed bool
	// Workspace is the root every workspace name resolves under.
	Workspace string
	// AvailableModels is what /v1/models offers; empty means the adapter's own list.
	AvailableModels []string
	// AvailableEfforts restricts the thinking levels offered; empty means the adapter's.
	AvailableEfforts []string
	// Timeout and IdleTimeout are the limits of requests that set none.
	Timeout, IdleTimeout time.Duration
	// QueueBound is how many runs may wait for one workspace (0: none waits).
	QueueBound int
	// Retention is how long finished runs stay readable.
	Retention time.Duration
	// RunStore is the SQLite file of the run store; empty means the caller's
	// default (under ALBERT_CODE_HOME).
	RunStore string
	// DatabaseURL, when set, puts the runs and the cluster's state in PostgreSQL,
	// shared by every replica given the same URL; RunStore is then unused.
	DatabaseURL string

	// origin is the variable or flag each setting came from, by Suffix.
	origin map[string]string
}

// API is the HTTP API mode (/run, /files, the OpenAI-compatible endpoint).
type API struct {
	Enabled bool
	Host    string
	Port    int
	// Tokens are the accepted bearer tokens; none means no authentication.
	Tokens []string
	// MaxBody is the largest request body read, in bytes.
	MaxBody int64
	// KeepAliveTimeout closes a connection idle between requests; BodyTimeout
	// bounds the time to receive a request body (api.ConnLimits).
	KeepAliveTimeout, BodyTimeout time.Duration
	// MaxConnsPerClient caps the connections open at once from one address; 0
	// means no cap.
	MaxConnsPerClient int
}

// MCP is the MCP server mode.
type MCP struct {
	Enabled bool
	// Port is the MCP server's own port; 0 means the API's port (/mcp).
	Port           int
	Tokens         []string
	AllowedHosts   []string
	AllowedOrigins []string
}

// Telegram is the Telegram bot mode (internal/serve/telegram).
type Telegram struct {
	Enabled bool
	// Token is the bot's; cron notifications use it too.
	Token string
	// File is the bot's YAML and Overrides its per-chat overrides; empty means
	// the caller's defaults (under ALBERT_CODE_HOME).
	File, Overrides string
	// APIURL is the Bot API's base URL, without a trailing slash.
	APIURL string
}

// Cron is the scheduler mode (internal/serve/cron).
type Cron struct {
	Enabled          bool
	File, HistoryDir string
}

// Enabled reports whether mode m is on.
func (c *Config) Enabled(m Mode) bool {
	switch m {
	case ModeAPI:
		return c.API.Enabled
	case ModeMCP:
		return c.MCP.Enabled
	case ModeTelegram:
		return c.Telegram.Enabled
	case ModeCron:
		return c.Cron.Enabled
	}
	return false
}

// Refusal is the error the server refuses to start with: every problem at once,
// each naming the variable or flag at fault (its Where) and what to do.
func Refusal(ps problems.List) error { return ps.Titled("serve configuration") }

func parseAdapterSandbox(c *Config, v string) error {
	switch v = strings.ToLower(strings.TrimSpace(v)); v {
	case "", "off":
		c.AdapterSandbox = ""
	case "read-only", "workspace-write":
		c.AdapterSandbox = v
	default:
		return fmt.Errorf("want off, read-only or workspace-write, not %q", v)
	}
	return nil
}
