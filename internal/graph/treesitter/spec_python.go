package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// pythonSpec reads tree-sitter-python v0.23.6. Assignments are definitions only
// outside functions (module variables, class fields); an UPPER_CASE module variable is
// still a variable: Python has no constants. A function's parameters and other
// locals shadow module names, a class body's names are not visible in its methods,
// and receivers of known type (pythonBindings) make `x.m()` the site `T.m`.
var pythonSpec = Spec{
	Refs: []string{"identifier"},
	Defs: []DefRule{
		{Node: "function_definition", Kind: graph.KindFunction, InType: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "class_definition", Kind: graph.KindClass, NameField: "name", BodyField: "body", KindOf: pythonClassKind},
		// Transparent: a variable's initialiser is the module's (or the class's)
		// code, as pyright attributes it.
		{Node: "assignment", Kind: graph.KindVariable, InType: graph.KindField, NameField: "left", NameTypes: []string{"identifier"}, Transparent: true},
	},
	Calls: []CallRule{
		{Node: "call", Field: "function", Targets: []graph.NodeKind{graph.KindFunction, graph.KindClass}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{
		"import_statement":      pythonImport,
		"import_from_statement": pythonImportFrom,
	},
	Heritage: []HeritageRule{
		{Def: "class_definition", Clause: "argument_list", Kind: graph.EdgeExtends},
	},
	Member:      []MemberRule{{Node: "attribute", Object: "object", Member: "attribute"}},
	SelfNames:   []string{"self", "cls"},
	Comments:    []string{"comment"},
	DocWrappers: []string{"decorated_definition"},
	Docstring:   true,
	Exported:    notUnderscore,

	Callee:           pythonCallee,
	Bindings:         pythonBindings,
	ClassScopeHidden: true,
	AttributeTypes:   true,
	CalleeHeadRefs:   true,
	Decorated:        "decorated_definition",
}

// pythonClassKind makes a Protocol or an abstract base class an interface: a
// class that names Protocol or ABC among its bases (typing.Protocol, Protocol[T],
// abc.ABC) or ABCMeta as its metaclass. Python spells "implements" as deriving
// from one, and the graph's implementations question follows.
func pythonClassKind(n *sitter.Node, src []byte) graph.NodeKind {
	bases := n.ChildByFieldName("superclasses")
	if bases == nil {
		return ""
	}
	last := func(s string) string {
		s, _, _ = strings.Cut(s, "[")
		return s[strings.LastIndex(s, ".")+1:]
	}
	for i := uint(0); i < bases.NamedChildCount(); i++ {
		b := bases.NamedChild(i)
		switch b.Kind() {
		case "keyword_argument":
			if fieldText(b, "name", src) == "metaclass" && last(fieldText(b, "value", src)) == "ABCMeta" {
				return graph.KindInterface
			}
		default:
			if name := last(text(b, src)); name == "Protocol" || name == "ABC" {
				return graph.KindInterface
			}
		}
	}
	return ""
}
