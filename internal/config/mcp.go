package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// MCPServer is one [mcp_servers.<name>] table: an MCP server whose tools the agent
// offers the model as <name>_<tool>. A server has either a Command (stdio) or a URL
// (Streamable HTTP).
type MCPServer struct {
	Name string
	// Command, Args, Env and Cwd start a stdio server. Env is added to the agent's
	// environment; Cwd defaults to the working directory.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL and Headers reach a Streamable HTTP server.
	URL     string
	Headers map[string]string
	// BearerTokenEnv names a variable whose value is sent as "Authorization: Bearer
	// <value>" unless Headers already set Authorization: the token stays out of files.
	BearerTokenEnv string
	// SSE reaches URL over MCP's legacy HTTP+SSE transport instead of Streamable
	// HTTP. Not a TOML key: the ACP face sets it for the SSE servers an editor sends.
	SSE bool
	// EnabledTools and DisabledTools filter the server's tools by their own names
	// (not prefixed): exact names, globs or re: expressions, as enabled_tools.
	EnabledTools, DisabledTools []string
	// StartupTimeout bounds starting, the handshake and listing the tools;
	// ToolTimeout bounds one call.
	StartupTimeout, ToolTimeout time.Duration
	// Disabled servers are not started (enabled = false).
	Disabled bool
	// Sandbox confines a stdio server: "" or "off" (the default: servers are
	// programs the user chose, and many need the network and their own files),
	// "read-only" or "workspace-write". Its environment is scrubbed of secrets
	// in every mode; what Env sets is passed as written.
	Sandbox string
	// Sampling says what happens when the server asks the session's model for an
	// answer (sampling/createMessage): SamplingAsk (the default, also for ""), the
	// user approves each request; SamplingAllow answers unasked, even in -p;
	// SamplingDeny refuses every request.
	Sampling string
}

// The values of [mcp_servers.<name>] sampling.
const (
	SamplingAsk   = "ask"
	SamplingAllow = "allow"
	SamplingDeny  = "deny"
)

// Default MCP timeouts, the original's (notes §2.9): a server that needs more than
// 10 s to start is reported and skipped, a call that needs more than a minute is
// stopped.
const (
	DefaultMCPStartupTimeout = 10 * time.Second
	DefaultMCPToolTimeout    = 60 * time.Second
)

// IsHTTP reports whether the server is reached over Streamable HTTP.
func (s MCPServer) IsHTTP() bool { return s.URL != "" }

type mcpServerLayer struct {
	Command        *string            `toml:"command"`
	Args           *[]string          `toml:"args"`
	Env            *map[string]string `toml:"env"`
	Cwd            *string            `toml:"cwd"`
	URL            *string            `toml:"url"`
	Headers        *map[string]string `toml:"headers"`
	BearerTokenEnv *string            `toml:"bearer_token_env"`
	EnabledTools   *[]string          `toml:"enabled_tools"`
	DisabledTools  *[]string          `toml:"disabled_tools"`
	StartupTimeout *string            `toml:"startup_timeout"`
	ToolTimeout    *string            `toml:"tool_timeout"`
	Enabled        *bool              `toml:"enabled"`
	Sandbox        *string            `toml:"sandbox"`
	Sampling       *string            `toml:"sampling"`
}

// validMCPServerName keeps names to what providers accept in a tool name prefix
// (OpenAI and Anthropic: [a-zA-Z0-9_-]); a name outside it would be renamed behind
// the user's back, so it is refused where it is written. 32 leaves room for the
// tool's own name within the 64 characters providers allow.
func validMCPServerName(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// applyMCPServers merges [mcp_servers.*] tables by name, field by field.
func (c *Config) applyMCPServers(servers map[string]mcpServerLayer, o origin) error {
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		raw := "mcp_servers." + name
		if !validMCPServerName(name) {
			return fieldError(o, raw, raw, fmt.Sprintf("invalid MCP server name %q: use 1 to 32 letters, digits, _ or -", name), "")
		}
		i := slices.IndexFunc(c.MCPServers, func(s MCPServer) bool { return s.Name == name })
		if i < 0 {
			c.MCPServers = append(c.MCPServers, MCPServer{Name: name,
				StartupTimeout: DefaultMCPStartupTimeout, ToolTimeout: DefaultMCPToolTimeout, Sampling: SamplingAsk})
			i = len(c.MCPServers) - 1
		}
		if err := c.applyMCPServer(&c.MCPServers[i], servers[name], raw, o); err != nil {
			return err
		}
	}
	return c.checkMCPServers(o)
}

