package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// maxOutput caps what one call returns to the model: about 8,000 tokens, as much as
// a file read (judgement; a server can return megabytes of JSON).
const maxOutput = 32 << 10

// proxy is one of a server's tools, offered to the model as an ordinary tool.
type proxy struct {
	server *Server
	remote string // the tool's name on the server
	info   tool.Info
}

func newProxy(s *Server, t *sdk.Tool) (*proxy, error) {
	schema, err := inputSchema(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	// MCP tools are never marked read-only: the server's readOnlyHint is a claim the
	// specification calls untrusted, and read-only tools run without asking.
	// [tools.<name>] permission = "always" lets one run freely.
	return &proxy{server: s, remote: t.Name, info: tool.Info{
		Description: strings.TrimSpace(fmt.Sprintf("%s\n\n(MCP server %s, tool %s)", desc, s.Name(), t.Name)),
		Schema:      schema,
		Kind:        tool.KindOther,
	}}, nil
}

func (p *proxy) Info() tool.Info { return p.info }

func (p *proxy) Run(ctx context.Context, call tool.Call) (tool.Result, error) {
	args := bytes.TrimSpace(call.Args)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	if args[0] != '{' {
		return tool.Errorf("the arguments of %s must be one JSON object", p.info.Name), nil
	}
	res, err := p.server.Call(ctx, p.remote, args, call.Progress)
	if err != nil {
		return tool.Result{}, err
	}
	out, truncated := tool.Cap(resultText(res), maxOutput)
	return tool.Result{Output: out, IsError: res.IsError, Truncated: truncated}, nil
}

// inputSchema is the server's schema as providers want it: a JSON object of type
// "object" with properties, even for a tool that takes no arguments.
func inputSchema(s any) (json.RawMessage, error) {
	m, ok := s.(map[string]any)
	if s == nil {
		m, ok = map[string]any{}, true
	}
	if !ok {
		return nil, fmt.Errorf("input schema is a %T, not a JSON object", s)
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	if m["type"] == "object" {
		if _, ok := m["properties"]; !ok {
			m["properties"] = map[string]any{}
		}
	}
	return json.Marshal(m)
}
