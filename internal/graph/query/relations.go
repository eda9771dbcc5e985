package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// edgesTo lists items for edges of kind arriving at (dir In) or leaving (Out) n, and
// whether all of them were resolved exactly.
func edgesAround(ctx context.Context, st *store.Store, n graph.Node, kind graph.EdgeKind, dir store.Direction) ([]Item, bool, error) {
	edges, err := st.Edges(ctx, n.QName, kind, dir)
	if err != nil {
		return nil, false, err
	}
	exact := true
	items := make([]Item, 0, len(edges))
	for _, e := range edges {
		other := e.From
		if dir == store.Out {
			other = e.To
		}
		it, err := endpoint(ctx, st, other, e)
		if err != nil {
			return nil, false, err
		}
		items = append(items, it)
		exact = exact && e.Resolution == graph.ResolvedTypes
	}
	return items, exact, nil
}

// callers: the functions whose code calls n. A lower bound when an edge was guessed,
// when n is used as a value (calls through function values are not tracked), or
// when n is a method an interface call can dispatch to.
func callers(ctx context.Context, st *store.Store, n graph.Node) ([]Item, string, error) {
	items, exact, err := edgesAround(ctx, st, n, graph.EdgeCalls, store.In)
	if err != nil {
		return nil, "", err
	}
	var why []string
	if !exact {
		why = append(why, "some calls were matched by name, not by the type checker")
	}
	if n.Language != "go" {
		why = append(why, "calls from other files are resolved by name and import, not by a type checker")
	}
	// A call site still unresolved that names n (`load`, `x.load`) may be a caller.
	if open, err := st.UnresolvedCallsNamed(ctx, n.Name); err != nil {
		return nil, "", err
	} else if open > 0 {
		why = append(why, fmt.Sprintf("%d call site(s) named %s could not be resolved", open, n.Name))
	}
	refs, err := st.Edges(ctx, n.QName, graph.EdgeReferences, store.In)
	if err != nil {
		return nil, "", err
	}
	if len(refs) > 0 && (n.Kind == graph.KindFunction || n.Kind == graph.KindMethod) {
		why = append(why, fmt.Sprintf("it is used as a value %d time(s), and calls through function values are not tracked", len(refs)))
	}
	if n.Kind == graph.KindMethod {
		if ifaces, err := dispatchers(ctx, st, n); err != nil {
			return nil, "", err
		} else if len(ifaces) > 0 {
			why = append(why, "interface calls to "+strings.Join(ifaces, ", ")+" can dispatch to it: ask for their callers too")
		}
	}
	return withGaps(ctx, st, n, scopeImporters, items, why)
}

// withGaps adds to why the Go files in scope of n whose facts are partial
// (goGaps).
func withGaps(ctx context.Context, st *store.Store, n graph.Node, scope goScope, items []Item, why []string) ([]Item, string, error) {
	gaps, err := goGaps(ctx, st, n, scope)
	if err != nil {
		return nil, "", err
	}
	if gaps != "" {
		why = append(why, gaps)
	}
	return items, strings.Join(why, "; "), nil
}

// dispatchers lists the interface methods an interface call could reach n through:
// n's type implements the interface and the interface has a method of n's name.
func dispatchers(ctx context.Context, st *store.Store, n graph.Node) ([]string, error) {
	typ, method, ok := cutLast(n.QName)
	if !ok {
		return nil, nil
	}
	impls, err := st.Edges(ctx, typ, graph.EdgeImplements, store.Out)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range impls {
		candidate := e.To + "." + method
		if _, err := st.Node(ctx, candidate); err == nil {
			out = append(out, candidate)
		}
	}
	return out, nil
}

func cutLast(qname string) (string, string, bool) {
	i := strings.LastIndex(qname, ".")
	if i <= 0 || strings.Contains(qname[i:], "/") {
		return "", "", false
	}
	return qname[:i], qname[i+1:], true
}