func (c *Config) applyMCPServer(s *MCPServer, l mcpServerLayer, raw string, o origin) error {
	rec := func(field string) { c.sources[raw+"."+field] = o(raw + "." + field) }
	str := func(dst, src *string, field string) {
		if src != nil {
			*dst = *src
			rec(field)
		}
	}
	str(&s.Command, l.Command, "command")
	str(&s.Cwd, l.Cwd, "cwd")
	str(&s.URL, l.URL, "url")
	str(&s.BearerTokenEnv, l.BearerTokenEnv, "bearer_token_env")
	if l.Args != nil {
		s.Args = slices.Clone(*l.Args)
		rec("args")
	}
	if l.Env != nil {
		s.Env = mergeStrings(s.Env, *l.Env)
		rec("env")
	}
	if l.Headers != nil {
		s.Headers = mergeStrings(s.Headers, *l.Headers)
		rec("headers")
	}
	for _, f := range []struct {
		dst   *[]string
		src   *[]string
		field string
	}{{&s.EnabledTools, l.EnabledTools, "enabled_tools"}, {&s.DisabledTools, l.DisabledTools, "disabled_tools"}} {
		if f.src != nil {
			if err := checkPatterns(*f.src, o, raw+"."+f.field); err != nil {
				return err
			}
			*f.dst = slices.Clone(*f.src)
			rec(f.field)
		}
	}
	for _, f := range []struct {
		dst   *time.Duration
		src   *string
		field string
	}{{&s.StartupTimeout, l.StartupTimeout, "startup_timeout"}, {&s.ToolTimeout, l.ToolTimeout, "tool_timeout"}} {
		if f.src != nil {
			d, err := parseDuration(*f.src)
			if err != nil {
				return fieldError(o, raw+"."+f.field, raw+"."+f.field, err.Error(), "")
			}
			*f.dst = d
			rec(f.field)
		}
	}
	if l.Enabled != nil {
		s.Disabled = !*l.Enabled
		rec("enabled")
	}
	if l.Sandbox != nil {
		switch *l.Sandbox {
		case "", "off", "read-only", "workspace-write":
			s.Sandbox = *l.Sandbox
			rec("sandbox")
		default:
			return fieldError(o, raw+".sandbox", raw+".sandbox", fmt.Sprintf("invalid sandbox mode %q", *l.Sandbox), "want off, read-only or workspace-write")
		}
	}
	if l.Sampling != nil {
		switch *l.Sampling {
		case SamplingAsk, SamplingAllow, SamplingDeny:
			s.Sampling = *l.Sampling
			rec("sampling")
		default:
			return fieldError(o, raw+".sampling", raw+".sampling", fmt.Sprintf("invalid sampling mode %q", *l.Sampling), "want ask, allow or deny")
		}
	}
	return nil
}

// checkMCPServers refuses a server that is both stdio and HTTP, or neither: which one
// the user meant cannot be guessed.
func (c *Config) checkMCPServers(o origin) error {
	for _, s := range c.MCPServers {
		raw := "mcp_servers." + s.Name
		switch {
		case s.Command != "" && s.URL != "":
			return fieldError(o, raw+".url", raw, "has both command (stdio) and url (HTTP)", "keep one of them")
		case s.Command == "" && s.URL == "":
			return fieldError(o, raw, raw, "has neither command (a stdio server) nor url (a Streamable HTTP server)", "")
		case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
			return fieldError(o, raw+".url", raw+".url", fmt.Sprintf("URL %q must start with http:// or https://", s.URL), "")
		}
	}
	return nil
}

func mergeStrings(dst, src map[string]string) map[string]string {
	out := maps.Clone(dst)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, src)
	return out
}
