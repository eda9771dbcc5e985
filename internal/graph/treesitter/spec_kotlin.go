package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// kotlinSpec reads @tree-sitter-grammars/tree-sitter-kotlin 1.1.0 (vendored in
// grammar/kotlin).
//
// A class_declaration is a class, an interface (`interface`) or an enum (`enum
// class`); an object is a class; an unnamed companion object adds its members to
// its class, as Kotlin calls them (`Circle.unit()`). A function in a type is a
// method; a property is a field in a type, a variable or a constant (`const val`)
// at the top level; a constructor parameter declared `val` or `var` is a field.
// In the supertype list a constructor call (`Shape()`) names the superclass,
// extends; a bare type (`Comparable<T>`, `I by x`) an interface, implements. A
// bare call in a class is `this.m()` first; `Circle(1.0)` is a call of the class.
// A receiver whose type the file declares (`p: Foo`, `val x = Foo()`, a
// property `val repo: Repo` for `this.repo`) makes `x.m()` the site `Foo.m`.
//
// Exported means not `private` nor `internal` (Kotlin's default is public).
// Name uses are not read (no Refs): the grammar gives `a.b` no fields to tell the
// member from the object by.
//
// The vendored scanner is patched so that a class body may close on its last
// member's line (`interface I { fun f() }`), which the grammar as published
// reads as a syntax error.
var kotlinSpec = Spec{
	Defs: []DefRule{
		{Node: "class_declaration", Kind: graph.KindClass, NameField: "name", KindOf: kotlinClassKind, AfterAnnotations: true},
		{Node: "object_declaration", Kind: graph.KindClass, NameField: "name", AfterAnnotations: true},
		{Node: "companion_object", Kind: graph.KindClass, NameField: "name"},
		{Node: "function_declaration", Kind: graph.KindFunction, InType: graph.KindMethod, NameField: "name", AfterAnnotations: true},
		{Node: "property_declaration", Kind: graph.KindVariable, InType: graph.KindField, Names: kotlinPropertyName,
			KindOf: kotlinPropertyKind, AfterAnnotations: true},
		{Node: "class_parameter", Kind: graph.KindField, Names: kotlinClassParameter},
		{Node: "type_alias", Kind: graph.KindTypeAlias, NameField: "type"},
		{Node: "enum_entry", Kind: graph.KindVariant, NameTypes: []string{"identifier"}},
	},
	Calls: []CallRule{
		{Node: "call_expression", CalleeFirst: true, When: kotlinNotLambdaTail,
			Targets: []graph.NodeKind{graph.KindFunction, graph.KindMethod, graph.KindClass}},
	},
	Imports: map[string]func(*sitter.Node, []byte) []string{"import": kotlinImport},
	Heritage: []HeritageRule{
		{Def: "class_declaration", Clause: "delegation_specifier", Kind: graph.EdgeExtends, Bases: kotlinSuperclass},
		{Def: "class_declaration", Clause: "delegation_specifier", Kind: graph.EdgeImplements, Bases: kotlinInterface},
		{Def: "object_declaration", Clause: "delegation_specifier", Kind: graph.EdgeExtends, Bases: kotlinSuperclass},
		{Def: "object_declaration", Clause: "delegation_specifier", Kind: graph.EdgeImplements, Bases: kotlinInterface},
	},
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Comments:     []string{"line_comment", "block_comment"},
	Exported:     kotlinExported,
	Callee:       kotlinCallee,
	Bindings:     kotlinBindings,
	// A type of the same package needs no import: a receiver declared with one
	// is a site for the cross-file pass.
	PackageScope: hasUpperInitial,
}

// kotlinClassKind reads the keyword and modifiers of a class_declaration.
func kotlinClassKind(n *sitter.Node, src []byte) graph.NodeKind {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		switch {
		case !c.IsNamed() && c.Kind() == "interface":
			return graph.KindInterface
		case c.Kind() == "modifiers" && kotlinHasModifier(c, "enum", src):
			return graph.KindEnum
		}
	}
	return ""
}

// kotlinHasModifier reports whether a modifiers node holds the word.
func kotlinHasModifier(mods *sitter.Node, word string, src []byte) bool {
	for i := uint(0); i < mods.NamedChildCount(); i++ {
		if text(mods.NamedChild(i), src) == word {
			return true
		}
	}
	return false
}

func kotlinModifiers(n *sitter.Node) *sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "modifiers" {
			return c
		}
	}
	return nil
}

