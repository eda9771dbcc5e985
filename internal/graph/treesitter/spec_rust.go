package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// rustSpec reads tree-sitter-rust v0.23.2.
//
// An `impl T` block makes no node: its items are T's (`a.rs::T::m`, wherever T is
// defined), and `impl Trait for T` is an implements edge from T. A trait is an
// interface, its supertraits extends edges; an inline `mod` is a namespace; a
// union is a struct; a `macro_rules!` macro is a function, and a macro
// invocation a call of it. Calls inside macro arguments are not read: the grammar
// keeps them as unparsed token trees.
//
// Exported means `pub` as written; `pub(crate)` and `pub(super)` are not. Enum
// variants and trait items are as visible as their enum or trait, and the items of
// a trait impl are exported: they are reachable wherever the type and the trait
// are.
var rustSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: []DefRule{
		{Node: "function_item", Kind: graph.KindFunction, InType: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "function_signature_item", Kind: graph.KindFunction, InType: graph.KindMethod, NameField: "name"},
		{Node: "struct_item", Kind: graph.KindStruct, NameField: "name", BodyField: "body"},
		{Node: "union_item", Kind: graph.KindStruct, NameField: "name", BodyField: "body"},
		{Node: "enum_item", Kind: graph.KindEnum, NameField: "name", BodyField: "body"},
		{Node: "enum_variant", Kind: graph.KindVariant, NameField: "name"},
		{Node: "trait_item", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "impl_item", Kind: graph.KindStruct, NameField: "type", Reopens: true},
		{Node: "mod_item", Kind: graph.KindNamespace, NameField: "name", BodyField: "body"},
		{Node: "type_item", Kind: graph.KindTypeAlias, NameField: "name"},
		{Node: "associated_type", Kind: graph.KindTypeAlias, NameField: "name"},
		{Node: "const_item", Kind: graph.KindConstant, NameField: "name"},
		{Node: "static_item", Kind: graph.KindVariable, NameField: "name"},
		{Node: "field_declaration", Kind: graph.KindField, NameField: "name"},
		{Node: "macro_definition", Kind: graph.KindFunction, NameField: "name"},
	},
	Calls: []CallRule{
		// A tuple struct or a tuple variant is called to build one.
		{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction, graph.KindStruct, graph.KindVariant}},
		{Node: "macro_invocation", Field: "macro", Targets: []graph.NodeKind{graph.KindFunction}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{
		"use_declaration":          rustUse,
		"extern_crate_declaration": rustExternCrate,
	},
	Heritage: []HeritageRule{
		{Def: "trait_item", DefField: "bounds", Clause: "trait_bounds", Kind: graph.EdgeExtends},
		{Def: "impl_item", DefField: "trait", Kind: graph.EdgeImplements, Bases: itself},
	},
	Member:    []MemberRule{{Node: "field_expression", Object: "value", Member: "field"}},
	SelfNames: []string{"self", "Self"},
	Comments:  []string{"line_comment", "block_comment"},
	DocSkip:   []string{"attribute_item"},
	Exported:  rustExported,
	Callee:    rustCallee,
	// The type an impl reopens: `Circle<T>`, `&'a Circle`, `shapes::Circle` are Circle.
	Unwrap: map[string]string{"generic_type": "type", "reference_type": "type", "scoped_type_identifier": "name"},
}

// itself is a heritage clause that is its own base (a Rust impl's trait).
func itself(clause *sitter.Node, _ []byte) []*sitter.Node { return []*sitter.Node{clause} }

// rustCallee writes paths with `::` (`Self::new`, `std::mem::drop`) and a generic
// function by its name (`parse::<u8>` is parse).
func rustCallee(n *sitter.Node, _ []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "scoped_identifier":
		nm := n.ChildByFieldName("name")
		if nm == nil {
			return ""
		}
		if p := n.ChildByFieldName("path"); p != nil {
			return name(p) + "::" + name(nm)
		}
		return "::" + name(nm)
	case "generic_function":
		if f := n.ChildByFieldName("function"); f != nil {
			return name(f)
		}
	case "generic_type": // the path of `Vec::<u8>::new`
		if t := n.ChildByFieldName("type"); t != nil {
			return name(t)
		}
	}
	return ""
}

func rustExported(_ string, n *sitter.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "visibility_modifier" {
			return c.ChildCount() == 1 // `pub`, not `pub(crate)`
		}
	}
	p := n.Parent()
	if p == nil {
		return false
	}
	owner := p.Parent()
	switch {
	case p.Kind() == "enum_variant_list" && owner != nil:
		return rustExported("", owner)
	case p.Kind() == "field_declaration_list" && owner != nil && owner.Kind() == "enum_variant":
		return rustExported("", owner)
	case p.Kind() == "declaration_list" && owner != nil && owner.Kind() == "trait_item":
		return rustExported("", owner)
	case p.Kind() == "declaration_list" && owner != nil && owner.Kind() == "impl_item":
		return owner.ChildByFieldName("trait") != nil
	}
	return false
}

func rustExternCrate(n *sitter.Node, src []byte) []string {
	name := fieldText(n, "name", src)
	if name == "" {
		return nil
	}
	return []string{ImportTarget(name, "", fieldText(n, "alias", src))}
}

func rustUse(n *sitter.Node, src []byte) []string {
	var out []string
	if arg := n.ChildByFieldName("argument"); arg != nil {
		rustUseTree(arg, "", 0, src, &out)
	}
	return out
}

// maxUseDepth bounds the nesting of use lists followed (`use a::{b::{c}}` is 2).
const maxUseDepth = 16

// rustUseTree appends the targets of one use tree under the path prefix.
func rustUseTree(t *sitter.Node, prefix string, depth int, src []byte, out *[]string) {
	if depth > maxUseDepth {
		return
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "::" + b
	}
	path := func(n *sitter.Node) string { return strings.Join(strings.Fields(text(n, src)), "") }
	switch t.Kind() {
	case "scoped_use_list":
		p := prefix
		if pn := t.ChildByFieldName("path"); pn != nil {
			p = join(prefix, path(pn))
		}
		if list := t.ChildByFieldName("list"); list != nil {
			rustUseTree(list, p, depth+1, src, out)
		}
	case "use_list":
		for i := uint(0); i < t.NamedChildCount(); i++ {
			rustUseTree(t.NamedChild(i), prefix, depth+1, src, out)
		}
	case "use_as_clause":
		if pn := t.ChildByFieldName("path"); pn != nil {
			*out = append(*out, rustTarget(join(prefix, path(pn)), fieldText(t, "alias", src)))
		}
	case "use_wildcard":
		p := prefix
		if t.NamedChildCount() > 0 {
			p = join(prefix, path(t.NamedChild(0)))
		}
		*out = append(*out, ImportTarget(p, "*", ""))
	case "identifier", "scoped_identifier", "self", "crate", "super", "metavariable":
		*out = append(*out, rustTarget(join(prefix, path(t)), ""))
	}
}

// rustTarget splits a use path before its last segment; a trailing `self` names
// the path before it (`use a::b::{self}` imports a::b).
func rustTarget(path, alias string) string {
	path = strings.TrimSuffix(path, "::self")
	i := strings.LastIndex(path, "::")
	if i < 0 {
		return ImportTarget(path, "", alias)
	}
	return ImportTarget(path[:i], path[i+len("::"):], alias)
}
