package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/graph/changes"
	"github.com/etalab-ia/albert-code/internal/graph/cochange"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// HealthOut is health_check's answer.
type HealthOut struct {
	Server    string       `json:"server"`
	Version   string       `json:"version"`
	Root      string       `json:"root"`
	Profile   Profile      `json:"profile"`
	Index     string       `json:"index,omitempty"`
	Present   bool         `json:"present"`
	Advice    string       `json:"advice,omitempty"`
	Stats     *store.Stats `json:"stats,omitempty"`
	Freshness *Freshness   `json:"freshness,omitempty"`
	// LeftOut is what the last index run left out, or holds in part, by reason.
	LeftOut *index.LeftOut `json:"left_out,omitempty"`
	// GoLoadError is why the Go module did not load at the last index run
	// (its answers are then tree-sitter's lower bounds).
	GoLoadError string `json:"go_load_error,omitempty"`
	// TypesPending is "type-checking in progress" while the type checker's
	// pass has not landed after a first index: answers about Go are lower
	// bounds until then.
	TypesPending string `json:"types_pending,omitempty"`
}

func (h *handler) healthCheck(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	out := HealthOut{Server: "albert-code-graph", Version: h.cfg.Version, Root: h.cfg.Root, Profile: h.cfg.Profile}
	st, err := h.open()
	if errors.Is(err, errNoIndex) {
		out.Advice = errNoIndex.Error()
		res, err := h.fitWhole(out, false)
		return res, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, nil, err
	}
	out.Index, out.Present, out.Stats = st.Path(), true, &stats
	if out.LeftOut, err = index.ReadLeftOut(ctx, st); err != nil {
		return nil, nil, err
	}
	if out.GoLoadError, _, err = st.Meta(ctx, golang.MetaLoadError); err != nil {
		return nil, nil, err
	}
	if out.TypesPending, _, err = st.Meta(ctx, golang.MetaTypesPending); err != nil {
		return nil, nil, err
	}
	out.Freshness = h.freshness(ctx, st)
	if out.Freshness.Status == "stale" {
		out.Advice = "the index is stale: call analyze_codebase to bring it up to date"
	}
	res, err := h.fitWhole(out, false)
	return res, nil, err
}

// reportListCap bounds each list of files in analyze_codebase's report; the
// counts are exact. The peer's COVERAGE_LIST_CAP.
const reportListCap = 50

// AnalyzeOut is analyze_codebase's answer: index.Report with its file lists capped.
type AnalyzeOut struct {
	*index.Report
	SkippedCount     int    `json:"skipped_count"`
	PartialCount     int    `json:"partial_count"`
	QuarantinedCount int    `json:"quarantined_count"`
	ListsCapped      bool   `json:"lists_capped,omitempty"`
	Index            string `json:"index"`
	// Rebuilt says why the index was replaced before indexing (older schema, corrupt).
	Rebuilt string `json:"rebuilt,omitempty"`
	// Bootstrap says the index started from the repository's committed
	// artifact, or why that artifact could not be used.
	Bootstrap string       `json:"bootstrap,omitempty"`
	Stats     *store.Stats `json:"stats,omitempty"`
	Freshness *Freshness   `json:"freshness"`
	// Advice says what to expect of the answers (a first pass's).
	Advice string `json:"advice,omitempty"`
}

