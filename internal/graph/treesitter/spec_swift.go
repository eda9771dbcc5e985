package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// swiftSpec reads tree-sitter-swift 0.7.1 (vendored in grammar/swift).
//
// class_declaration is a class, struct, enum or actor (a class) by its keyword;
// an `extension T` is read as T reopened: its members are T's (in this file's
// qualified names). A protocol is an interface. A function in a type is a method;
// a property is a field in a type, and at the top level a constant (`let`) or a
// variable (`var`); an enum case is a variant. An initialiser (`init`) is not a
// definition of its own: its calls are its type's. The first base of a class may
// be its superclass, so it is an extends edge; every other base, and every base of
// a struct, enum, extension or protocol, is a protocol, implements (a protocol
// extends its bases). A bare call in a type is `self.m()` first; `Circle(…)` is a
// call of the type. A receiver whose type the file declares (`_ p: Foo`,
// `let x = Foo()`, a stored property `let repo: Repo` for `self.repo`) makes
// `x.m()` the site `Foo.m`.
//
// Exported means not `private` nor `fileprivate`. Name uses are not read (no
// Refs): a member's name sits in a navigation_suffix the member rules do not skip.
var swiftSpec = Spec{
	Defs: []DefRule{
		{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body", KindOf: swiftTypeKind},
		{Node: "protocol_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "function_declaration", Kind: graph.KindFunction, InType: graph.KindMethod, NameField: "name",
			NameTypes: []string{"simple_identifier"}, BodyField: "body"},
		{Node: "protocol_function_declaration", Kind: graph.KindMethod, NameField: "name", NameTypes: []string{"simple_identifier"}},
		{Node: "property_declaration", Kind: graph.KindVariable, InType: graph.KindField, NameField: "name", KindOf: swiftPropertyKind},
		{Node: "protocol_property_declaration", Kind: graph.KindField, NameField: "name"},
		{Node: "typealias_declaration", Kind: graph.KindTypeAlias, Names: swiftFirstName},
		{Node: "enum_entry", Kind: graph.KindVariant, NameField: "name"},
	},
	Calls: []CallRule{
		{Node: "call_expression", CalleeFirst: true,
			Targets: []graph.NodeKind{graph.KindFunction, graph.KindMethod, graph.KindClass, graph.KindStruct}},
		// `Box<Int>(value: 1)`: a generic type's initialiser.
		{Node: "constructor_expression", Field: "constructed_type",
			Targets: []graph.NodeKind{graph.KindClass, graph.KindStruct}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"import_declaration": swiftImport},
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "inheritance_specifier", Kind: graph.EdgeExtends, Bases: swiftSuperclass},
		{Def: "class_declaration", Clause: "inheritance_specifier", Kind: graph.EdgeImplements, Bases: swiftProtocol},
		{Def: "protocol_declaration", Clause: "inheritance_specifier", Kind: graph.EdgeExtends, Field: "inherits_from"},
	},
	Member:       []MemberRule{{Node: "navigation_expression", Object: "target", Member: "suffix"}},
	SelfNames:    []string{"self"},
	ImplicitSelf: true,
	Comments:     []string{"comment", "multiline_comment"},
	Exported:     swiftExported,
	Callee:       swiftCallee,
	Bindings:     swiftBindings,
	// Every file of a module sees the others' types without an import: a
	// receiver declared with one is a site for the cross-file pass.
	PackageScope: hasUpperInitial,
	// An extension names its type as a user_type; a property its pattern.
	Unwrap: map[string]string{"user_type": "", "pattern": "bound_identifier"},
}

// swiftFirstName is the first child in the name field: the grammar labels the
// aliased type `name` too (`typealias R = Double`).
func swiftFirstName(n *sitter.Node, _ []byte) []*sitter.Node {
	if c := n.ChildByFieldName("name"); c != nil {
		return []*sitter.Node{c}
	}
	return nil
}

