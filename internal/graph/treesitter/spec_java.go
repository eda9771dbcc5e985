package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// javaSpec reads tree-sitter-java v0.23.5.
//
// A record is a class and its components are its fields; an annotation type is
// an interface; a constructor is a method named after its class; an enum constant
// is a variant. `extends` of a class or an interface is an extends edge,
// `implements` (of a class, an enum, a record) an implements edge. A bare call
// `m()` inside a class is `this.m()` first.
//
// Exported means visible outside the package: declared `public` or `protected`,
// a member of an interface or an annotation type (public unless `private`), or an
// enum constant.
var javaSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: []DefRule{
		{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
		{Node: "interface_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "enum_declaration", Kind: graph.KindEnum, NameField: "name", BodyField: "body"},
		{Node: "record_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
		{Node: "annotation_type_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "method_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "constructor_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "compact_constructor_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "annotation_type_element_declaration", Kind: graph.KindMethod, NameField: "name"},
		{Node: "field_declaration", Kind: graph.KindField, NameField: "declarator"},
		{Node: "constant_declaration", Kind: graph.KindConstant, NameField: "declarator"},
		{Node: "enum_constant", Kind: graph.KindVariant, NameField: "name", BodyField: "body"},
		// A record's components; a method's parameters are locals and are skipped.
		{Node: "formal_parameter", Kind: graph.KindField, NameField: "name"},
	},
	Calls: []CallRule{
		{Node: "method_invocation", Field: "name", Receiver: "object", Targets: []graph.NodeKind{graph.KindMethod}},
		{Node: "object_creation_expression", Field: "type", Targets: []graph.NodeKind{graph.KindClass}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"import_declaration": javaImport},
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "superclass", Kind: graph.EdgeExtends},
		{Def: "class_declaration", Clause: "super_interfaces", Kind: graph.EdgeImplements, Bases: javaTypeList},
		{Def: "enum_declaration", Clause: "super_interfaces", Kind: graph.EdgeImplements, Bases: javaTypeList},
		{Def: "record_declaration", Clause: "super_interfaces", Kind: graph.EdgeImplements, Bases: javaTypeList},
		{Def: "interface_declaration", Clause: "extends_interfaces", Kind: graph.EdgeExtends, Bases: javaTypeList},
	},
	Member:       []MemberRule{{Node: "field_access", Object: "object", Member: "field"}},
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Comments:     []string{"line_comment", "block_comment"},
	Exported:     javaExported,
	Callee:       javaCallee,
	Unwrap:       map[string]string{"variable_declarator": "name"},
}

// javaTypeList is the types of an `implements` or interface `extends` clause,
// which holds them in a type_list.
func javaTypeList(clause *sitter.Node, _ []byte) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < clause.NamedChildCount(); i++ {
		if l := clause.NamedChild(i); l.Kind() == "type_list" {
			for j := uint(0); j < l.NamedChildCount(); j++ {
				out = append(out, l.NamedChild(j))
			}
		}
	}
	return out
}

// javaCallee names the class of `new List<T>()` and `new java.util.List()`.
func javaCallee(n *sitter.Node, src []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "generic_type":
		if n.NamedChildCount() > 0 {
			return name(n.NamedChild(0))
		}
	case "scoped_type_identifier":
		if s := text(n, src); len(s) <= maxName && !strings.ContainsAny(s, " \n\t@") {
			return s
		}
	}
	return ""
}

func javaExported(_ string, n *sitter.Node) bool {
	if n.Kind() == "enum_constant" {
		return true
	}
	var mods *sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "modifiers" {
			mods = c
			break
		}
	}
	if mods != nil {
		for i := uint(0); i < mods.ChildCount(); i++ {
			switch mods.Child(i).Kind() {
			case "public", "protected":
				return true
			case "private":
				return false
			}
		}
	}
	p := n.Parent()
	return p != nil && (p.Kind() == "interface_body" || p.Kind() == "annotation_type_body")
}

func javaImport(n *sitter.Node, src []byte) []string {
	var path string
	star := false
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "scoped_identifier", "identifier":
			path = strings.Join(strings.Fields(text(c, src)), "")
		case "asterisk":
			star = true
		}
	}
	switch i := strings.LastIndex(path, "."); {
	case path == "":
		return nil
	case star:
		return []string{ImportTarget(path, "*", "")}
	case i < 0:
		return []string{ImportTarget(path, "", "")}
	default:
		return []string{ImportTarget(path[:i], path[i+1:], "")}
	}
}
