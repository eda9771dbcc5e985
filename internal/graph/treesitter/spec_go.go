package treesitter

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// goSpec reads tree-sitter-go v0.25.0. It is the fallback for Go that does not
// type-check (internal/graph/golang is the exact path); its QNames are therefore
// file-scoped like every tree-sitter language (`a/b.go::Server::Handle`), not the
// type-checked `<import path>.<Type>.<Method>`. Struct and interface embedding are
// extends edges.
var goSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: []DefRule{
		{Node: "function_declaration", Kind: graph.KindFunction, NameField: "name", BodyField: "body"},
		{Node: "method_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "type_spec", Kind: graph.KindType, NameField: "name", KindField: "type",
			KindBy: map[string]graph.NodeKind{"struct_type": graph.KindStruct, "interface_type": graph.KindInterface}},
		{Node: "type_alias", Kind: graph.KindTypeAlias, NameField: "name"},
		{Node: "field_declaration", Kind: graph.KindField, NameField: "name"},
		{Node: "method_elem", Kind: graph.KindMethod, NameField: "name"},
		{Node: "const_spec", Kind: graph.KindConstant, NameField: "name", NameTypes: []string{"identifier"}},
		{Node: "var_spec", Kind: graph.KindVariable, NameField: "name", NameTypes: []string{"identifier"}},
	},
	Calls: []CallRule{
		{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"import_spec": goImport},
	Heritage: []HeritageRule{
		{Def: "type_spec", Clause: "field_declaration", Kind: graph.EdgeExtends, Field: "type", SkipIfField: "name"},
		{Def: "type_spec", Clause: "type_elem", Kind: graph.EdgeExtends},
	},
	Member: []MemberRule{{Node: "selector_expression", Object: "operand", Member: "field"},
		{Node: "qualified_type", Object: "package", Member: "name"}},
	Comments:     []string{"comment"},
	DocWrappers:  []string{"type_declaration", "const_declaration", "var_declaration"},
	Exported:     func(name string, _ *sitter.Node) bool { return hasUpperInitial(name) },
	Scope:        goReceiverType,
	Bindings:     goBindings,
	PackageScope: goPackageScope,
	Callee:       goCallee,
	MemberChains: true,
}

// goReceiverType names a method's receiver type, `T` for `(s *T)` and `(s T[K])`.
func goReceiverType(n *sitter.Node, src []byte) string {
	if n.Kind() != "method_declaration" {
		return ""
	}
	recv := n.ChildByFieldName("receiver")
	if recv == nil {
		return ""
	}
	for i := uint(0); i < recv.NamedChildCount(); i++ {
		p := recv.NamedChild(i)
		if p.Kind() != "parameter_declaration" {
			continue
		}
		t := p.ChildByFieldName("type")
		for t != nil {
			switch t.Kind() {
			case "type_identifier":
				return text(t, src)
			case "pointer_type":
				t = t.NamedChild(0)
			case "generic_type":
				t = t.ChildByFieldName("type")
			default:
				return ""
			}
		}
	}
	return ""
}
