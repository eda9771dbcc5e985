// Package query answers structure questions from the graph store — definition,
// callers, callees, references, implementations, search — and says, for each
// answer, whether it is exact or a lower bound, and why.
package query

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Kinds lists the questions Ask understands.
var Kinds = []string{"definition", "callers", "callees", "references", "implementations", "impact", "process", "context", "search"}

// Certainty values.
const (
	Exact      = "exact"
	LowerBound = "lower-bound"
)

// Item is one result. Line is the line of the item's name; SiteLine, when set, is
// where the relation happens (the call, the reference).
type Item struct {
	QName      string  `json:"qualified_name"`
	Kind       string  `json:"kind"`
	File       string  `json:"file,omitempty"`
	Line       int     `json:"line,omitempty"`
	SiteFile   string  `json:"site_file,omitempty"`
	SiteLine   int     `json:"site_line,omitempty"`
	Relation   string  `json:"relation,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	Resolution string  `json:"resolution,omitempty"`
	// Hop (impact) is how many edges separate the item from the symbol; Via is the
	// node one hop closer through which it is reached.
	Hop int    `json:"hop,omitempty"`
	Via string `json:"via,omitempty"`
	// Why says how the item was reached when the edge alone does not (interface dispatch).
	Why string `json:"why,omitempty"`
	// Section (context) names the part of the neighbourhood the item belongs to;
	// Signature and Doc are filled for the definition.
	Section   string `json:"section,omitempty"`
	Signature string `json:"signature,omitempty"`
	Doc       string `json:"doc,omitempty"`
}

// Answer is the reply to one question.
type Answer struct {
	Question  string `json:"question"`
	Symbol    string `json:"symbol"`
	Certainty string `json:"certainty"`
	Why       string `json:"why"`
	// Targets are the definitions the symbol named (several when a bare name is ambiguous).
	Targets []Item `json:"targets,omitempty"`
	Items   []Item `json:"items"`

	// Impact: TotalCount nodes were reached, ByHop of them at each hop; Items hold
	// hops FromHop to ToHop; NextHop, when set, is the first later hop with nodes.
	// Truncated says the walk stopped at the node cap (impact) or that even the
	// definition exceeded the budget (context).
	Depth      int        `json:"depth,omitempty"`
	TotalCount int        `json:"total_count,omitempty"`
	ByHop      []HopCount `json:"by_hop,omitempty"`
	FromHop    int        `json:"from_hop,omitempty"`
	ToHop      int        `json:"to_hop,omitempty"`
	NextHop    int        `json:"next_hop,omitempty"`
	Truncated  bool       `json:"truncated,omitempty"`
	// Context: each section's total and how many of its items are shown.
	Sections []Section `json:"sections,omitempty"`
	Budget   int       `json:"budget,omitempty"`
	// Legs (search) says which rankings ran and how they were fused.
	Legs []Leg `json:"legs,omitempty"`
}

// Options tune the questions that take parameters; the zero value means the defaults.
type Options struct {
	// Depth (impact) is how many hops to walk: DefaultDepth when 0, at most MaxDepth.
	Depth int
	// FromHop and ToHop (impact) select the hops returned in Items (a page);
	// 0 means the first and the last.
	FromHop, ToHop int
	// MaxNodes (impact) stops the walk: DefaultMaxNodes when 0.
	MaxNodes int
	// Budget (context) bounds the answer's JSON in bytes: DefaultBudget when 0.
	Budget int
	// Vectors (search), when set, adds the embeddings leg to BM25.
	Vectors VectorLeg
}

func (o *Options) check() error {
	switch {
	case o.Depth < 0 || o.Depth > MaxDepth:
		return fmt.Errorf("depth %d: want 1 to %d", o.Depth, MaxDepth)
	case o.FromHop < 0 || o.ToHop < 0 || (o.ToHop > 0 && o.FromHop > o.ToHop):
		return fmt.Errorf("hops %d to %d: want 1 <= from <= to", o.FromHop, o.ToHop)
	case o.MaxNodes < 0 || o.Budget < 0:
		return fmt.Errorf("node cap %d, budget %d: want positive values", o.MaxNodes, o.Budget)
	}
	return nil
}

// UnknownSymbolError is returned when no definition matches; it carries suggestions.
type UnknownSymbolError struct {
	Symbol     string
	DidYouMean []string
}

func (e *UnknownSymbolError) Error() string {
	msg := fmt.Sprintf("no definition named %q in the index", e.Symbol)
	if len(e.DidYouMean) > 0 {
		msg += "; did you mean " + strings.Join(e.DidYouMean, ", ") + "?"
	}
	return msg
}

// Ask answers question kind about symbol (a qualified name or a bare name) with
// the default options.
func Ask(ctx context.Context, st *store.Store, kind, symbol string) (*Answer, error) {
	return AskWith(ctx, st, kind, symbol, Options{})
}

// AskWith answers question kind about symbol with options (depth and hops for
// impact, budget for context; the other questions ignore them).
func AskWith(ctx context.Context, st *store.Store, kind, symbol string, opt Options) (*Answer, error) {
	if kind == "search" {
		return search(ctx, st, symbol, opt.Vectors)
	}
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	sym, err := resolve(ctx, st, symbol)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "impact", "context", "process":
		// An alias's dependents are its own and its target's; its context and
		// what it runs are its target's.
		targets, _, err := followAliases(ctx, st, sym.nodes, kind == "impact")
		if err != nil {
			return nil, err
		}
		switch kind {
		case "impact":
			return impact(ctx, st, symbol, targets, opt)
		case "context":
			return neighbourhood(ctx, st, symbol, targets, opt)
		}
		return process(ctx, st, symbol, targets, opt)
	}
	a := &Answer{Question: kind, Symbol: symbol, Certainty: Exact}
	for _, n := range sym.nodes {
		a.Targets = append(a.Targets, nodeItem(n))
	}
	asked := sym.nodes
	var notes, reasons []string
	if kind != "definition" {
		// A type alias is answered for the type it denotes (whose references
		// include the uses written through its aliases).
		if asked, notes, err = followAliases(ctx, st, sym.nodes, false); err != nil {
			return nil, err
		}
	}
	for _, n := range asked {
		items, why, err := relation(ctx, st, kind, n)
		if err != nil {
			return nil, err
		}
		a.Items = append(a.Items, items...)
		for _, w := range why {
			if w != "" && !slices.Contains(reasons, w) {
				reasons = append(reasons, w)
			}
		}
	}
	if len(sym.nodes) > 1 && !sym.group {
		reasons = append(reasons, fmt.Sprintf("%q names %d definitions; the answer covers them all", symbol, len(sym.nodes)))
	}
	if len(sym.nodes) > 1 && sym.group {
		notes = append(notes, fmt.Sprintf("%s has %d init functions; the answer covers them all", strings.TrimSuffix(symbol, ".init"), len(sym.nodes)))
	}
	if len(reasons) > 0 {
		a.Certainty, a.Why = LowerBound, strings.Join(append(notes, reasons...), "; ")
	} else {
		a.Why = strings.Join(append(notes, exactWhy(kind, asked)), "; ")
	}
	sortItems(a.Items)
	return a, nil
}

// relation answers question kind about one definition, with the reasons the
// answer may be a lower bound (none when it is exact).
func relation(ctx context.Context, st *store.Store, kind string, n graph.Node) ([]Item, []string, error) {
	var items []Item
	var why string
	var err error
	switch kind {
	case "definition":
		return []Item{nodeItem(n)}, nil, nil
	case "callers":
		items, why, err = callers(ctx, st, n)
	case "callees":
		items, why, err = callees(ctx, st, n)
	case "references":
		items, why, err = references(ctx, st, n)
	case "implementations":
		items, why, err = implementations(ctx, st, n)
	default:
		return nil, nil, fmt.Errorf("unknown question %q: want one of %s", kind, strings.Join(Kinds, ", "))
	}
	if err != nil {
		return nil, nil, err
	}
	return items, strings.Split(why, "; "), nil
}

func exactWhy(kind string, targets []graph.Node) string {
	lang := ""
	if len(targets) > 0 {
		lang = targets[0].Language
	}
	if kind == "definition" {
		return "the definition as indexed"
	}
	if lang != "go" {
		return "every edge was resolved exactly"
	}
	switch kind {
	case "callees":
		return "every call site was resolved by the Go type checker"
	case "callers":
		return "every call was resolved by the Go type checker, and no interface call or function value can reach the symbol"
	case "implementations":
		return "checked by the Go type checker for every type and interface of the module"
	}
	return "every edge was resolved by the Go type checker"
}

func nodeItem(n graph.Node) Item {
	return Item{QName: n.QName, Kind: string(n.Kind), File: n.File, Line: n.Line}
}

// endpoint describes the node at one end of an edge; targets outside the index
// (the standard library, other modules) come back as kind "external".
func endpoint(ctx context.Context, st *store.Store, qname string, e graph.Edge) (Item, error) {
	it := Item{QName: qname, Kind: "external", SiteFile: e.File, SiteLine: e.Line, Relation: string(e.Kind),
		Confidence: e.Confidence, Resolution: string(e.Resolution)}
	n, err := st.Node(ctx, qname)
	switch {
	case err == nil:
		it.Kind, it.File, it.Line = string(n.Kind), n.File, n.Line
	case !errors.Is(err, store.ErrNotFound):
		return it, err
	}
	return it, nil
}

func sortItems(items []Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.QName != b.QName {
			return a.QName < b.QName
		}
		return a.SiteLine < b.SiteLine
	})
}
