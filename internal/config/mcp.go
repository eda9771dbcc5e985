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
	at := raw + "."
	merged := func(dst map[string]string) func(map[string]string) (map[string]string, error) {
		return func(src map[string]string) (map[string]string, error) { return mergeStrings(dst, src), nil }
	}
	return c.runSteps(o,
		key(at+"command", l.Command, &s.Command, keep),
		key(at+"cwd", l.Cwd, &s.Cwd, keep),
		key(at+"url", l.URL, &s.URL, keep),
		key(at+"bearer_token_env", l.BearerTokenEnv, &s.BearerTokenEnv, keep),
		key(at+"args", l.Args, &s.Args, cloned),
		key(at+"env", l.Env, &s.Env, merged(s.Env)),
		key(at+"headers", l.Headers, &s.Headers, merged(s.Headers)),
		key(at+"enabled_tools", l.EnabledTools, &s.EnabledTools, toolPatterns),
		key(at+"disabled_tools", l.DisabledTools, &s.DisabledTools, toolPatterns),
		key(at+"startup_timeout", l.StartupTimeout, &s.StartupTimeout, parseDuration),
		key(at+"tool_timeout", l.ToolTimeout, &s.ToolTimeout, parseDuration),
		key(at+"enabled", l.Enabled, &s.Disabled, not),
		key(at+"sandbox", l.Sandbox, &s.Sandbox, func(v string) (string, error) {
			switch v {
			case "", "off", "read-only", "workspace-write":
				return v, nil
			}
			return v, hinted{fmt.Sprintf("invalid sandbox mode %q", v), "want off, read-only or workspace-write"}
		}),
		key(at+"sampling", l.Sampling, &s.Sampling, func(v string) (string, error) {
			switch v {
			case SamplingAsk, SamplingAllow, SamplingDeny:
				return v, nil
			}
			return v, hinted{fmt.Sprintf("invalid sampling mode %q", v), "want ask, allow or deny"}
		}),
		// "allow" answers a server's requests with the user's model unasked: an
		// approval the repository's authors must not grant themselves.
		func(c *Config, o origin) error {
			if l.Sampling != nil && *l.Sampling == SamplingAllow && fromProjectFile(o, at+"sampling") {
				return fieldError(o, at+"sampling", at+"sampling",
					`sampling = "allow" is not read from a project file, which the repository's authors control`,
					"leave it to ask there, or allow the server in your global config")
			}
			return nil
		},
	)
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
