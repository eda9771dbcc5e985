package treesitter

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// csharpSpec reads tree-sitter-c-sharp v0.23.1.
//
// Namespaces are definitions that scope their types, block-bodied or file-scoped
// (`namespace A.B;`), named as written: `f.cs::A.B::Circle`. Properties and events
// are fields; a `const` field is a constant; a constructor is a method named after
// its class. Operators, indexers and destructors have no name of their own and are
// not definitions.
//
// Exported means visible outside the assembly: declared `public` or `protected`
// (not `private protected`), or, with no access modifier, an interface member or
// an enum member; namespaces are always exported. A type without a modifier is
// internal, so not exported.
var csharpSpec = Spec{
	Refs: []string{"identifier"},
	Defs: []DefRule{
		{Node: "namespace_declaration", Kind: graph.KindNamespace, NameField: "name", BodyField: "body"},
		{Node: "file_scoped_namespace_declaration", Kind: graph.KindNamespace, NameField: "name", OpensRest: true},
		{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
		{Node: "record_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body", KindOf: csharpRecordKind},
		{Node: "struct_declaration", Kind: graph.KindStruct, NameField: "name", BodyField: "body"},
		{Node: "interface_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "enum_declaration", Kind: graph.KindEnum, NameField: "name", BodyField: "body"},
		{Node: "enum_member_declaration", Kind: graph.KindVariant, NameField: "name"},
		{Node: "delegate_declaration", Kind: graph.KindType, NameField: "name"},
		{Node: "method_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "constructor_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "local_function_statement", Kind: graph.KindFunction, NameField: "name", BodyField: "body"},
		{Node: "property_declaration", Kind: graph.KindField, NameField: "name", BodyField: "accessors"},
		{Node: "event_declaration", Kind: graph.KindField, NameField: "name", BodyField: "accessors"},
		// Field and event-field declarators; a declarator outside a type is a
		// top-level statement's variable.
		{Node: "variable_declarator", Kind: graph.KindVariable, InType: graph.KindField, NameField: "name", KindOf: csharpConstKind},
	},
	Calls: []CallRule{
		{Node: "invocation_expression", Field: "function", Targets: []graph.NodeKind{graph.KindMethod, graph.KindFunction}},
		{Node: "object_creation_expression", Field: "type", Targets: []graph.NodeKind{graph.KindClass, graph.KindStruct}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"using_directive": csharpUsing},
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "base_list", Kind: graph.EdgeExtends, Pick: csharpClassBase},
		{Def: "record_declaration", Clause: "base_list", Kind: graph.EdgeExtends, Pick: csharpClassBase},
		{Def: "struct_declaration", Clause: "base_list", Kind: graph.EdgeImplements},
		{Def: "interface_declaration", Clause: "base_list", Kind: graph.EdgeExtends},
	},
	Member: []MemberRule{
		{Node: "member_access_expression", Object: "expression", Member: "name"},
		{Node: "qualified_name", Object: "qualifier", Member: "name"},
	},
	SelfNames:    []string{"this"},
	Comments:     []string{"comment"},
	Exported:     csharpExported,
	Callee:       csharpCallee,
	ImplicitSelf: true, // a bare `m()` inside a class is `this.m()`
}

// csharpClassBase decides what a class's base is. C# syntax does not say whether
// the first base is a class or an interface; the .NET naming rule does: an
// interface is named `I` and a capital (`IDisposable`). So the first base is
// extended unless it is so named, and every later base is implemented.
func csharpClassBase(i int, name string) graph.EdgeKind {
	if i == 0 && !csharpInterfaceName(name) {
		return graph.EdgeExtends
	}
	return graph.EdgeImplements
}

func csharpInterfaceName(qualified string) bool {
	name := qualified[strings.LastIndexAny(qualified, ".:")+1:]
	r, size := utf8.DecodeRuneInString(name[min(1, len(name)):])
	return strings.HasPrefix(name, "I") && size > 0 && unicode.IsUpper(r)
}

// csharpRecordKind makes a `record struct` a struct.
func csharpRecordKind(n *sitter.Node, _ []byte) graph.NodeKind {
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Kind() == "struct" {
			return graph.KindStruct
		}
	}
	return ""
}

// csharpConstKind makes a declarator of a `const` field a constant.
func csharpConstKind(n *sitter.Node, _ []byte) graph.NodeKind {
	if decl := csharpDeclaration(n); decl.Kind() == "field_declaration" && csharpModifiers(decl)["const"] {
		return graph.KindConstant
	}
	return ""
}

// csharpDeclaration is the node that carries a definition's modifiers: the
// declaration around a variable declarator, else the definition itself.
func csharpDeclaration(n *sitter.Node) *sitter.Node {
	if n.Kind() == "variable_declarator" {
		if p := n.Parent(); p != nil && p.Kind() == "variable_declaration" {
			if d := p.Parent(); d != nil {
				return d
			}
		}
	}
	return n
}

// csharpModifiers lists a declaration's modifiers. A modifier node wraps its
// keyword, whose node type is the keyword itself, so no source text is needed.
func csharpModifiers(decl *sitter.Node) map[string]bool {
	mods := map[string]bool{}
	for i := uint(0); i < decl.NamedChildCount(); i++ {
		if c := decl.NamedChild(i); c.Kind() == "modifier" && c.ChildCount() > 0 {
			mods[c.Child(0).Kind()] = true
		}
	}
	return mods
}

func csharpExported(_ string, n *sitter.Node) bool {
	switch n.Kind() {
	case "namespace_declaration", "file_scoped_namespace_declaration":
		return true
	case "enum_member_declaration":
		return true
	case "local_function_statement":
		return false
	}
	decl := csharpDeclaration(n)
	access := csharpModifiers(decl)
	switch {
	case access["public"]:
		return true
	case access["protected"]:
		return !access["private"]
	case access["private"] || access["internal"]:
		return false
	}
	// No access modifier: members of an interface are public.
	p := decl.Parent()
	return p != nil && p.Kind() == "declaration_list" && p.Parent() != nil && p.Parent().Kind() == "interface_declaration"
}

// csharpCallee names what the member rules cannot: a generic method or type by its
// identifier (`Get<T>()` calls Get) and a conditional access `a?.M()` as `a.M`.
func csharpCallee(n *sitter.Node, src []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "generic_name":
		if n.NamedChildCount() > 0 {
			return name(n.NamedChild(0))
		}
	case "conditional_access_expression":
		cond := n.ChildByFieldName("condition")
		for i := uint(0); cond != nil && i < n.NamedChildCount(); i++ {
			if b := n.NamedChild(i); b.Kind() == "member_binding_expression" {
				if m := b.ChildByFieldName("name"); m != nil {
					return name(cond) + "." + name(m)
				}
			}
		}
	}
	return ""
}

// csharpUsing reads a using directive:
//
//	using A.B;               A.B
//	global using A.B;        A.B
//	using static A.B.Math;   A.B.Math::*
//	using X = A.B.C;         A.B.C as X
func csharpUsing(n *sitter.Node, src []byte) []string {
	var target string
	static := false
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch {
		case !c.IsNamed():
			static = static || c.Kind() == "static"
		case c.Kind() == "comment" || n.FieldNameForChild(uint32(i)) == "name":
		default:
			target = strings.Join(strings.Fields(text(c, src)), "")
		}
	}
	if target == "" || len(target) > maxName {
		return nil
	}
	if static {
		return []string{ImportTarget(target, "*", "")}
	}
	return []string{ImportTarget(target, "", fieldText(n, "name", src))}
}
