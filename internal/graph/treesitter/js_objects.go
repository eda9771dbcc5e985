package treesitter

import sitter "github.com/tree-sitter/go-tree-sitter"

// objectScope is the scope segment of a method written in an object literal
// (`{ uppercase(p) { … } }`) held by a variable that shares its name with a type
// of the file: zod declares `interface _ZodString { uppercase(…): this }` and
// `const _ZodString = $constructor(…, { uppercase(p) { … } })`, which TypeScript
// merges into one symbol. Both methods would be `_ZodString::uppercase`, and the
// first would hide the second; the literal's is `_ZodString::{}::uppercase`.
// Other object-literal methods are scoped by their variable alone (`x::m`).
const objectScope = "{}"

// jsScope is Spec.Scope for JavaScript and TypeScript: see objectScope.
func jsScope(n *sitter.Node, src []byte) string {
	if n.Kind() != "method_definition" {
		return ""
	}
	obj := n.Parent()
	if obj == nil || obj.Kind() != "object" {
		return ""
	}
	for p := obj.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "variable_declarator":
			if name := p.ChildByFieldName("name"); name != nil && name.Kind() == "identifier" && declaresType(rootOf(p), text(name, src), src) {
				return objectScope
			}
			return ""
		case "function_declaration", "generator_function_declaration", "class_declaration",
			"abstract_class_declaration", "method_definition", "statement_block":
			return ""
		}
	}
	return ""
}

func rootOf(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		n = p
	}
	return n
}

// declaresType reports whether a top-level statement of root (exported or not)
// declares a type named name.
func declaresType(root *sitter.Node, name string, src []byte) bool {
	for i := uint(0); i < root.NamedChildCount(); i++ {
		c := root.NamedChild(i)
		if c.Kind() == "export_statement" {
			if c = c.ChildByFieldName("declaration"); c == nil {
				continue
			}
		}
		switch c.Kind() {
		case "interface_declaration", "type_alias_declaration", "class_declaration", "abstract_class_declaration":
			if fieldText(c, "name", src) == name {
				return true
			}
		}
	}
	return false
}