func (h *handler) analyze(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	h.analyzing.Lock()
	defer h.analyzing.Unlock()
	path, err := h.cfg.IndexPath(true)
	if err != nil {
		return nil, nil, err
	}
	boot := h.bootstrap(ctx, path)
	st, rebuilt, err := store.OpenOrRebuild(path)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	opts := h.cfg.Index
	opts.Rebuild, opts.Progress = false, nil
	var rep *index.Report
	if h.cfg.Lifetime != nil {
		// A long-lived server answers from the first pass and lands the type
		// checker's in the background (typesInBackground).
		rep, err = index.RunFirst(ctx, h.cfg.Root, st, opts)
	} else {
		rep, err = index.RunInPasses(ctx, h.cfg.Root, st, opts, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	out := AnalyzeOut{Report: rep, SkippedCount: len(rep.Skipped), PartialCount: len(rep.Partial),
		QuarantinedCount: len(rep.Quarantined), Index: path, Rebuilt: rebuilt, Bootstrap: boot}
	if rep.TypesPending {
		out.Advice = typesPendingAdvice
	}
	for _, l := range []*[]index.Skip{&rep.Skipped, &rep.Partial, &rep.Quarantined} {
		if len(*l) > reportListCap {
			*l, out.ListsCapped = (*l)[:reportListCap], true
		}
	}
	if stats, err := st.Stats(ctx); err == nil {
		out.Stats = &stats
	}
	out.Freshness = h.freshness(ctx, st)
	if rep.TypesPending {
		if err := h.typesInBackground(); err != nil {
			return nil, nil, err
		}
	}
	res, err := h.fitWhole(out, false)
	return res, nil, err
}

// typesPendingAdvice tells the agent what a first pass's answers are worth.
const typesPendingAdvice = "the type checker's pass runs in the background: until it lands, answers about Go are lower bounds (" +
	golang.TypesPending + "; definitions and search are complete); health_check says when it has landed"

// searchCap bounds the ranked hits search_codebase pages through. Judgement: past
// a thousand hits the words are too vague to be worth paging; total_count then
// says "at least".
const searchCap = 1000

// SearchParams are search_codebase's inputs.
type SearchParams struct {
	Query string `json:"query" jsonschema:"words to look for, e.g. 'parse config' or 'ServeHTTP'"`
	PageParams
}

// SearchOut is search_codebase's answer.
type SearchOut struct {
	Query     string `json:"query"`
	Certainty string `json:"certainty"`
	Why       string `json:"why"`
	// Legs says which rankings ran (bm25, vector) and what each saw.
	Legs  []query.Leg `json:"legs"`
	Items []Item      `json:"items"`
	Page
	Freshness *Freshness `json:"freshness"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

func (h *handler) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchParams) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, nil, errors.New("query is empty: give the words to look for")
	}
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	a, err := query.Search(ctx, st, in.Query, query.SearchOptions{Vectors: h.cfg.Vectors, Depth: searchCap, Limit: searchCap})
	if err != nil {
		return nil, nil, err
	}
	all := items(a.Items, "")
	why := a.Why
	if len(a.Items) == searchCap {
		why += "; only the first 1000 hits are ranked, so total_count is a lower bound"
	}
	fresh := h.freshness(ctx, st)
	offset, limit := in.bounds(len(all), 20)
	want := min(limit, len(all)-offset)
	res, err := h.fitPage(offset, want, in.shaped(func(n int) any {
		page := newPage(offset, n, len(all))
		return SearchOut{Query: in.Query, Certainty: query.LowerBound, Why: why, Legs: a.Legs, Items: all[offset : offset+n],
			Page: page, Freshness: fresh, NextSteps: h.searchSteps(in.Query, all[offset:offset+n], page)}
	}))
	return res, nil, err
}

// SymbolParams name the symbol a question is about.
type SymbolParams struct {
	Symbol string `json:"symbol" jsonschema:"a qualified name (example.com/m/pkg.Type.Method) or a bare name (Method)"`
	// AllDefinitions: see ambiguous.
	AllDefinitions bool `json:"all_definitions,omitempty" jsonschema:"when a bare name names several definitions, answer for all of them together instead of listing them to choose from"`
	PageParams
}

// AmbiguousOut is the answer to a bare name that names several definitions: the
// candidates, to ask again with one qualified name (or with all_definitions).
type AmbiguousOut struct {
	Question  string `json:"question"`
	Symbol    string `json:"symbol"`
	Ambiguous bool   `json:"ambiguous"`
	Why       string `json:"why"`
	// Targets are the definitions the name names.
	Targets   []Item     `json:"targets"`
	Freshness *Freshness `json:"freshness"`
}

// ambiguous answers a bare name that names several definitions with the list to
// choose from, unless all is set: answering for all of them at once mixes their
// relations and costs the agent a page per definition (the token benchmark
// measured 24-95% of the characters read on callees going to such pages).
func (h *handler) ambiguous(a *query.Answer, all bool, fresh *Freshness) (*mcp.CallToolResult, bool, error) {
	if all || len(a.Targets) < 2 {
		return nil, false, nil
	}
	res, err := h.fitWhole(AmbiguousOut{Question: a.Question, Symbol: a.Symbol, Ambiguous: true,
		Why:     fmt.Sprintf("%q names %d definitions: ask again with one qualified_name, or set all_definitions", a.Symbol, len(a.Targets)),
		Targets: items(a.Targets, ""), Freshness: fresh}, false)
	return res, true, err
}

// AnswerOut is the answer to one question kind.
type AnswerOut struct {
	Question  string `json:"question"`
	Symbol    string `json:"symbol"`
	Certainty string `json:"certainty"`
	Why       string `json:"why"`
	// Targets are the definitions the symbol named.
	Targets []Item `json:"targets"`
	Items   []Item `json:"items"`
	Page
	Freshness *Freshness `json:"freshness"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

// ask runs one question, turning an unknown symbol into its answer.
func (h *handler) ask(ctx context.Context, st *store.Store, kind, symbol string) (*query.Answer, *mcp.CallToolResult, error) {
	if strings.TrimSpace(symbol) == "" {
		return nil, nil, errors.New("symbol is empty: give a qualified or bare name")
	}
	a, err := query.Ask(ctx, st, kind, symbol)
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		res, err := h.fitWhole(unknownSymbol(unknown), true)
		return nil, res, err
	}
	return a, nil, err
}

func (h *handler) question(kind string) mcp.ToolHandlerFor[SymbolParams, any] {
	tool := ""
	for _, q := range questionTools {
		if q.kind == kind {
			tool = q.name
		}
	}
	return func(ctx context.Context, _ *mcp.CallToolRequest, in SymbolParams) (*mcp.CallToolResult, any, error) {
		if err := in.check(); err != nil {
			return nil, nil, err
		}
		st, err := h.open()
		if err != nil {
			return nil, nil, err
		}
		defer st.Close()
		a, res, err := h.ask(ctx, st, kind, in.Symbol)
		if a == nil {
			return res, nil, err
		}
		fresh := h.freshness(ctx, st)
		if res, done, err := h.ambiguous(a, in.AllDefinitions || kind == "definition", fresh); done {
			return res, nil, err
		}
		all := items(a.Items, questionRelation[kind])
		offset, limit := in.bounds(len(all), defaultLimit)
		want := min(limit, len(all)-offset)
		res, err = h.fitPage(offset, want, in.shaped(func(n int) any {
			page := newPage(offset, n, len(all))
			return AnswerOut{Question: a.Question, Symbol: a.Symbol, Certainty: a.Certainty, Why: a.Why,
				Targets: items(a.Targets, ""), Items: all[offset : offset+n], Page: page, Freshness: fresh,
				NextSteps: h.questionSteps(kind, in.Symbol, all[offset:offset+n], page, tool)}
		}))
		return res, nil, err
	}
}

// Section is one list of get_symbol's answer.
type Section struct {
	Certainty  string `json:"certainty"`
	Why        string `json:"why"`
	Items      []Item `json:"items"`
	TotalCount int    `json:"total_count"`
}

// SymbolOut is get_symbol's answer. Its page covers both lists: total_count is
// the longer list's length.
type SymbolOut struct {
	Symbol      string  `json:"symbol"`
	Certainty   string  `json:"certainty"`
	Definitions []Item  `json:"definitions"`
	Callers     Section `json:"callers"`
	Callees     Section `json:"callees"`
	Page
	Freshness *Freshness `json:"freshness"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

func (h *handler) symbol(ctx context.Context, _ *mcp.CallToolRequest, in SymbolParams) (*mcp.CallToolResult, any, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	def, res, err := h.ask(ctx, st, "definition", in.Symbol)
	if def == nil {
		return res, nil, err
	}
	callers, _, err := h.ask(ctx, st, "callers", in.Symbol)
	if err != nil {
		return nil, nil, err
	}
	callees, _, err := h.ask(ctx, st, "callees", in.Symbol)
	if err != nil {
		return nil, nil, err
	}
	certainty := query.Exact
	if callers.Certainty != query.Exact || callees.Certainty != query.Exact {
		certainty = query.LowerBound
	}
	fresh := h.freshness(ctx, st)
	in1, in2 := items(callers.Items, "calls"), items(callees.Items, "calls")
	total := max(len(in1), len(in2))
	offset, limit := in.bounds(total, defaultLimit)
	want := min(limit, total-offset)
	section := func(a *query.Answer, all []Item, n int) Section {
		lo, hi := min(offset, len(all)), min(offset+n, len(all))
		return Section{Certainty: a.Certainty, Why: a.Why, Items: all[lo:hi], TotalCount: len(all)}
	}
	res, err = h.fitPage(offset, want, in.shaped(func(n int) any {
		page := newPage(offset, n, total)
		return SymbolOut{Symbol: in.Symbol, Certainty: certainty, Definitions: items(def.Items, ""),
			Callers: section(callers, in1, n), Callees: section(callees, in2, n),
			Page: page, Freshness: fresh, NextSteps: h.questionSteps("context", in.Symbol, in1, page, "get_symbol")}
	}))
	return res, nil, err
}

// SQLParams are query_graph's inputs.
type SQLParams struct {
	SQL     string `json:"sql" jsonschema:"one read-only statement: SELECT, WITH or VALUES"`
	MaxRows int    `json:"max_rows,omitempty" jsonschema:"most rows SQLite computes (default 500, at most 100000); paging happens within them"`
	PageParams
}

// SQLOut is query_graph's answer.
type SQLOut struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// RowCapHit says the statement had more rows than max_rows: total_count counts
	// only those computed.
	RowCapHit bool `json:"row_cap_hit"`
	Page
	Freshness *Freshness `json:"freshness"`
}

func (h *handler) sql(ctx context.Context, _ *mcp.CallToolRequest, in SQLParams) (*mcp.CallToolResult, any, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	cols, rows, capped, err := st.Query(ctx, in.SQL, min(in.MaxRows, store.MaxRows), store.DefaultQueryTimeout)
	if err != nil {
		return nil, nil, err
	}
	if rows == nil {
		rows = [][]any{}
	}
	fresh := h.freshness(ctx, st)
	offset, limit := in.bounds(len(rows), defaultLimit)
	want := min(limit, len(rows)-offset)
	res, err := h.fitPage(offset, want, in.shaped(func(n int) any {
		return SQLOut{Columns: cols, Rows: rows[offset : offset+n], RowCapHit: capped,
			Page: newPage(offset, n, len(rows)), Freshness: fresh}
	}))
	return res, nil, err
}

// ChangesIn is detect_changes' input.
type ChangesIn struct {
	Base string `json:"base,omitempty" jsonschema:"revision the working tree is compared with (default HEAD)"`
	ShapeParams
}

// ChangesOut is detect_changes' answer.
type ChangesOut struct {
	*changes.Report
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

func (h *handler) detectChanges(ctx context.Context, _ *mcp.CallToolRequest, in ChangesIn) (*mcp.CallToolResult, any, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	hunks, err := changes.Diff(ctx, h.cfg.Root, in.Base)
	if err != nil {
		return nil, nil, err
	}
	rep, err := changes.Map(ctx, st, in.Base, hunks)
	if err != nil {
		return nil, nil, err
	}
	out := any(ChangesOut{Report: rep, NextSteps: h.changesSteps(rep)})
	if in.compact() {
		out = in.apply(out)
	}
	res, err := h.fitWhole(out, false)
	return res, nil, err
}

// CoChangeIn is get_cochange's input.
type CoChangeIn struct {
	File    string `json:"file" jsonschema:"the file, relative to the repository root"`
	Commits int    `json:"commits,omitempty" jsonschema:"how many recent commits to read (default 1000)"`
}

func (h *handler) cochange(ctx context.Context, _ *mcp.CallToolRequest, in CoChangeIn) (*mcp.CallToolResult, any, error) {
	if in.Commits <= 0 {
		in.Commits = 1000
	}
	res, err := cochange.Compute(ctx, h.cfg.Root, in.File, in.Commits)
	if err != nil {
		return nil, nil, err
	}
	out, err := h.fitWhole(res, false)
	return out, nil, err
}

// EntryPointsOut is get_entry_points' answer, paged.
type EntryPointsOut struct {
	Certainty string `json:"certainty"`
	Why       string `json:"why"`
	Items     []Item `json:"items"`
	Page
	Freshness *Freshness `json:"freshness"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
}

func (h *handler) entryPoints(ctx context.Context, _ *mcp.CallToolRequest, in PageParams) (*mcp.CallToolResult, any, error) {
	if err := in.check(); err != nil {
		return nil, nil, err
	}
	st, err := h.open()
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	a, err := query.EntryPoints(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	all := items(a.Items, "")
	fresh := h.freshness(ctx, st)
	offset, limit := in.bounds(len(all), 50)
	res, err := h.fitPage(offset, min(limit, len(all)-offset), in.shaped(func(n int) any {
		page := newPage(offset, n, len(all))
		return EntryPointsOut{Certainty: a.Certainty, Why: a.Why, Items: all[offset : offset+n],
			Page: page, Freshness: fresh, NextSteps: h.entrySteps(all, page)}
	}))
	return res, nil, err
}
