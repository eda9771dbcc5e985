package treesitter

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// goSpec reads tree-sitter-go v0.25.0. It is the fallback for Go that does not
// type-check (internal/graph/golang is the exact path). Its QNames are
// file-scoped like every tree-sitter language's (`a/b.go::Server::Handle`); the
// indexer renames them to the type checker's `<import path>.<Type>.<Method>`
// (golang.FallbackNames), so that a name does not depend on the path that
// extracted it. Struct and interface embedding are extends edges, and so is an
// alias to the type it denotes, as the type checker draws it.
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
		// An alias extends what it denotes: questions about it are its target's.
		{Def: "type_alias", DefField: "type", Kind: graph.EdgeExtends, Bases: goAliasTarget},
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

// goAliasTarget is the type an alias denotes when it names one (`T`, `pkg.T`,
// `pkg.T[K]`); a slice, a map or a function type denotes no definition.
func goAliasTarget(t *sitter.Node, _ []byte) []*sitter.Node {
	switch t.Kind() {
	case "type_identifier", "qualified_type":
		return []*sitter.Node{t}
	case "generic_type":
		if g := t.ChildByFieldName("type"); g != nil {
			return []*sitter.Node{g}
		}
	}
	return nil
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
