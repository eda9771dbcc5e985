package acp

import (
	"fmt"
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
)

// mcpCapabilities are the MCP transports we connect to besides stdio, which every
// agent must support: Streamable HTTP and the legacy HTTP+SSE transport, both
// through the MCP Go SDK's clients.
var mcpCapabilities = sdk.McpCapabilities{Http: true, Sse: true}

// maxServerName is config's limit for a server name, so tool names keep room for the
// tool's own name within the 64 characters providers accept.
const maxServerName = 32

// withEditorMCP returns env with the editor's MCP servers added to the configured
// ones, to start with the session's first run and stop when env is closed, and the
// notices for the editor's user. On a name clash the editor's server replaces the
// configured one: the editor's user chose it for this workspace, and keeping both
// would offer the model two copies of the same tools.
func withEditorMCP(env *agentenv.Env, servers []sdk.McpServer) (*agentenv.Env, []string) {
	if len(servers) == 0 {
		return env, nil
	}
	merged := slices.Clone(env.Config.MCPServers)
	var notices []string
	taken := map[string]bool{}
	for _, m := range servers {
		srv, note := editorServer(m)
		if note != "" {
			notices = append(notices, note)
		}
		if srv.Name == "" {
			continue
		}
		srv.Name = uniqueName(srv.Name, taken)
		if i := slices.IndexFunc(merged, func(c config.MCPServer) bool { return c.Name == srv.Name }); i >= 0 {
			notices = append(notices, fmt.Sprintf("The editor's MCP server %q replaces the server of the same name in your configuration ([mcp_servers.%s]) for this session.", srv.Name, srv.Name))
			merged[i] = srv
			continue
		}
		merged = append(merged, srv)
	}
	cfg := *env.Config
	cfg.MCPServers = merged
	e := *env
	e.Config = &cfg
	return &e, notices
}

// editorServer turns one server of session/new or session/load into a configured
// server; an empty name means it cannot be started, and the notice says why.
func editorServer(m sdk.McpServer) (config.MCPServer, string) {
	srv := config.MCPServer{StartupTimeout: config.DefaultMCPStartupTimeout, ToolTimeout: config.DefaultMCPToolTimeout}
	switch {
	case m.Stdio != nil:
		if strings.TrimSpace(m.Stdio.Command) == "" {
			return config.MCPServer{}, fmt.Sprintf("The editor's MCP server %q was not started: it has no command.", m.Stdio.Name)
		}
		srv.Name, srv.Command, srv.Args = serverName(m.Stdio.Name), m.Stdio.Command, m.Stdio.Args
		if len(m.Stdio.Env) > 0 {
			srv.Env = map[string]string{}
			for _, v := range m.Stdio.Env {
				srv.Env[v.Name] = v.Value
			}
		}
	case m.Http != nil:
		srv.Name, srv.URL, srv.Headers = serverName(m.Http.Name), m.Http.Url, headers(m.Http.Headers)
	case m.Sse != nil:
		srv.Name, srv.URL, srv.Headers, srv.SSE = serverName(m.Sse.Name), m.Sse.Url, headers(m.Sse.Headers), true
	case m.Acp != nil:
		return config.MCPServer{}, fmt.Sprintf("The editor's MCP server %q was not started: albert-code does not support MCP over the ACP channel (mcpCapabilities.acp is false); offer it over stdio or HTTP.", m.Acp.Name)
	default:
		return config.MCPServer{}, "An MCP server of an unknown type sent by the editor was not started."
	}
	if srv.Command == "" && strings.TrimSpace(srv.URL) == "" {
		return config.MCPServer{}, fmt.Sprintf("The editor's MCP server %q was not started: it has no URL.", srv.Name)
	}
	return srv, ""
}

func headers(hs []sdk.HttpHeader) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	out := make(map[string]string, len(hs))
	for _, h := range hs {
		out[h.Name] = h.Value
	}
	return out
}

// serverName keeps an editor's server name to what a tool name prefix may hold, as
// config requires of [mcp_servers] names: "My files" becomes "My_files".
func serverName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, strings.TrimSpace(name))
	if name == "" {
		name = "editor"
	}
	if len(name) > maxServerName {
		name = name[:maxServerName]
	}
	return name
}

// uniqueName numbers the second and later editor servers that share a name.
func uniqueName(name string, taken map[string]bool) string {
	out := name
	for i := 2; taken[out]; i++ {
		suffix := fmt.Sprintf("_%d", i)
		out = name[:min(len(name), maxServerName-len(suffix))] + suffix
	}
	taken[out] = true
	return out
}
