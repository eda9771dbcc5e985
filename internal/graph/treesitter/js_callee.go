package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// jsCallee is Spec.Callee for JavaScript and TypeScript: a member reached
// through a call, an assertion or a cast is written as a path the cross-file
// pass follows through declared types. `a.b().c` is `a.b.c` (c of what b
// returns, as jsBinder.valueType writes a call), `x!.c` is `x.c`, `(v as
// T).c` is `T.c`, `super.c` is `Base.c`. Only the object of a member is
// rewritten: a callee that is itself a call (`f()()`) stays an expression.
func jsCallee(n *sitter.Node, src []byte, name func(*sitter.Node) string) string {
	if n.Kind() != "member_expression" {
		return ""
	}
	obj, prop := n.ChildByFieldName("object"), n.ChildByFieldName("property")
	if obj == nil || prop == nil {
		return ""
	}
	o := jsCalleeObject(obj, src, name, 0)
	if obj.Kind() == "super" {
		o = jsSuperClass(n, name)
	}
	if o == "" {
		return ""
	}
	return o + "." + text(prop, src)
}

// jsCalleeObject writes the object of a member when it is a call, an
// assertion or a cast; "" leaves it to the member rules.
func jsCalleeObject(obj *sitter.Node, src []byte, name func(*sitter.Node) string, depth int) string {
	if depth > 4 {
		return ""
	}
	switch obj.Kind() {
	case "call_expression":
		if f := obj.ChildByFieldName("function"); f != nil && (f.Kind() == "identifier" || f.Kind() == "member_expression") {
			return name(f)
		}
	case "non_null_expression":
		if obj.NamedChildCount() == 1 {
			if o := jsCalleeObject(obj.NamedChild(0), src, name, depth+1); o != "" {
				return o
			}
			return name(obj.NamedChild(0))
		}
	case "parenthesized_expression":
		if obj.NamedChildCount() == 1 {
			return jsCalleeObject(obj.NamedChild(0), src, name, depth+1)
		}
	case "as_expression":
		if obj.NamedChildCount() == 2 {
			if t := jsTypeName(obj.NamedChild(1), src); t != "" {
				return t
			}
		}
		return exprName
	}
	return ""
}

// jsSuperClass is the base class, as written, of the class around n: what
// `super` stands for; "" when the class extends nothing that is a name.
func jsSuperClass(n *sitter.Node, name func(*sitter.Node) string) string {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "class_declaration", "abstract_class_declaration", "class":
		default:
			continue
		}
		for i := uint(0); i < p.NamedChildCount(); i++ {
			h := p.NamedChild(i)
			if h.Kind() != "class_heritage" {
				continue
			}
			base := h.NamedChild(0)
			if base != nil && base.Kind() == "extends_clause" { // TypeScript
				base = base.ChildByFieldName("value")
			}
			if base != nil && (base.Kind() == "identifier" || base.Kind() == "member_expression") {
				return name(base)
			}
		}
		return ""
	}
	return ""
}

// assertedObject writes the object of a member use `(v as T).m` or `v!.m` the
// way Spec.Callee writes it in a callee (`T`, `v`), so the use of m is a site
// the cross-file pass follows; "" for any other object, or without Spec.Callee.
func (w *walker) assertedObject(n, obj *sitter.Node, member string) string {
	if w.spec.Callee == nil || (obj.Kind() != "parenthesized_expression" && obj.Kind() != "non_null_expression") {
		return ""
	}
	o, ok := strings.CutSuffix(w.calleeName(n, 0), "."+member)
	if !ok || o == "" || strings.Contains(o, exprName) {
		return ""
	}
	return o
}