// swiftTypeKind reads the keyword of a class_declaration (an anonymous token).
func swiftTypeKind(n *sitter.Node, _ []byte) graph.NodeKind {
	if k := n.ChildByFieldName("declaration_kind"); k != nil {
		switch k.Kind() {
		case "struct":
			return graph.KindStruct
		case "enum":
			return graph.KindEnum
		}
	}
	return ""
}

// swiftPropertyKind makes a top-level `let` a constant.
func swiftPropertyKind(n *sitter.Node, src []byte) graph.NodeKind {
	if p := n.Parent(); p == nil || p.Kind() != "source_file" {
		return ""
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "value_binding_pattern" && fieldText(c, "mutability", src) == "let" {
			return graph.KindConstant
		}
	}
	return ""
}

// swiftFirstBase reports whether a base is the first of a class declaration.
func swiftFirstBase(clause *sitter.Node) (first, ofClass bool) {
	p := clause.Parent()
	if p == nil {
		return false, false
	}
	for i := uint(0); i < p.NamedChildCount(); i++ {
		if c := p.NamedChild(i); c.Kind() == "inheritance_specifier" {
			first = c.Id() == clause.Id()
			break
		}
	}
	if k := p.ChildByFieldName("declaration_kind"); k != nil {
		ofClass = k.Kind() == "class"
	}
	return first, ofClass
}

// swiftSuperclass is a class's first base.
func swiftSuperclass(clause *sitter.Node, _ []byte) []*sitter.Node {
	if first, ofClass := swiftFirstBase(clause); first && ofClass {
		return swiftBase(clause)
	}
	return nil
}

// swiftProtocol is any other base.
func swiftProtocol(clause *sitter.Node, _ []byte) []*sitter.Node {
	if first, ofClass := swiftFirstBase(clause); first && ofClass {
		return nil
	}
	return swiftBase(clause)
}

func swiftBase(clause *sitter.Node) []*sitter.Node {
	if t := clause.ChildByFieldName("inherits_from"); t != nil && t.Kind() == "user_type" {
		return []*sitter.Node{t}
	}
	return nil
}

// swiftImport reads `import Foundation` and `import class UIKit.UIView`.
func swiftImport(n *sitter.Node, src []byte) []string {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "identifier" {
			path := text(c, src)
			if path == "" || len(path) > maxName || strings.ContainsAny(path, " \n") {
				return nil
			}
			if j := strings.LastIndex(path, "."); j > 0 {
				return []string{ImportTarget(path[:j], path[j+1:], "")}
			}
			return []string{ImportTarget(path, "", "")}
		}
	}
	return nil
}

// swiftExported: visible outside the file unless `private` or `fileprivate`.
func swiftExported(_ string, n *sitter.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		m := n.NamedChild(i)
		if m.Kind() != "modifiers" {
			continue
		}
		for j := uint(0); j < m.NamedChildCount(); j++ {
			if c := m.NamedChild(j); c.Kind() == "visibility_modifier" {
				if v := c.Child(0); v != nil && (v.Kind() == "private" || v.Kind() == "fileprivate") {
					return false
				}
			}
		}
	}
	return true
}

// swiftCallee writes `.member` of a navigation as its name, and `self` as itself.
func swiftCallee(n *sitter.Node, src []byte, _ func(*sitter.Node) string) string {
	switch n.Kind() {
	case "navigation_suffix":
		if s := n.ChildByFieldName("suffix"); s != nil && s.Kind() == "simple_identifier" {
			return text(s, src)
		}
		return exprName
	case "user_type": // a generic type called: its name without the arguments
		s, _, _ := strings.Cut(text(n, src), "<")
		if s == "" || len(s) > maxName || strings.ContainsAny(s, " \n\t") {
			return exprName
		}
		return s
	case "self_expression":
		return "self"
	case "super_expression":
		return "super"
	}
	return ""
}
