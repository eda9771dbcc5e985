// Package mcpserver serves the code graph to agents over the Model Context
// Protocol: the index, the questions of package query and read-only SQL as MCP
// tools, every answer paged to fit the response budget an agent host accepts.
package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// Profile chooses which tools the server lists.
type Profile string

const (
	// Core is the small set an agent needs first (the peer's 8-tool core profile).
	Core Profile = "core"
	// Full adds one tool per remaining question kind.
	Full Profile = "full"
)

// ProfileEnv names the environment variable that picks the profile when no flag does.
const ProfileEnv = "ALBERT_CODE_GRAPH_PROFILE"

// ParseProfile reads a profile name; the empty string is Full.
func ParseProfile(s string) (Profile, error) {
	switch Profile(strings.ToLower(strings.TrimSpace(s))) {
	case Core:
		return Core, nil
	case Full, "":
		return Full, nil
	}
	return "", fmt.Errorf("unknown graph profile %q: want core or full", s)
}

// Config is what a server needs to know about the repository it serves.
type Config struct {
	// Root is the repository's absolute path.
	Root string
	// IndexPath locates Root's index database; with create it also makes the
	// folder (analyze_codebase), without it only looks for an existing one.
	IndexPath func(create bool) (string, error)
	Profile   Profile
	// Index configures analyze_codebase's runs (extractors, limits) and the
	// freshness scans; Rebuild and Progress are ignored.
	Index index.Options
	// Version is reported by health_check and in the MCP handshake.
	Version string
	// Vectors, when set, adds the embeddings leg to search_codebase.
	Vectors query.VectorLeg
	// Budget is the most bytes one tool response may take on the wire (zero means
	// MaxResponseChars). Tests lower it to exercise paging.
	Budget int
	// Lifetime, when set, makes the server long-lived: until it is done, the
	// index stays open and the tree is watched (index.Live), so a question pays
	// neither for opening the store nor for walking the tree, and is answered
	// from an index that holds every edit made before it. Nil opens the index
	// for each call and walks the tree to say how fresh it is.
	Lifetime context.Context
}

// questionTool exposes one kind of query.Ask as a tool of its own.
type questionTool struct {
	name, kind, description string
	core                    bool
}

// questionTools are registered only when query.Kinds has their kind, so a
// question the engine cannot answer is never advertised.
var questionTools = []questionTool{
	{"get_definition", "definition", "Where SYMBOL is defined: qualified name, kind, file and line of each definition it names (several when a bare name is ambiguous).", false},
	{"find_callers", "callers", "Every function or method that calls SYMBOL, with the call site (site_file, site_line) and how the edge was resolved. Paged.", false},
	{"find_callees", "callees", "Every function or method SYMBOL calls, with the call site and how the edge was resolved. Paged.", false},
	{"find_references", "references", "Every place that refers to SYMBOL (calls, type uses, reads), with the site. Paged.", false},
	{"find_implementations", "implementations", "For an interface: the types that implement it; for a type: the interfaces it implements. Go edges come from the type checker, so implicit satisfaction is included. Paged.", false},
	{"get_impact", "impact", "What may break if SYMBOL changes: its transitive dependents, each with the confidence of its path. Paged.", true},
	{"get_context", "context", "SYMBOL with its neighbourhood (definition, callers, callees, implementations) within a size budget.", true},
	{"trace_process", "process", "What an entry point runs: the functions SYMBOL calls, transitively (3 hops), interface calls followed to the implementations in the module. Paged.", false},
}

// New builds the MCP server for cfg; serve it with its Run method.
func New(cfg Config) *mcp.Server {
	s, _ := newServer(cfg)
	return s
}