// kotlinPropertyName is the name in `val x = …`; a destructuring declaration
// (`val (a, b) = …`) names no single definition.
func kotlinPropertyName(n *sitter.Node, _ []byte) []*sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "variable_declaration" && c.NamedChildCount() > 0 {
			if id := c.NamedChild(0); id.Kind() == "identifier" {
				return []*sitter.Node{id}
			}
		}
	}
	return nil
}

// kotlinPropertyKind makes `const val` a constant.
func kotlinPropertyKind(n *sitter.Node, src []byte) graph.NodeKind {
	if m := kotlinModifiers(n); m != nil && kotlinHasModifier(m, "const", src) {
		return graph.KindConstant
	}
	return ""
}

// kotlinClassParameter names a constructor parameter that declares a property
// (`val radius: Double`); a plain parameter names nothing.
func kotlinClassParameter(n *sitter.Node, _ []byte) []*sitter.Node {
	property := false
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); !c.IsNamed() && (c.Kind() == "val" || c.Kind() == "var") {
			property = true
		}
	}
	if !property {
		return nil
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "identifier" {
			return []*sitter.Node{c}
		}
	}
	return nil
}

// kotlinSuperclass is the type of a supertype written as a constructor call.
func kotlinSuperclass(clause *sitter.Node, _ []byte) []*sitter.Node {
	if c := clause.NamedChild(0); c != nil && c.Kind() == "constructor_invocation" {
		if t := c.NamedChild(0); t != nil && t.Kind() == "user_type" {
			return []*sitter.Node{t}
		}
	}
	return nil
}

// kotlinInterface is a supertype written without a call: an interface, possibly
// delegated to an object (`I by x`).
func kotlinInterface(clause *sitter.Node, _ []byte) []*sitter.Node {
	c := clause.NamedChild(0)
	if c != nil && c.Kind() == "explicit_delegation" {
		c = c.NamedChild(0)
	}
	if c != nil && c.Kind() == "user_type" {
		return []*sitter.Node{c}
	}
	return nil
}

// kotlinImport reads `import a.b.C`, `import a.b.C as D` and `import a.b.*`.
func kotlinImport(n *sitter.Node, src []byte) []string {
	var path, alias string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "qualified_identifier":
			path = text(c, src)
		case "identifier":
			if path == "" {
				path = text(c, src)
			} else {
				alias = text(c, src)
			}
		}
	}
	if path == "" || len(path) > maxName || strings.ContainsAny(path, " \n") {
		return nil
	}
	if strings.HasSuffix(strings.TrimSpace(text(n, src)), "*") {
		return []string{ImportTarget(path, "*", "")}
	}
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return []string{ImportTarget(path, "", alias)}
	}
	return []string{ImportTarget(path[:i], path[i+1:], alias)}
}

// kotlinExported: public unless `private` or `internal`.
func kotlinExported(_ string, n *sitter.Node) bool {
	m := kotlinModifiers(n)
	if m == nil {
		return true
	}
	for i := uint(0); i < m.NamedChildCount(); i++ {
		if c := m.NamedChild(i); c.Kind() == "visibility_modifier" {
			if v := c.Child(0); v != nil && (v.Kind() == "private" || v.Kind() == "internal") {
				return false
			}
		}
	}
	return true
}

// kotlinCallee writes a navigation `a.b.c` (and `a?.b`) with dots: the grammar
// gives its parts no fields. The receiver and the member are its first and last
// named children; `this` and `super` are their keywords.
func kotlinCallee(n *sitter.Node, src []byte, name func(*sitter.Node) string) string {
	switch n.Kind() {
	case "navigation_expression":
		if n.NamedChildCount() < 2 {
			return ""
		}
		last := n.NamedChild(n.NamedChildCount() - 1)
		if last.Kind() != "identifier" {
			return exprName
		}
		return name(n.NamedChild(0)) + "." + text(last, src)
	case "this_expression":
		return "this"
	case "super_expression":
		return "super"
	}
	return ""
}

// kotlinNotLambdaTail: `f(x) { … }` is one call, which the grammar nests as a
// call of a call (`f(x)`) with the lambda; the outer one is no call of its own.
func kotlinNotLambdaTail(n, _ *sitter.Node, _ []byte) bool {
	count := n.NamedChildCount()
	if count < 2 {
		return true
	}
	return !(n.NamedChild(0).Kind() == "call_expression" && n.NamedChild(count-1).Kind() == "annotated_lambda")
}
