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

// symbol is what a question's symbol named.
type symbol struct {
	nodes []graph.Node
	// group says the nodes answer together as one definition (the init
	// functions of a package), not as an ambiguous name.
	group bool
}

// resolve finds the definitions a symbol names: a qualified name exactly, then
// `<import path>.init` as every init function of that Go package (each is
// `<import path>.init@<file>`, see golang.Extract), else a bare name (exact case
// first).
func resolve(ctx context.Context, st *store.Store, name string) (symbol, error) {
	if n, err := st.Node(ctx, name); err == nil {
		return symbol{nodes: []graph.Node{n}}, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return symbol{}, err
	}
	if pkg, ok := strings.CutSuffix(name, ".init"); ok && pkg != "" {
		inits, err := packageInits(ctx, st, pkg)
		if err != nil || len(inits) > 0 {
			return symbol{nodes: inits, group: true}, err
		}
	}
	nodes, err := st.NodesByName(ctx, name)
	if err != nil {
		return symbol{}, err
	}
	if len(nodes) == 0 {
		sugg, err := st.Suggest(ctx, name, 5)
		if err != nil {
			return symbol{}, err
		}
		return symbol{}, &UnknownSymbolError{Symbol: name, DidYouMean: sugg}
	}
	return symbol{nodes: nodes}, nil
}

// packageInits lists the init functions of the Go package pkg, in file order.
func packageInits(ctx context.Context, st *store.Store, pkg string) ([]graph.Node, error) {
	all, err := st.NodesByName(ctx, "init")
	if err != nil {
		return nil, err
	}
	var out []graph.Node
	for _, n := range all {
		if n.Language == "go" && n.Kind == graph.KindFunction && strings.HasPrefix(n.QName, pkg+".init@") {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// aliasTarget is the type a Go type alias denotes (the extends edge the Go
// extractor draws from an alias), false for anything else. A target outside
// the repository (encoding.TextMarshaler) comes back with no file: an
// interface when module types implement it, else a plain type.
func aliasTarget(ctx context.Context, st *store.Store, n graph.Node) (graph.Node, bool, error) {
	if n.Kind != graph.KindTypeAlias || n.Language != "go" {
		return graph.Node{}, false, nil
	}
	edges, err := st.Edges(ctx, n.QName, graph.EdgeExtends, store.Out)
	if err != nil || len(edges) != 1 {
		return graph.Node{}, false, err
	}
	to := edges[0].To
	t, err := st.Node(ctx, to)
	switch {
	case err == nil:
		return t, true, nil
	case !errors.Is(err, store.ErrNotFound):
		return graph.Node{}, false, err
	}
	t = graph.Node{QName: to, Name: to[strings.LastIndex(to, ".")+1:], Kind: graph.KindType, Language: "go"}
	impls, err := st.Edges(ctx, to, graph.EdgeImplements, store.In)
	if err != nil {
		return graph.Node{}, false, err
	}
	if len(impls) > 0 || to == "error" {
		t.Kind = graph.KindInterface
	}
	return t, true, nil
}

// maxAliasHops bounds a chain of aliases: real code has one or two.
const maxAliasHops = 8

// followAliases replaces each Go type alias among nodes by its target (keeping
// the alias too when keep is set: uses written through the alias are its own),
// and says which were followed.
func followAliases(ctx context.Context, st *store.Store, nodes []graph.Node, keep bool) ([]graph.Node, []string, error) {
	var out []graph.Node
	var notes []string
	seen := map[string]bool{}
	add := func(n graph.Node) {
		if !seen[n.QName] {
			seen[n.QName] = true
			out = append(out, n)
		}
	}
	for _, n := range nodes {
		t, ok, err := aliasTarget(ctx, st, n)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			add(n)
			continue
		}
		// An alias of an alias (tree-sitter names the next one; the type
		// checker, the last), a few hops at most.
		for range maxAliasHops {
			next, more, err := aliasTarget(ctx, st, t)
			if err != nil {
				return nil, nil, err
			}
			if !more || next.QName == n.QName {
				break
			}
			t = next
		}
		notes = append(notes, fmt.Sprintf("%s is an alias of %s: the answer is %s's", n.QName, t.QName, t.QName))
		if keep {
			add(n)
		}
		add(t)
	}
	return out, notes, nil
}
