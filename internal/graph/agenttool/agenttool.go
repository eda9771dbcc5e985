// Package agenttool gives the agent the code graph as one native tool, code_graph:
// the structure questions of package query, answered from the workspace's index,
// which is brought up to date (incrementally) before each answer.
package agenttool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/compact"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/tool"
)

//go:embed code_graph.md
var description string

// Name is the tool's name as the model and the profiles see it.
const Name = "code_graph"

// DefaultMaxOutputBytes caps one answer. Judgement: about 4,000 tokens, twice the
// budget of a context answer (query.DefaultBudget); a longer list is a sign the
// question should be narrower, and the model is told how many items were left out.
const DefaultMaxOutputBytes = 16000

// Config is what the tool needs to know about the workspace.
type Config struct {
	// Root is the workspace's absolute path; answers' files are relative to it.
	Root string
	// IndexPath locates Root's index database; with create it also makes the
	// folder, without it only looks for an existing one (the path it returns
	// then may not exist).
	IndexPath func(create bool) (string, error)
	// Index configures the refreshes (extractors, limits); Rebuild and Progress
	// are ignored.
	Index index.Options
	// MaxOutputBytes caps an answer; zero means DefaultMaxOutputBytes.
	MaxOutputBytes int
	// Vectors, when set, adds the embeddings leg to search.
	Vectors query.VectorLeg
	// TypesWait bounds how long a question the first pass cannot answer
	// (anything but definition and search) waits for the type checker's pass
	// of a first index to land; past it, the first pass's lower bound is
	// answered, saying so. Zero means DefaultTypesWait.
	TypesWait time.Duration
}

// DefaultTypesWait is Config.TypesWait's default. Judgement: the typed pass of
// golang.org/x/tools takes 6 to 15 s on two busy cores, so a first question
// about callers there gets the exact answer, while on a repository several
// times larger the model hears the lower bound and why instead of waiting.
const DefaultTypesWait = 20 * time.Second

// Params are the arguments of code_graph.
type Params struct {
	Question string `json:"question" jsonschema:"the question: definition, callers, callees, references, implementations, impact, context, search, or changes (the workspace's edits mapped onto definitions, with their risk)"`
	Symbol   string `json:"symbol" jsonschema:"a qualified name (example.com/m/pkg.Type.Method) or a bare name (Method); for search, the words to look for; for changes, the revision to compare with (empty: HEAD)"`
	Depth    int    `json:"depth,omitempty" jsonschema:"impact only: how many hops of dependents to walk (default 3, at most 10)"`
	Detail   string `json:"detail,omitempty" jsonschema:"full (default) or ids: items as qualified names only, when names are all you need"`
	Format   string `json:"format,omitempty" jsonschema:"json (default) or tabular: items as one string, a header line then one tab-separated line per item"`
}

// Tool is the code_graph tool, with Warm to refresh the index ahead of the first
// question.
type Tool struct {
	tool.Tool
	g *graphTool
}

// New builds the code_graph tool. It is read-only for the workspace's sources; the
// index it keeps up to date is a cache (in .albert-code/graph/, which ignores itself).
func New(cfg Config) *Tool {
	if cfg.MaxOutputBytes <= 0 {
		cfg.MaxOutputBytes = DefaultMaxOutputBytes
	}
	cfg.Index.Rebuild, cfg.Index.Progress = false, nil
	if cfg.TypesWait <= 0 {
		cfg.TypesWait = DefaultTypesWait
	}
	g := &graphTool{cfg: cfg}
	return &Tool{g: g, Tool: tool.New(tool.Def[Params]{
		Info: tool.Info{Name: Name, Description: description, ReadOnly: true, Kind: tool.KindSearch,
			Schema: schema()},
		Run: g.run,
	})}
}

// Warm brings an existing index up to date in the background of a session, so the
// first question does not wait for the changes made since the last one. A workspace
// without an index is left alone: building a whole index is worth it only when the
// model asks a question, and then the question waits for it.
func (t *Tool) Warm(ctx context.Context) error {
	path, err := t.g.cfg.IndexPath(false)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	st, _, err := t.g.refresh(ctx)
	if err != nil {
		return err
	}
	return st.Close()
}