// callees: what n calls. A lower bound when some of its call sites could not be
// resolved (calls through function values, unknown names).
func callees(ctx context.Context, st *store.Store, n graph.Node) ([]Item, string, error) {
	items, exact, err := edgesAround(ctx, st, n, graph.EdgeCalls, store.Out)
	if err != nil {
		return nil, "", err
	}
	var why []string
	if !exact {
		why = append(why, "some calls were matched by name, not by the type checker")
	}
	unresolved, err := st.Unresolved(ctx, n.QName)
	if err != nil {
		return nil, "", err
	}
	var names []string
	for _, u := range unresolved {
		if u.Kind == graph.EdgeCalls {
			names = append(names, fmt.Sprintf("%s (line %d)", u.Name, u.Line))
		}
	}
	if len(names) > 0 {
		why = append(why, fmt.Sprintf("%d call site(s) could not be resolved: %s", len(names), strings.Join(names, ", ")))
	}
	return withGaps(ctx, st, n, scopeFile, items, why)
}

// references: every use of n, calls included.
func references(ctx context.Context, st *store.Store, n graph.Node) ([]Item, string, error) {
	refs, exactRefs, err := edgesAround(ctx, st, n, graph.EdgeReferences, store.In)
	if err != nil {
		return nil, "", err
	}
	calls, exactCalls, err := edgesAround(ctx, st, n, graph.EdgeCalls, store.In)
	if err != nil {
		return nil, "", err
	}
	var why []string
	if !exactRefs || !exactCalls {
		why = append(why, "some uses were matched by name, not by the type checker")
	} else if n.Language != "go" {
		why = append(why, "uses in other files are resolved by name and import")
	}
	items := append(refs, calls...)
	if n.Language == "go" {
		// A use written through an alias names the alias: it is a use of n too.
		via, err := aliasUses(ctx, st, n)
		if err != nil {
			return nil, "", err
		}
		items = append(items, via...)
	}
	return withGaps(ctx, st, n, scopeImporters, items, why)
}

// aliasUses lists the uses of the Go type aliases that denote n (their
// extends edge), each marked with the alias it goes through.
func aliasUses(ctx context.Context, st *store.Store, n graph.Node) ([]Item, error) {
	in, err := st.Edges(ctx, n.QName, graph.EdgeExtends, store.In)
	if err != nil {
		return nil, err
	}
	var out []Item
	for _, e := range in {
		a, err := st.Node(ctx, e.From)
		if err != nil || a.Kind != graph.KindTypeAlias || a.Language != "go" {
			continue // an embedding, or an alias no longer indexed
		}
		uses, _, err := edgesAround(ctx, st, a, graph.EdgeReferences, store.In)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			if u.QName == n.QName {
				continue
			}
			u.Why = "through the alias " + a.QName
			out = append(out, u)
		}
	}
	return out, nil
}

// implementations: for an interface, the types that implement it; for any other
// type, the interfaces it implements. Outside Go, a declared base that is an
// interface counts too (a Python class deriving from a Protocol or an ABC, a
// TypeScript interface extending another): those languages say "implements" with
// extends clauses. Go's extends edges are embeddings, which implement nothing.
func implementations(ctx context.Context, st *store.Store, n graph.Node) ([]Item, string, error) {
	dir := store.Out
	if n.Kind == graph.KindInterface {
		dir = store.In
	}
	items, exact, err := edgesAround(ctx, st, n, graph.EdgeImplements, dir)
	if err != nil {
		return nil, "", err
	}
	if n.Language != "go" {
		bases, _, err := edgesAround(ctx, st, n, graph.EdgeExtends, dir)
		if err != nil {
			return nil, "", err
		}
		for _, b := range bases {
			if dir == store.In || b.Kind == string(graph.KindInterface) {
				items = append(items, b)
				exact = false
			}
		}
	}
	var why []string
	switch {
	case !exact:
		why = append(why, "some implementations were declared by name, not checked by a type checker")
	case n.Language == "go" && n.File == "":
		if w := externalWhy(n); w != "" {
			why = append(why, w)
		}
	case n.Language != "go":
		why = append(why, "implementations are read from declarations (extends/implements clauses)")
	}
	return withGaps(ctx, st, n, scopeModule, items, why)
}
