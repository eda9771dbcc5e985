package treesitter

import (
	"maps"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// cppDeclarators adds to C's the C++ declarators around a name: `&r`, `A::f`,
// `Box<T>` (a specialisation is its template's name), `f<int>`.
var cppDeclarators = func() map[string]string {
	m := maps.Clone(cDeclarators)
	m["reference_declarator"] = ""
	m["qualified_identifier"] = "name"
	m["template_type"] = "name"
	m["template_function"] = "name"
	return m
}()

// cppSpec reads tree-sitter-cpp v0.23.4, C's spec and more.
//
// A namespace is a namespace; every base of a class is an extends edge (C++ has
// no interfaces). A method defined out of its class, `void A::f()`, is A's and
// replaces the declaration in A's body when both are in the file; `void ns::f()`
// is a function when the file defines ns as a namespace, a method of ns
// otherwise (syntax cannot tell). A bare call `m()` inside a class is `this->m()`
// first; `this->m()` and `p->m()` are written with a dot, paths with `::`.
//
// Exported: C's rule, except inside an anonymous namespace (internal linkage),
// and for class members, public or protected access.
var cppSpec = Spec{
	Refs: []string{"identifier", "type_identifier", "namespace_identifier"},
	Defs: append(append([]DefRule{}, cDefs...),
		DefRule{Node: "class_specifier", Kind: graph.KindClass, NameField: "name", BodyField: "body", NeedsBody: true, Unnamed: typedefName},
		DefRule{Node: "namespace_definition", Kind: graph.KindNamespace, NameField: "name", BodyField: "body"},
		DefRule{Node: "alias_declaration", Kind: graph.KindTypeAlias, NameField: "name"},
	),
	Calls: []CallRule{
		// `Circle(2.0)` builds a Circle; a bare `m()` in a class may be its own
		// method or, as in Java, an inherited one.
		{Node: "call_expression", Field: "function", Targets: []graph.NodeKind{graph.KindFunction, graph.KindMethod, graph.KindClass, graph.KindStruct}},
		{Node: "new_expression", Field: "type", Targets: []graph.NodeKind{graph.KindClass, graph.KindStruct}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{
		"preproc_include":            cInclude,
		"using_declaration":          cppUsing,
		"namespace_alias_definition": cppNamespaceAlias,
	},
	Heritage: []HeritageRule{
		{Def: "class_specifier", Clause: "base_class_clause", Kind: graph.EdgeExtends},
		{Def: "struct_specifier", Clause: "base_class_clause", Kind: graph.EdgeExtends},
	},
	Member:       []MemberRule{{Node: "field_expression", Object: "argument", Member: "field"}},
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Comments:     []string{"comment"},
	DocWrappers:  []string{"template_declaration", "type_definition", "declaration", "field_declaration"},
	Exported:     cExported,
	Scope:        cppScope,
	Callee:       cppCallee,
	Unwrap:       cppDeclarators,
}

// cppCallee writes `std::make_unique<T>` as std::make_unique and `Box<T>` as Box.
func cppCallee(n *sitter.Node, _ []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "qualified_identifier":
		nm := n.ChildByFieldName("name")
		if nm == nil {
			return ""
		}
		if sc := n.ChildByFieldName("scope"); sc != nil {
			return name(sc) + "::" + name(nm)
		}
		return "::" + name(nm)
	case "template_function", "template_type", "template_method":
		if nm := n.ChildByFieldName("name"); nm != nil {
			return name(nm)
		}
	}
	return ""
}

// cppScope is the scope a qualified name puts a definition in: A for `void
// A::f()`, A::B for `int A::B::n`, Box for `Box<T>::get`; "" for a plain name.
func cppScope(n *sitter.Node, src []byte) string {
	d := n.ChildByFieldName("declarator")
	if d == nil {
		d = n.ChildByFieldName("name")
	}
	for i := 0; d != nil && i < maxUnwrap && d.Kind() != "qualified_identifier"; i++ {
		field, ok := cDeclarators[d.Kind()]
		switch {
		case d.Kind() == "reference_declarator":
			d = d.NamedChild(0)
		case !ok:
			return ""
		case field == "":
			d = d.NamedChild(0)
		default:
			d = d.ChildByFieldName(field)
		}
	}
	var parts []string
	for i := 0; d != nil && i < maxUnwrap && d.Kind() == "qualified_identifier"; i++ {
		sc := d.ChildByFieldName("scope")
		switch {
		case sc == nil: // `::f`, the global namespace
		case sc.Kind() == "namespace_identifier" || sc.Kind() == "type_identifier":
			parts = append(parts, text(sc, src))
		case sc.Kind() == "template_type":
			parts = append(parts, fieldText(sc, "name", src))
		default:
			return "" // decltype(…)::f, a dependent name: no scope to name
		}
		d = d.ChildByFieldName("name")
	}
	return strings.Join(parts, "::")
}

// cppUsing reads `using a::b;` and `using namespace a::b;`; a using-declaration
// in a class body brings a base's member in and imports nothing.
func cppUsing(n *sitter.Node, src []byte) []string {
	if inClassBody(n) {
		return nil
	}
	namespace := false
	var path string
	for i := uint(0); i < n.ChildCount(); i++ {
		switch c := n.Child(i); {
		case c.Kind() == "namespace" && !c.IsNamed():
			namespace = true
		case c.IsNamed():
			path = strings.Join(strings.Fields(text(c, src)), "")
		}
	}
	if path == "" {
		return nil
	}
	if namespace {
		return []string{ImportTarget(path, "*", "")}
	}
	return []string{cppPathTarget(path, "")}
}

// cppNamespaceAlias reads `namespace fs = std::filesystem;`.
func cppNamespaceAlias(n *sitter.Node, src []byte) []string {
	alias := fieldText(n, "name", src)
	for i := n.NamedChildCount(); i > 0; i-- {
		if c := n.NamedChild(i - 1); c.Kind() == "nested_namespace_specifier" || c.Kind() == "namespace_identifier" {
			if path := text(c, src); path != alias {
				return []string{cppPathTarget(strings.Join(strings.Fields(path), ""), alias)}
			}
		}
	}
	return nil
}

// cppPathTarget splits a namespace path before its last segment.
func cppPathTarget(path, alias string) string {
	i := strings.LastIndex(path, "::")
	if i <= 0 {
		return ImportTarget(strings.TrimPrefix(path, "::"), "", alias)
	}
	return ImportTarget(path[:i], path[i+len("::"):], alias)
}
