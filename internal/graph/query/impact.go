package query

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

const (
	// DefaultDepth is the walk's depth when none is asked: the peer's own harness
	// calls its blast-radius question "depth=3" (notes/ai-architect.md §9.1).
	DefaultDepth = 3
	// MaxDepth bounds the depth asked for. Judgement: past ten hops nearly every
	// node of a module is reached, and the answer stops saying anything.
	MaxDepth = 10
	// DefaultMaxNodes stops the walk. Judgement: 2,000 items of ~200 bytes is four
	// times the 100,000-character response budget, so paging by hop still has
	// something to page, and the walk stays in the tens of milliseconds.
	DefaultMaxNodes = 2000
)

// HopCount is how many nodes an impact walk reached at one hop.
type HopCount struct {
	Hop   int `json:"hop"`
	Count int `json:"count"`
}

// impactKinds are the edges a change travels back along: a caller, a user, a type
// implementing an interface and one extending (embedding) another are all
// impacted by a change to the node the edge points to.
var impactKinds = map[graph.EdgeKind]bool{
	graph.EdgeCalls: true, graph.EdgeReferences: true, graph.EdgeImplements: true, graph.EdgeExtends: true,
}

// step is one way a change to a node reaches another: edge From is impacted.
type step struct {
	edge graph.Edge
	conf float64 // of the link: the edge's confidence, times the implements edge's for dispatch
	why  string
}

// impactWalk holds what the walk learns besides the items.
type impactWalk struct {
	st         *store.Store
	guessed    int      // edges on the walk not resolved by the type checker
	values     []string // reached functions used as values
	other      bool     // a reached node is not Go: its callers were matched by name
	dispatched int      // items reached through interface dispatch
	gaps       string   // Go files whose facts are partial, where dependents may hide (goGaps)
}

// steps lists the edges a change to n travels along, interface dispatch included:
// when n is a method of a type implementing an interface that has a method of the
// same name, the callers of that interface method may reach n.
func (w *impactWalk) steps(ctx context.Context, n graph.Node) ([]step, error) {
	edges, err := w.st.Edges(ctx, n.QName, "", store.In)
	if err != nil {
		return nil, err
	}
	var out []step
	valueUse := false
	for _, e := range edges {
		if !impactKinds[e.Kind] {
			continue
		}
		valueUse = valueUse || e.Kind == graph.EdgeReferences
		out = append(out, step{edge: e, conf: e.Confidence})
	}
	if valueUse && (n.Kind == graph.KindFunction || n.Kind == graph.KindMethod) {
		w.values = append(w.values, n.QName)
	}
	if n.Language != "" && n.Language != "go" {
		w.other = true
	}
	if n.Kind != graph.KindMethod {
		return out, nil
	}
	typ, method, ok := cutLast(n.QName)
	if !ok {
		return out, nil
	}
	impls, err := w.st.Edges(ctx, typ, graph.EdgeImplements, store.Out)
	if err != nil {
		return nil, err
	}
	for _, impl := range impls {
		iface := impl.To + "." + method
		if _, err := w.st.Node(ctx, iface); errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, err
		}
		calls, err := w.st.Edges(ctx, iface, "", store.In)
		if err != nil {
			return nil, err
		}
		for _, e := range calls {
			if e.Kind != graph.EdgeCalls && e.Kind != graph.EdgeReferences {
				continue
			}
			out = append(out, step{edge: e, conf: e.Confidence * impl.Confidence,
				why: fmt.Sprintf("%s %s, which can dispatch to %s (%s implements %s)", e.Kind, iface, n.QName, typ, impl.To)})
		}
	}
	return out, nil
}

type reachedNode struct {
	node graph.Node
	item Item
}

