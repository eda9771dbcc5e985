package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// Set is the running servers of one session and the tools they offer.
type Set struct {
	servers  []*Server
	tools    []tool.Tool
	warnings []string
}

// Start starts every enabled server at once and lists its tools, each within its
// startup timeout. A server that fails is closed and reported in Warnings, and the
// others go on: one broken server must not stop the agent.
func Start(ctx context.Context, servers []config.MCPServer, o Options) *Set {
	type started struct {
		server   *Server
		tools    []tool.Tool
		warnings []string
		err      error
	}
	results := make([]started, len(servers))
	var wg sync.WaitGroup
	for i, cfg := range servers {
		if cfg.Disabled {
			continue
		}
		wg.Go(func() {
			s := NewServer(cfg, o)
			tools, warnings, err := s.offer(ctx)
			if err != nil {
				_ = s.Close()
			}
			results[i] = started{server: s, tools: tools, warnings: warnings, err: err}
		})
	}
	wg.Wait()
	set := &Set{}
	taken := map[string]bool{}
	for name := range o.Reserved {
		taken[name] = true
	}
	for _, r := range results {
		set.warnings = append(set.warnings, r.warnings...)
		switch {
		case r.server == nil:
		case r.err != nil:
			set.warnings = append(set.warnings, fmt.Sprintf("%v; its tools are left out", r.err))
		default:
			set.servers = append(set.servers, r.server)
			for _, t := range r.tools {
				p := t.(*proxy)
				p.info.Name = toolName(r.server.Name(), p.remote, taken)
				set.tools = append(set.tools, p)
			}
		}
	}
	return set
}

// offer starts s and wraps the tools its filters keep. A tool whose schema cannot
// be offered is left out with a warning.
func (s *Server) offer(ctx context.Context) ([]tool.Tool, []string, error) {
	enabled, err := tool.ParseNamePatterns(s.cfg.EnabledTools)
	if err != nil {
		return nil, nil, err
	}
	disabled, err := tool.ParseNamePatterns(s.cfg.DisabledTools)
	if err != nil {
		return nil, nil, err
	}
	remote, err := s.Start(ctx)
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(remote, func(i, j int) bool { return remote[i].Name < remote[j].Name })
	var out []tool.Tool
	var warnings []string
	for _, t := range remote {
		if len(enabled) > 0 && !tool.MatchAny(enabled, t.Name) || tool.MatchAny(disabled, t.Name) {
			continue
		}
		p, err := newProxy(s, t)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("MCP server %s: %v; this tool is left out", s.Name(), err))
			continue
		}
		out = append(out, p)
	}
	return out, warnings, nil
}

// Tools are the proxies of every server that started, by server then tool name.
func (s *Set) Tools() []tool.Tool { return s.tools }

// Warnings say which servers failed to start and why.
func (s *Set) Warnings() []string { return s.warnings }

// Close stops every server, in parallel: each may wait for its process to exit.
func (s *Set) Close() error {
	errs := make([]error, len(s.servers))
	var wg sync.WaitGroup
	for i, srv := range s.servers {
		wg.Go(func() { errs[i] = srv.Close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}