func newServer(cfg Config) (*mcp.Server, *handler) {
	if cfg.Profile == "" {
		cfg.Profile = Full
	}
	if cfg.Budget <= 0 {
		cfg.Budget = MaxResponseChars
	}
	h := &handler{cfg: cfg}
	s := mcp.NewServer(&mcp.Implementation{Name: "albert-code-graph", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: "Code graph of " + cfg.Root + ". Start with health_check; if no index exists call analyze_codebase. " +
			"Every answer says whether it is exact or a lower-bound, and how fresh the index is. " +
			"Lists are paged: pass next_offset back as offset while truncated is true.",
	})
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}

	mcp.AddTool(s, &mcp.Tool{Name: "health_check", Annotations: ro,
		Description: "Is the index there, what does it hold (files, nodes, edges by kind, unresolved sites) and how fresh is it (indexed commit, HEAD, files changed since). Call it first."},
		h.healthCheck)
	mcp.AddTool(s, &mcp.Tool{Name: "analyze_codebase", Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(bool), OpenWorldHint: new(bool)},
		Description: "Build or refresh the index of the repository. Incremental: only files whose content changed are parsed again, so call it whenever health_check says the index is stale. Returns the indexing report."},
		h.analyze)
	mcp.AddTool(s, &mcp.Tool{Name: "search_codebase", Annotations: ro,
		Description: "Find symbols by words (BM25 over names, qualified names, signatures, doc comments and paths; identifiers are split, so parseConfig matches parse and config). Use it when you do not know a symbol's exact name. Paged."},
		h.search)
	mcp.AddTool(s, &mcp.Tool{Name: "get_symbol", Annotations: ro,
		Description: "One symbol at a glance: its definition(s), the functions that call it and the functions it calls, each list with its total. offset/limit page both lists together."},
		h.symbol)
	mcp.AddTool(s, &mcp.Tool{Name: "query_graph", Annotations: ro,
		Description: "Run one read-only SQL statement (SELECT, WITH or VALUES) on the index, for questions the other tools do not answer. Writes, attached databases and pragmas are refused; at most max_rows rows are computed and a timeout applies. Tables: files, nodes, edges, unresolved (see `albert-code graph schema`). Write ORDER BY when you page, or pages may overlap."},
		h.sql)
	mcp.AddTool(s, &mcp.Tool{Name: "detect_changes", Annotations: ro,
		Description: "Map the working tree's git diff (against base, default HEAD) onto the definitions it touches: for each, the changed lines, how many definitions depend on it (impact, 3 hops), a risk_score in [0,1] and its factors; with the communities and processes (entry points' flows) the change reaches. The score is a heuristic and the answer gives its formula; files the index has no definitions for are listed apart."},
		h.detectChanges)
	if cfg.Profile != Core {
		mcp.AddTool(s, &mcp.Tool{Name: "get_cochange", Annotations: ro,
			Description: "Files that git history shows changing together with a file (relative to the repository): how many commits changed both, and what share of the file's changes they are. Catches coupling the call graph cannot see; bulk commits are left out."},
			h.cochange)
		mcp.AddTool(s, &mcp.Tool{Name: "get_communities", Annotations: ro,
			Description: "Groups of symbols more connected to each other than to the rest (deterministic Louvain, then disconnected groups split; edges weighted by kind). Without symbol: the communities by size, paged, each named after its main directory and most connected member. With symbol: that symbol's community and its members. A heuristic view, and the answer says so."},
			h.communities)
		mcp.AddTool(s, &mcp.Tool{Name: "get_entry_points", Annotations: ro,
			Description: "Where execution enters the code: main and init functions, test functions, and exported functions or methods nothing in the repository calls (the API surface). A heuristic, and the answer says so. Paged."},
			h.entryPoints)
	}
	for _, q := range questionTools {
		if !slices.Contains(query.Kinds, q.kind) || (cfg.Profile == Core && !q.core) {
			continue
		}
		if q.kind == "impact" {
			mcp.AddTool(s, &mcp.Tool{Name: q.name, Annotations: ro, Description: q.description +
				" depth sets how many hops to walk (default 3, at most 10); from_hop and to_hop select hops, by_hop counts every hop. SYMBOL is a qualified name or a bare name; an unknown one returns did_you_mean."},
				h.impact)
			continue
		}
		mcp.AddTool(s, &mcp.Tool{Name: q.name, Annotations: ro,
			Description: q.description + " SYMBOL is a qualified name (example.com/m/pkg.Type.Method) or a bare name; an unknown one returns did_you_mean."},
			h.question(q.kind))
	}
	h.addPrompts(s)
	return s, h
}

// handler holds what the tools share.
type handler struct {
	cfg Config
	// analyzing serialises index runs: two at once would race on the same files.
	analyzing sync.Mutex

	liveMu sync.Mutex
	live   *index.Live // the kept index, when cfg.Lifetime is set and an index exists
}
