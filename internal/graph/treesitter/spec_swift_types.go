package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// swiftBindings reads the types a function's parameters and locals hold
// (`_ p: Foo`, `let x: Foo`, `let x = Foo(…)`) and a type's stored properties
// (`let repo: Repo`, for `self.repo`), so that `x.m()` is the site `Foo.m` for
// the cross-file pass. A value of a call that is no initialiser (a lowercase
// name) says nothing.
func swiftBindings(n *sitter.Node, src []byte) Bindings {
	b := Bindings{Types: map[string]string{}}
	switch n.Kind() {
	case "function_declaration":
		swiftLocals(n, src, 0, &b)
	case "class_declaration":
		if body := n.ChildByFieldName("body"); body != nil {
			for i := uint(0); i < body.NamedChildCount(); i++ {
				if p := body.NamedChild(i); p.Kind() == "property_declaration" {
					swiftProperty(p, src, &b, false)
				}
			}
		}
	case "source_file":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if p := n.NamedChild(i); p.Kind() == "property_declaration" {
				swiftProperty(p, src, &b, false)
			}
		}
	}
	return b
}

// swiftLocals walks a function: its parameters and the properties its body
// declares, not entering nested functions or types.
func swiftLocals(n *sitter.Node, src []byte, depth int, b *Bindings) {
	if depth > 64 {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "function_declaration", "class_declaration", "protocol_declaration":
			continue
		case "parameter":
			// The grammar puts the local name and the type both in the field
			// `name`: the simple_identifier is the name, the other the type.
			var name, typ string
			cur := c.Walk()
			for _, f := range c.ChildrenByFieldName("name", cur) {
				if f.Kind() == "simple_identifier" {
					name = text(&f, src)
				} else {
					typ = swiftTypeName(&f, src)
				}
			}
			cur.Close()
			if name != "" {
				b.Locals = append(b.Locals, name)
				if typ != "" {
					b.Types[name] = typ
				}
			}
			continue
		case "property_declaration":
			swiftProperty(c, src, b, true)
		}
		swiftLocals(c, src, depth+1, b)
	}
}

// swiftProperty binds `let x: T` or `let x = T(…)`.
func swiftProperty(p *sitter.Node, src []byte, b *Bindings, local bool) {
	pat := p.ChildByFieldName("name")
	if pat == nil {
		return
	}
	id := pat.ChildByFieldName("bound_identifier")
	if id == nil {
		return
	}
	name := text(id, src)
	if local {
		b.Locals = append(b.Locals, name)
	}
	t := ""
	for i := uint(0); i < p.NamedChildCount(); i++ {
		if c := p.NamedChild(i); c.Kind() == "type_annotation" {
			if tn := c.ChildByFieldName("name"); tn != nil {
				t = swiftTypeName(tn, src)
			}
		}
	}
	if v := p.ChildByFieldName("value"); t == "" && v != nil {
		switch v.Kind() {
		case "call_expression":
			if callee := v.NamedChild(0); callee != nil && callee.Kind() == "simple_identifier" && hasUpperInitial(text(callee, src)) {
				t = text(callee, src)
			}
		case "constructor_expression":
			if ct := v.ChildByFieldName("constructed_type"); ct != nil {
				t = swiftTypeName(ct, src)
			}
		}
	}
	if t != "" {
		b.Types[name] = t
	}
}

// swiftTypeName is the type a user_type (or an optional of one) names, without
// its generic arguments; "" for any other type.
func swiftTypeName(t *sitter.Node, src []byte) string {
	if t.Kind() == "optional_type" {
		if w := t.ChildByFieldName("wrapped"); w != nil {
			t = w
		}
	}
	if t.Kind() != "user_type" {
		return ""
	}
	s, _, _ := strings.Cut(text(t, src), "<")
	if s = strings.TrimSpace(s); s == "" || len(s) > maxName || strings.ContainsAny(s, " \n\t") {
		return ""
	}
	return s
}
