package treesitter

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// UnionMember is the kind of the sites a TypeScript type alias of a union
// (`type Action = PendingAction | SuccessAction<T>`) leaves for each member type:
// not an edge of the graph, a fact the cross-file pass reads to find `x.m` on an
// `x: Action` in every member that declares m, as the checker does. The walker
// never resolves them and the pass draws no edge for them.
const UnionMember graph.EdgeKind = "union_member"

// tsUnionRule records a type alias's union members as UnionMember sites.
var tsUnionRule = HeritageRule{Def: "type_alias_declaration", DefField: "value", Clause: "union_type",
	Kind: UnionMember, Bases: unionMembers}

// unionMembers are the named types of a union, nested unions and parentheses
// flattened: `A | B<T> | ns.C`; literals, built-ins and other shapes are none.
func unionMembers(u *sitter.Node, _ []byte) []*sitter.Node {
	var out []*sitter.Node
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > maxDepth { // a union nests one level a member
			return
		}
		switch n.Kind() {
		case "union_type":
			for i := uint(0); i < n.NamedChildCount(); i++ {
				walk(n.NamedChild(i), depth+1)
			}
		case "parenthesized_type":
			if n.NamedChildCount() == 1 {
				walk(n.NamedChild(0), depth+1)
			}
		case "type_identifier", "nested_type_identifier", "generic_type":
			out = append(out, n)
		}
	}
	walk(u, 0)
	return out
}
