package mcp

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// code_graph is the agent's code_graph tool (package agenttool) for a workspace
// named in the call: the same questions, index refresh, output cap and JSON. The
// index lives where the CLI and the agent's own code_graph put it for that folder
// (agenttool.DefaultIndexPath: .albert-code/graph/ in the workspace, else the user's
// cache), so run_prompt's agent, `albert-code graph` and this tool share one index.

// DefaultMaxGraphs bounds the code_graph tools kept, one per workspace. Judgement: a
// tool keeps its workspace's index open and watched once it exists (index.Live), so a
// server with thousands of workspaces should not keep them all.
const DefaultMaxGraphs = 32

// GraphIn is code_graph's input: agenttool.Params and the workspace.
type GraphIn struct {
	Workspace string `json:"workspace,omitempty"`
	Question  string `json:"question"`
	Symbol    string `json:"symbol"`
	Depth     int    `json:"depth,omitempty"`
}

// graphSchema is the agent tool's input schema (with its question enum and depth
// bounds) plus the workspace.
func graphSchema(info tool.Info) json.RawMessage {
	var s map[string]any
	if err := json.Unmarshal(info.Schema, &s); err != nil {
		panic(err)
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		s["properties"] = props
	}
	props["workspace"] = map[string]any{"type": "string",
		"description": "a folder under the workspace root, such as project-a (it must exist); empty or . is the root"}
	out, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return out
}

// newGraphTool is the code_graph tool over dir with the agent's workspace rules;
// its search ranks by BM25 alone.
func newGraphTool(dir string) *agenttool.Tool {
	return agenttool.ForWorkspace(dir, agenttool.WorkspaceOptions{})
}

// codeGraph resolves the workspace as run_prompt and the file tools do (a refused
// name is a tool error naming the fault), then asks its tool.
func (s *Server) codeGraph(ctx context.Context, _ *mcpsdk.CallToolRequest, in GraphIn) (*mcpsdk.CallToolResult, any, error) {
	dir, err := s.opts.Root.Workspace(in.Workspace, false)
	if err != nil {
		return nil, nil, err
	}
	// The tool works on the real folder: a link inside the root naming another
	// workspace shares that workspace's tool, and one swapped after the check
	// cannot move the index out.
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %q: %w", in.Workspace, err)
	}
	if root := s.opts.Root.Dir(); real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
		return nil, nil, fmt.Errorf("workspace %q: a symbolic link leads outside the workspace root", in.Workspace)
	}
	tl, release := s.graphs.acquire(real)
	defer release()
	args, err := json.Marshal(agenttool.Params{Question: in.Question, Symbol: in.Symbol, Depth: in.Depth})
	if err != nil {
		return nil, nil, fmt.Errorf("code_graph: %w", err)
	}
	res, err := tl.Run(ctx, tool.Call{ID: "mcp", Args: args, Progress: func(string) {}})
	if err != nil {
		return nil, nil, fmt.Errorf("code_graph %s %s: %w", in.Question, in.Symbol, err)
	}
	out := &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: res.Output}}, IsError: res.IsError}
	if !res.IsError && json.Valid([]byte(res.Output)) {
		out.StructuredContent = json.RawMessage(res.Output)
	}
	return out, nil, nil
}

// graphCache keeps one code_graph tool per workspace folder, the least recently
// used dropped past max. Concurrent calls on one workspace share its tool, whose
// refreshes are serialised; a tool in use is never dropped, so two tools never
// refresh one index at once (the cache may exceed max while all are in use).
type graphCache struct {
	max   int
	build func(dir string) *agenttool.Tool

	mu    sync.Mutex
	order *list.List // of *graphEntry, most recently used first
	byDir map[string]*list.Element
}

type graphEntry struct {
	dir   string
	tool  *agenttool.Tool
	inUse int
}

func newGraphCache(max int, build func(string) *agenttool.Tool) *graphCache {
	if max <= 0 {
		max = DefaultMaxGraphs
	}
	return &graphCache{max: max, build: build, order: list.New(), byDir: map[string]*list.Element{}}
}

// acquire returns dir's tool, building it if needed; call release when done.
func (c *graphCache) acquire(dir string) (*agenttool.Tool, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byDir[dir]
	if ok {
		c.order.MoveToFront(el)
	} else {
		el = c.order.PushFront(&graphEntry{dir: dir, tool: c.build(dir)})
		c.byDir[dir] = el
	}
	e := el.Value.(*graphEntry)
	e.inUse++
	c.evict()
	var once sync.Once
	return e.tool, func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			e.inUse--
			c.evict()
		})
	}
}

// evict drops idle tools, oldest first, until at most max are kept. c.mu is held.
func (c *graphCache) evict() {
	for el := c.order.Back(); el != nil && c.order.Len() > c.max; {
		prev := el.Prev()
		if e := el.Value.(*graphEntry); e.inUse == 0 {
			c.order.Remove(el)
			delete(c.byDir, e.dir)
			go e.tool.Stop() // closes the index it keeps open and watched; may wait for a refresh
		}
		el = prev
	}
}

// len is how many tools are kept, for tests.
func (c *graphCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
