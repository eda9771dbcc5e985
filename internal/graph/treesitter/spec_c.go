package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// cDeclarators are the C declarators that wrap a declared name, and the field
// the name continues in ("" for the first named child).
var cDeclarators = map[string]string{
	"init_declarator":          "declarator",
	"pointer_declarator":       "declarator",
	"function_declarator":      "declarator",
	"array_declarator":         "declarator",
	"parenthesized_declarator": "",
	"attributed_declarator":    "",
}

// cDefs are the definitions C and C++ share. A prototype, a global declared
// `extern` and a typedef are Forward: the definition below them in the file, if
// any, is the node. A declaration's struct is the file's, not the declaration's
// (Transparent). A struct, union or enum is a definition only with its body.
var cDefs = []DefRule{
	{Node: "function_definition", Kind: graph.KindFunction, NameField: "declarator", BodyField: "body", KindOf: cKind},
	{Node: "declaration", Kind: graph.KindVariable, NameField: "declarator", KindOf: cKind, Forward: true, Transparent: true},
	{Node: "field_declaration", Kind: graph.KindField, NameField: "declarator", KindOf: cKind, Forward: true},
	{Node: "type_definition", Kind: graph.KindTypeAlias, NameField: "declarator", Forward: true, Transparent: true},
	{Node: "struct_specifier", Kind: graph.KindStruct, NameField: "name", BodyField: "body", NeedsBody: true, Unnamed: typedefName},
	{Node: "union_specifier", Kind: graph.KindStruct, NameField: "name", BodyField: "body", NeedsBody: true, Unnamed: typedefName},
	{Node: "enum_specifier", Kind: graph.KindEnum, NameField: "name", BodyField: "body", NeedsBody: true, Unnamed: typedefName},
	{Node: "enumerator", Kind: graph.KindVariant, NameField: "name"},
	{Node: "preproc_def", Kind: graph.KindConstant, NameField: "name"},
	{Node: "preproc_function_def", Kind: graph.KindFunction, NameField: "name"},
}

// typedefName names `typedef struct {…} T` T.
var typedefName = ParentField{Parent: "type_definition", Field: "declarator"}

// cSpec reads tree-sitter-c v0.23.4.
//
// A union is a struct; an enumerator is a variant of its enum; a `#define` is a
// constant, or a function when it takes parameters. A function pointer, in a
// struct or a variable, is a field or a variable, not a function. A call through
// a pointer (`p->ops->read(p)`) is written with dots (`p.ops.read`).
//
// Exported means visible to other translation units: everything but what is
// declared `static` (a `static` prototype keeps its definition internal).
var cSpec = Spec{
	Refs: []string{"identifier", "type_identifier"},
	Defs: cDefs,
	Calls: []CallRule{
		{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction}},
	},
	Imports:     map[string]func(*sitter.Node, []byte) []string{"preproc_include": cInclude},
	Member:      []MemberRule{{Node: "field_expression", Object: "argument", Member: "field"}},
	Comments:    []string{"comment"},
	DocWrappers: []string{"type_definition", "declaration", "field_declaration"},
	Exported:    cExported,
	Unwrap:      cDeclarators,
}

// cKind tells a function from a variable by the declarator nearest the name: a
// function_declarator declares a function (`f(void)`, `*f(void)`), any other a
// variable (`(*fp)(void)` is a pointer). In a class or struct, or under a
// qualified name (C++ `A::f`), a function is a method and a variable a field.
func cKind(n *sitter.Node, _ []byte) graph.NodeKind {
	kind := graph.KindVariable
	innermost, qualified := "", false
	d := n.ChildByFieldName("declarator")
	for i := 0; d != nil && i < maxUnwrap; i++ {
		k := d.Kind()
		switch k {
		case "function_declarator", "pointer_declarator", "array_declarator", "parenthesized_declarator",
			"reference_declarator":
			innermost = k
		case "qualified_identifier":
			qualified = true
		}
		field, ok := cppDeclarators[k]
		if !ok {
			break
		}
		if field == "" {
			d = d.NamedChild(0)
		} else {
			d = d.ChildByFieldName(field)
		}
	}
	if innermost == "function_declarator" {
		kind = graph.KindFunction
	}
	if !qualified && !inClassBody(n) {
		return kind
	}
	if kind == graph.KindFunction {
		return graph.KindMethod
	}
	return graph.KindField
}

// inClassBody reports whether n is a member of a struct, union or class
// (through a C++ template header).
func inClassBody(n *sitter.Node) bool {
	p := n.Parent()
	if p != nil && p.Kind() == "template_declaration" {
		p = p.Parent()
	}
	return p != nil && p.Kind() == "field_declaration_list"
}

func cExported(_ string, n *sitter.Node) bool {
	if n.Kind() == "enumerator" {
		if e := n.Parent(); e != nil && e.Parent() != nil {
			return cExported("", e.Parent())
		}
	}
	member := n
	if p := n.Parent(); p != nil && p.Kind() == "template_declaration" {
		member = p
	}
	if list := member.Parent(); list != nil && list.Kind() == "field_declaration_list" {
		return cppAccessible(member, list)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "storage_class_specifier" && c.ChildCount() > 0 && c.Child(0).Kind() == "static" {
			return false
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "namespace_definition" && p.ChildByFieldName("name") == nil {
			return false // C++'s anonymous namespace is internal linkage
		}
	}
	return true
}

// cppAccessible reports whether a member of a class body is public or protected:
// the nearest access label above it says, else the default of its class (private)
// or struct and union (public).
func cppAccessible(member, list *sitter.Node) bool {
	for c := member.PrevSibling(); c != nil; c = c.PrevSibling() {
		if c.Kind() == "access_specifier" && c.ChildCount() > 0 {
			return c.Child(0).Kind() != "private"
		}
	}
	owner := list.Parent()
	return owner == nil || owner.Kind() != "class_specifier"
}

func cInclude(n *sitter.Node, src []byte) []string {
	path := strings.TrimSpace(fieldText(n, "path", src))
	if path == "" || len(path) > maxName || strings.Contains(path, "\n") {
		return nil
	}
	return []string{ImportTarget(path, "", "")}
}
