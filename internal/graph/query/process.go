package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// processNodeCap bounds a trace (a judgement call, as impact's node cap).
const processNodeCap = 2000

// process traces what an entry point runs: the functions it calls, transitively, up
// to opt.Depth hops, each once at its smallest hop. A call to an interface method is
// followed to the methods of the module's types that implement it, since any of them
// may run. A lower bound when call sites could not be resolved (function values,
// unknown names) or the walk stopped at its depth or cap.
func process(ctx context.Context, st *store.Store, symbol string, targets []graph.Node, opt Options) (*Answer, error) {
	depth := opt.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	seen := map[string]bool{}
	var frontier []string
	for _, t := range targets {
		seen[t.QName] = true
		frontier = append(frontier, t.QName)
	}
	var items []Item
	unresolved, capped, deeper := 0, false, 0
	for hop := 1; hop <= depth && len(frontier) > 0 && !capped; hop++ {
		var next []string
		for _, q := range frontier {
			us, err := st.Unresolved(ctx, q)
			if err != nil {
				return nil, err
			}
			for _, u := range us {
				if u.Kind == graph.EdgeCalls {
					unresolved++
				}
			}
			calls, err := st.Edges(ctx, q, graph.EdgeCalls, store.Out)
			if err != nil {
				return nil, err
			}
			for _, e := range calls {
				reached := []string{e.To}
				impls, err := dispatchTargets(ctx, st, e.To)
				if err != nil {
					return nil, err
				}
				reached = append(reached, impls...)
				for i, r := range reached {
					if seen[r] {
						continue
					}
					if len(items) >= processNodeCap {
						capped = true
						break
					}
					seen[r] = true
					it, err := endpoint(ctx, st, r, e)
					if err != nil {
						return nil, err
					}
					it.Hop, it.Via = hop, q
					if i > 0 {
						it.Why = "may run through the interface call to " + e.To
					}
					items = append(items, it)
					next = append(next, r)
				}
			}
		}
		frontier = next
	}
	for _, q := range frontier {
		out, err := st.Edges(ctx, q, graph.EdgeCalls, store.Out)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 {
			deeper++
		}
	}
	a := &Answer{Question: "process", Symbol: symbol, Certainty: Exact, Items: items, TotalCount: len(items), Depth: depth}
	for _, t := range targets {
		a.Targets = append(a.Targets, nodeItem(t))
	}
	var why []string
	if unresolved > 0 {
		why = append(why, fmt.Sprintf("%d call site(s) on the way could not be resolved (function values, unknown names)", unresolved))
	}
	// What a reached Go function calls is exact only when its file was
	// type-checked cleanly.
	var files []string
	seenFile := map[string]bool{}
	addFile := func(f string) {
		if strings.HasSuffix(f, ".go") && !seenFile[f] {
			seenFile[f] = true
			files = append(files, f)
		}
	}
	for _, t := range targets {
		addFile(t.File)
	}
	for _, it := range items {
		addFile(it.File)
	}
	if gaps, err := goGapsIn(ctx, st, files); err != nil {
		return nil, err
	} else if gaps != "" {
		why = append(why, gaps)
	}
	if deeper > 0 {
		why = append(why, fmt.Sprintf("stopped at depth %d; %d function(s) at the frontier call further", depth, deeper))
	}
	if capped {
		why = append(why, fmt.Sprintf("stopped at %d functions", processNodeCap))
	}
	if len(why) > 0 {
		a.Certainty, a.Why, a.Truncated = LowerBound, strings.Join(why, "; "), capped || deeper > 0
	} else {
		a.Why = "every call on the way was resolved, interface calls followed to the module's implementations"
	}
	return a, nil
}

// dispatchTargets lists the methods an interface method call can run: for I.M, the
// method M of every type that implements I.
func dispatchTargets(ctx context.Context, st *store.Store, qname string) ([]string, error) {
	iface, method, ok := cutLast(qname)
	if !ok {
		return nil, nil
	}
	n, err := st.Node(ctx, iface)
	if err != nil || n.Kind != graph.KindInterface {
		return nil, nil
	}
	impls, err := st.Edges(ctx, iface, graph.EdgeImplements, store.In)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range impls {
		candidate := e.From + "." + method
		if _, err := st.Node(ctx, candidate); err == nil {
			out = append(out, candidate)
		}
	}
	return out, nil
}