// schema is the generated schema with what Go types cannot say: the question's enum
// and the depth's bounds. Validation uses the generated one, so run checks these
// itself, with messages that say more.
func schema() json.RawMessage {
	raw, err := tool.SchemaFor[Params]()
	if err != nil {
		panic(err)
	}
	var s struct {
		Type                 string                    `json:"type"`
		Properties           map[string]map[string]any `json:"properties"`
		Required             []string                  `json:"required"`
		AdditionalProperties any                       `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		panic(err)
	}
	s.Properties["question"]["enum"] = questions()
	s.Properties["depth"]["minimum"], s.Properties["depth"]["maximum"] = 1, query.MaxDepth
	s.Properties["detail"]["enum"], s.Properties["format"]["enum"] = []string{"full", "ids"}, []string{"json", "tabular"}
	out, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return out
}

type graphTool struct {
	cfg Config
	// refreshing serialises refreshes: parallel calls would otherwise index the
	// same changes twice.
	refreshing sync.Mutex
	bg         background
	// kept is the index held open and watched (kept.go); keepingStopped is set
	// by Stop.
	kept           *index.Live
	keepingStopped bool
	rebuiltWhy     string // why refreshKept removed the index, for the next status
}

func (g *graphTool) run(ctx context.Context, _ tool.Call, p Params) (tool.Result, error) {
	if !slices.Contains(questions(), p.Question) {
		return tool.Errorf("unknown question %q: want one of %s", p.Question, strings.Join(questions(), ", ")), nil
	}
	if strings.TrimSpace(p.Symbol) == "" && p.Question != changesQuestion {
		return tool.Errorf("symbol is empty: give a qualified or bare name (for search, the words to look for)"), nil
	}
	if p.Depth < 0 || p.Depth > query.MaxDepth {
		return tool.Errorf("depth %d: want 1 to %d (or leave it out for %d)", p.Depth, query.MaxDepth, query.DefaultDepth), nil
	}
	shape := compact.Shape{Detail: p.Detail, Format: p.Format}
	if err := shape.Check(); err != nil {
		return tool.Errorf("%v", err), nil
	}
	st, refresh, err := g.refresh(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		var unusable *unusableError
		if errors.As(err, &unusable) {
			return tool.Errorf("%v; meanwhile use grep", err), nil
		}
		return tool.Result{}, err
	}
	defer st.Close()
	g.awaitTypes(ctx, p.Question, &refresh)
	if p.Question == changesQuestion {
		return g.answerChanges(ctx, st, strings.TrimSpace(p.Symbol), refresh, shape)
	}
	a, err := query.AskWith(ctx, st, p.Question, p.Symbol, query.Options{Depth: p.Depth, Budget: g.cfg.MaxOutputBytes / 2, Vectors: g.cfg.Vectors})
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		return unknownSymbol(unknown, refresh), nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		return tool.Result{}, fmt.Errorf("code_graph %s %s: %w", p.Question, p.Symbol, err)
	}
	out, truncated := render(a, refresh, g.cfg.MaxOutputBytes, shape, hints(p, a))
	return tool.Result{Output: out, Truncated: truncated}, nil
}

// Refresh says what bringing the index up to date took.
type Refresh struct {
	// Status is "fresh" when nothing had changed, "indexed" when there was no index
	// yet, "reindexed" when changed files were parsed again, and "rebuilt: why"
	// when the index was corrupt or written by an older albert-code.
	Status string `json:"status"`
	// Extracted counts the files parsed (Go files are redone together: their edges
	// cross files).
	Extracted int   `json:"files_parsed,omitempty"`
	TookMS    int64 `json:"took_ms,omitempty"`
	// Bootstrap says the index started from the repository's committed artifact
	// (or why that artifact could not be used).
	Bootstrap string `json:"bootstrap,omitempty"`
	// TypesPending: the index was just built by its first pass and the type
	// checker's pass runs in the background; answers about Go are lower
	// bounds until it lands, and say so.
	TypesPending bool `json:"types_pending,omitempty"`
}

// unusableError is an index that exists but cannot be opened (corrupt, another
// schema version, locked): the model is told, and can fall back to grep.
type unusableError struct{ err error }

func (e *unusableError) Error() string {
	return "the code graph index cannot be used: " + e.err.Error()
}
func (e *unusableError) Unwrap() error { return e.err }

// refresh opens the index, creating it when there is none, and indexes what changed
// since it was built. The caller closes the store.
func (g *graphTool) refresh(ctx context.Context) (*store.Store, Refresh, error) {
	g.refreshing.Lock()
	defer g.refreshing.Unlock()
	if st, r, ok, err := g.refreshKept(ctx); ok {
		return st, r, err
	}
	path, err := g.indexPath()
	if err != nil {
		return nil, Refresh{}, err
	}
	boot := g.bootstrap(ctx, path)
	st, rebuilt, err := store.OpenOrRebuild(path)
	if err != nil {
		if errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrSchemaVersion) || errors.Is(err, store.ErrLocked) {
			return nil, Refresh{}, &unusableError{err}
		}
		return nil, Refresh{}, err
	}
	start := time.Now()
	status := "reindexed"
	fresh, err := index.CheckFreshness(ctx, g.cfg.Root, st, g.cfg.Index.Limits)
	switch {
	case rebuilt != "":
		status = "rebuilt: " + rebuilt
	case errors.Is(err, index.ErrNotIndexed) && g.rebuiltWhy != "":
		status = "rebuilt: " + g.rebuiltWhy
	case errors.Is(err, index.ErrNotIndexed):
		status = "indexed"
	case err != nil:
		st.Close()
		return nil, Refresh{}, fmt.Errorf("check the index of %s: %w", g.cfg.Root, err)
	case fresh.Status == "fresh":
		g.keep(path)
		return st, Refresh{Status: "fresh", Bootstrap: boot}, nil
	}
	var rep *index.Report
	if g.keepingStopped {
		rep, err = index.RunInPasses(ctx, g.cfg.Root, st, g.cfg.Index, nil)
	} else {
		// The kept index lands the type checker's pass in the background:
		// this question is answered from the first pass.
		rep, err = index.RunFirst(ctx, g.cfg.Root, st, g.cfg.Index)
	}
	if err != nil {
		st.Close()
		return nil, Refresh{}, fmt.Errorf("index %s: %w", g.cfg.Root, err)
	}
	g.keep(path)
	g.rebuiltWhy = ""
	r := Refresh{Status: status, Extracted: rep.Extracted, Bootstrap: boot}
	if rep.TypesPending && !g.typesInBackground(ctx) {
		// No kept index to land the pass: land it now, or it never would.
		if _, err := index.Run(ctx, g.cfg.Root, st, g.cfg.Index); err != nil {
			st.Close()
			return nil, Refresh{}, fmt.Errorf("index %s: %w", g.cfg.Root, err)
		}
	}
	r.TookMS = max(time.Since(start).Milliseconds(), 1)
	return st, r, nil
}

// indexPath is the existing index, else where a new one goes: asking for creation
// only when needed leaves the workspace untouched by calls on an existing index.
func (g *graphTool) indexPath() (string, error) {
	path, err := g.cfg.IndexPath(false)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	return g.cfg.IndexPath(true)
}
