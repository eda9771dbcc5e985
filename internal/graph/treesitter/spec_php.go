package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// phpSpec reads tree-sitter-php v0.23.11 (its `php` grammar: PHP with inline HTML).
//
// Namespaces are definitions that scope what follows them, braced or not
// (`namespace A\B;`), named as written: `f.php::A\B::Circle`. A trait is an
// interface (the model's kind for traits), and a class, enum or trait that uses a
// trait implements it. Properties are fields named without their `$`; class and
// global constants are constants; enum cases are variants. Properties promoted
// from constructor parameters are not read.
//
// Exported means callable from outside the class: every top-level definition, and
// a member not declared private or protected (PHP members are public by default).
var phpSpec = Spec{
	Refs: []string{"name"},
	Defs: []DefRule{
		{Node: "namespace_definition", Kind: graph.KindNamespace, NameField: "name", BodyField: "body", OpensRest: true},
		{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", BodyField: "body"},
		{Node: "interface_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "trait_declaration", Kind: graph.KindInterface, NameField: "name", BodyField: "body"},
		{Node: "enum_declaration", Kind: graph.KindEnum, NameField: "name", BodyField: "body"},
		{Node: "enum_case", Kind: graph.KindVariant, NameField: "name"},
		{Node: "function_definition", Kind: graph.KindFunction, NameField: "name", BodyField: "body"},
		{Node: "method_declaration", Kind: graph.KindMethod, NameField: "name", BodyField: "body"},
		{Node: "property_element", Kind: graph.KindField, NameField: "name", NamePrefix: "$"},
		{Node: "const_element", Kind: graph.KindConstant, NameTypes: []string{"name"}},
	},
	Calls: []CallRule{
		{Node: "function_call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction}, When: phpNotConstruct},
		{Node: "member_call_expression", Field: "name", Receiver: "object", Targets: []graph.NodeKind{graph.KindMethod}},
		{Node: "nullsafe_member_call_expression", Field: "name", Receiver: "object", Targets: []graph.NodeKind{graph.KindMethod}},
		{Node: "scoped_call_expression", Field: "name", Receiver: "scope", Targets: []graph.NodeKind{graph.KindMethod}},
		// `new A(...)` names its class in no field: phpCallee reads it.
		{Node: "object_creation_expression", Targets: []graph.NodeKind{graph.KindClass}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{
		"namespace_use_declaration": phpUse,
		"require_expression":        phpInclude,
		"require_once_expression":   phpInclude,
		"include_expression":        phpInclude,
		"include_once_expression":   phpInclude,
	},
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "base_clause", Kind: graph.EdgeExtends},
		{Def: "class_declaration", Clause: "class_interface_clause", Kind: graph.EdgeImplements},
		{Def: "class_declaration", Clause: "use_declaration", Kind: graph.EdgeImplements, InBody: "body"},
		{Def: "interface_declaration", Clause: "base_clause", Kind: graph.EdgeExtends},
		{Def: "enum_declaration", Clause: "class_interface_clause", Kind: graph.EdgeImplements},
		{Def: "enum_declaration", Clause: "use_declaration", Kind: graph.EdgeImplements, InBody: "body"},
		{Def: "trait_declaration", Clause: "use_declaration", Kind: graph.EdgeImplements, InBody: "body"},
	},
	Member: []MemberRule{
		{Node: "member_access_expression", Object: "object", Member: "name"},
		{Node: "nullsafe_member_access_expression", Object: "object", Member: "name"},
		{Node: "scoped_property_access_expression", Object: "scope", Member: "name"},
	},
	// `self::m()` and `static::m()` call the enclosing class's m as `$this->m()` does.
	SelfNames: []string{"$this", "self", "static"},
	Comments:  []string{"comment"},
	Exported:  phpExported,
	Callee:    phpCallee,
}

// phpConstructs are language constructs the grammar parses as function calls.
var phpConstructs = map[string]bool{"isset": true, "empty": true, "eval": true}

// phpNotConstruct rejects `isset($x)` and its kin: they call no function.
func phpNotConstruct(n, _ *sitter.Node, src []byte) bool {
	f := n.ChildByFieldName("function")
	return f == nil || f.Kind() != "name" || !phpConstructs[strings.ToLower(text(f, src))]
}

func phpExported(_ string, n *sitter.Node) bool {
	holder := n
	if k := n.Kind(); k == "property_element" || k == "const_element" {
		if p := n.Parent(); p != nil {
			holder = p
		}
	}
	for i := uint(0); i < holder.NamedChildCount(); i++ {
		c := holder.NamedChild(i)
		if c.Kind() == "visibility_modifier" && c.ChildCount() > 0 {
			if k := c.Child(0).Kind(); k == "private" || k == "protected" {
				return false
			}
		}
	}
	return true
}

// phpCallee writes a variable (`$this`, `$f`) and a qualified name (`\A\B`) whole,
// and names the class of `new A(...)`.
func phpCallee(n *sitter.Node, src []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "variable_name", "qualified_name":
		if s := text(n, src); len(s) <= maxName && !strings.ContainsAny(s, " \n\t") {
			return s
		}
	case "object_creation_expression":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			switch c := n.NamedChild(i); c.Kind() {
			case "name", "qualified_name", "variable_name":
				return name(c)
			case "arguments", "comment", "attribute_list":
			default:
				return exprName // `new class {...}`, `new ($f())`
			}
		}
	}
	return ""
}

// phpUse reads a namespace use declaration as namespace::name, the namespace
// without a leading `\` and empty for the global namespace:
//
//	use A\B\C;             A\B::C
//	use A\B\C as D;        A\B::C as D
//	use C;                 ::C
//	use function A\f;      A::f          (functions and constants alike)
//	use A\{B, C\D as E};   A::B · A\C::D as E
func phpUse(n *sitter.Node, src []byte) []string {
	prefix, list := "", n
	if group := n.ChildByFieldName("body"); group != nil {
		list = group
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if c := n.NamedChild(i); c.Kind() == "namespace_name" {
				prefix = text(c, src)
			}
		}
	}
	var out []string
	for i := uint(0); i < list.NamedChildCount(); i++ {
		clause := list.NamedChild(i)
		if clause.Kind() != "namespace_use_clause" {
			continue
		}
		var path string
		for j := uint(0); j < clause.NamedChildCount(); j++ {
			if c := clause.NamedChild(j); c.Kind() == "name" || c.Kind() == "qualified_name" {
				if clause.FieldNameForNamedChild(uint32(j)) != "alias" {
					path = text(c, src)
					break
				}
			}
		}
		if prefix != "" {
			path = prefix + `\` + path
		}
		path = strings.TrimPrefix(path, `\`)
		if path == "" || len(path) > maxName || strings.ContainsAny(path, " \n\t") {
			continue
		}
		ns, name := "", path
		if k := strings.LastIndex(path, `\`); k >= 0 {
			ns, name = path[:k], path[k+1:]
		}
		out = append(out, ImportTarget(ns, name, fieldText(clause, "alias", src)))
	}
	return out
}

// phpInclude reads require, require_once, include and include_once of a path PHP
// can be read to know:
//
//	require 'lib/x.php';                 lib/x.php      (as written: the include path, then the file's directory)
//	require __DIR__ . '/lib/x.php';      ./lib/x.php    (relative to the requiring file)
//	require dirname(__FILE__) . '/x.php' ./x.php
//
// A computed path is no target; the expression is then read for its calls.
func phpInclude(n *sitter.Node, src []byte) []string {
	if n.NamedChildCount() == 0 {
		return nil
	}
	e := n.NamedChild(0)
	if s, ok := phpString(e, src); ok {
		return []string{ImportTarget(s, "", "")}
	}
	if e.Kind() != "binary_expression" || fieldText(e, "operator", src) != "." {
		return nil
	}
	left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
	s, ok := phpString(right, src)
	if !ok || left == nil || !phpIsFileDir(left, src) {
		return nil
	}
	return []string{ImportTarget("./"+strings.TrimPrefix(s, "/"), "", "")}
}

// phpIsFileDir reports whether n is `__DIR__` or `dirname(__FILE__)`.
func phpIsFileDir(n *sitter.Node, src []byte) bool {
	switch n.Kind() {
	case "name":
		return text(n, src) == "__DIR__"
	case "function_call_expression":
		args := n.ChildByFieldName("arguments")
		return fieldText(n, "function", src) == "dirname" && args != nil &&
			strings.Join(strings.Fields(text(args, src)), "") == "(__FILE__)"
	}
	return false
}

// phpString is the content of a string literal without interpolation.
func phpString(n *sitter.Node, src []byte) (string, bool) {
	if n == nil || (n.Kind() != "string" && n.Kind() != "encapsed_string") ||
		n.NamedChildCount() != 1 || n.NamedChild(0).Kind() != "string_content" {
		return "", false
	}
	s := text(n.NamedChild(0), src)
	if s == "" || len(s) > maxName || strings.ContainsAny(s, "\n") {
		return "", false
	}
	return s, true
}