// impact walks the in-edges of targets breadth-first up to opt.Depth hops. Each
// node is reached once, at its smallest hop, with the best confidence product over
// the paths of that length.
func impact(ctx context.Context, st *store.Store, symbol string, targets []graph.Node, opt Options) (*Answer, error) {
	depth, maxNodes := opt.Depth, opt.MaxNodes
	if depth == 0 {
		depth = DefaultDepth
	}
	if maxNodes == 0 {
		maxNodes = DefaultMaxNodes
	}
	w := &impactWalk{st: st}
	seen := map[string]bool{}
	conf := map[string]float64{}
	frontier := make([]graph.Node, 0, len(targets))
	for _, t := range targets {
		if !seen[t.QName] {
			seen[t.QName], conf[t.QName] = true, 1
			frontier = append(frontier, t)
		}
	}
	var all []Item
	truncatedAt, open := 0, 0
walk:
	for hop := 1; len(frontier) > 0; hop++ {
		next := map[string]*reachedNode{}
		var order []string
		for _, p := range frontier {
			steps, err := w.steps(ctx, p)
			if err != nil {
				return nil, fmt.Errorf("impact of %s: %w", symbol, err)
			}
			hasNew := false
			for _, s := range steps {
				from := s.edge.From
				if seen[from] {
					continue
				}
				hasNew = true
				if hop > depth {
					break
				}
				if s.edge.Resolution != graph.ResolvedTypes {
					w.guessed++
				}
				c := conf[p.QName] * s.conf
				if r, ok := next[from]; ok {
					if c > r.item.Confidence {
						r.item = impactItem(r.node, p.QName, hop, c, s)
					}
					continue
				}
				if len(all)+len(next) >= maxNodes {
					truncatedAt = hop
					break
				}
				n, err := st.Node(ctx, from)
				if errors.Is(err, store.ErrNotFound) {
					n = graph.Node{QName: from, Kind: "external"}
				} else if err != nil {
					return nil, fmt.Errorf("impact of %s: %w", symbol, err)
				}
				next[from] = &reachedNode{node: n, item: impactItem(n, p.QName, hop, c, s)}
				order = append(order, from)
			}
			if hasNew && hop > depth {
				open++
			}
			if truncatedAt > 0 {
				break
			}
		}
		if hop > depth {
			break
		}
		sort.Strings(order)
		frontier = frontier[:0]
		for _, q := range order {
			r := next[q]
			seen[q], conf[q] = true, r.item.Confidence
			if r.item.Why != "" {
				w.dispatched++
			}
			all = append(all, r.item)
			frontier = append(frontier, r.node)
		}
		if truncatedAt > 0 {
			break walk
		}
	}
	for _, t := range targets {
		if t.Language == "go" {
			// A dependent may be in any Go file: one the type checker did not
			// check cleanly may hide some.
			gaps, err := goGaps(ctx, st, t, scopeTransitive)
			if err != nil {
				return nil, err
			}
			w.gaps = gaps
			break
		}
	}
	return impactAnswer(symbol, targets, all, w, opt, depth, maxNodes, truncatedAt, open), nil
}

func impactItem(n graph.Node, via string, hop int, conf float64, s step) Item {
	return Item{QName: n.QName, Kind: string(n.Kind), File: n.File, Line: n.Line,
		SiteFile: s.edge.File, SiteLine: s.edge.Line, Relation: string(s.edge.Kind),
		Confidence: conf, Resolution: string(s.edge.Resolution), Hop: hop, Via: via, Why: s.why}
}

// impactAnswer pages the reached items by hop and says how sure the walk is.
func impactAnswer(symbol string, targets []graph.Node, all []Item, w *impactWalk, opt Options,
	depth, maxNodes, truncatedAt, open int) *Answer {
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Hop != b.Hop {
			return a.Hop < b.Hop
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.QName < b.QName
	})
	from, to := max(opt.FromHop, 1), opt.ToHop
	if to == 0 || to > depth {
		to = depth
	}
	a := &Answer{Question: "impact", Symbol: symbol, Certainty: Exact, Items: []Item{}, Depth: depth,
		TotalCount: len(all), FromHop: from, ToHop: to, Truncated: truncatedAt > 0}
	for _, t := range targets {
		a.Targets = append(a.Targets, nodeItem(t))
	}
	for _, it := range all {
		if n := len(a.ByHop); n == 0 || a.ByHop[n-1].Hop != it.Hop {
			a.ByHop = append(a.ByHop, HopCount{Hop: it.Hop})
		}
		a.ByHop[len(a.ByHop)-1].Count++
		switch {
		case it.Hop >= from && it.Hop <= to:
			a.Items = append(a.Items, it)
		case it.Hop > to && a.NextHop == 0:
			a.NextHop = it.Hop
		}
	}

	var lower []string
	if truncatedAt > 0 {
		lower = append(lower, fmt.Sprintf("stopped at the cap of %d nodes while walking hop %d", maxNodes, truncatedAt))
	}
	if open > 0 {
		lower = append(lower, fmt.Sprintf("stopped at depth %d; %d node(s) at the frontier still have callers", depth, open))
	}
	if w.guessed > 0 {
		lower = append(lower, fmt.Sprintf("%d edge(s) on the walk were matched by name or import, not by the type checker", w.guessed))
	}
	if w.other {
		lower = append(lower, "calls from other files are resolved by name and import, not by a type checker")
	}
	if len(w.values) > 0 {
		lower = append(lower, fmt.Sprintf("%d reached function(s) are used as values (%s), and calls through function values are not tracked",
			len(w.values), sample(w.values, 3)))
	}
	if len(targets) > 1 {
		lower = append(lower, fmt.Sprintf("%q names %d definitions; the answer covers them all", symbol, len(targets)))
	}
	if w.gaps != "" {
		lower = append(lower, w.gaps)
	}
	var why []string
	if len(lower) > 0 {
		a.Certainty = LowerBound
		why = lower
	} else {
		why = append(why, fmt.Sprintf("every edge on the walk was resolved by the type checker, no reached function is used as a value, and the walk ran out of dependents within %d hops", depth))
	}
	if w.dispatched > 0 {
		why = append(why, fmt.Sprintf("%d node(s) were reached through interface dispatch: they call the interface, and may reach another implementation", w.dispatched))
	}
	a.Why = strings.Join(why, "; ")
	return a
}

// sample names up to n of names, and how many more there are.
func sample(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
