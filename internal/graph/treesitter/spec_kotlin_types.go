package treesitter

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// kotlinBindings reads the types a function's parameters and locals hold
// (`p: Foo`, `val x: Foo`, `val x = Foo(…)`) and a class's properties
// (`class A(val repo: Repo)`, `val repo = Repo()`), so that `x.m()` and
// `this.repo.m()` are the sites `Foo.m` and `Repo.m` for the cross-file pass.
// A value of a call that is no constructor (a lowercase name) says nothing.
func kotlinBindings(n *sitter.Node, src []byte) Bindings {
	b := Bindings{Types: map[string]string{}}
	switch n.Kind() {
	case "function_declaration":
		kotlinLocals(n, src, 0, &b)
	case "class_declaration", "object_declaration", "companion_object":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			switch c := n.NamedChild(i); c.Kind() {
			case "primary_constructor", "class_parameters":
				kotlinClassParameters(c, src, &b)
			case "class_body":
				for j := uint(0); j < c.NamedChildCount(); j++ {
					if p := c.NamedChild(j); p.Kind() == "property_declaration" {
						kotlinProperty(p, src, &b, false)
					}
				}
			}
		}
	case "source_file":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if p := n.NamedChild(i); p.Kind() == "property_declaration" {
				kotlinProperty(p, src, &b, false)
			}
		}
	}
	return b
}

func kotlinClassParameters(n *sitter.Node, src []byte, b *Bindings) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "class_parameters" {
			kotlinClassParameters(c, src, b)
			continue
		}
		if c.Kind() != "class_parameter" {
			continue
		}
		if names := kotlinClassParameter(c, src); len(names) == 1 {
			if t := kotlinTypeOf(c, src); t != "" {
				b.Types[text(names[0], src)] = t
			}
		}
	}
}

// kotlinLocals walks a function: its parameters and the properties its body
// declares, not entering nested functions, classes or objects.
func kotlinLocals(n *sitter.Node, src []byte, depth int, b *Bindings) {
	if depth > 64 {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "function_declaration", "class_declaration", "object_declaration":
			continue
		case "parameter":
			if c.NamedChildCount() > 0 && c.NamedChild(0).Kind() == "identifier" {
				name := text(c.NamedChild(0), src)
				b.Locals = append(b.Locals, name)
				if t := kotlinTypeOf(c, src); t != "" {
					b.Types[name] = t
				}
			}
			continue
		case "property_declaration":
			kotlinProperty(c, src, b, true)
		}
		kotlinLocals(c, src, depth+1, b)
	}
}

// kotlinProperty binds `val x: T` or `val x = T(…)`.
func kotlinProperty(p *sitter.Node, src []byte, b *Bindings, local bool) {
	names := kotlinPropertyName(p, src)
	if len(names) != 1 {
		return
	}
	name := text(names[0], src)
	if local {
		b.Locals = append(b.Locals, name)
	}
	t := kotlinTypeOf(names[0].Parent(), src)
	if t == "" {
		for i := uint(0); i < p.NamedChildCount(); i++ {
			if c := p.NamedChild(i); c.Kind() == "call_expression" && c.NamedChildCount() > 0 {
				if callee := c.NamedChild(0); callee.Kind() == "identifier" && hasUpperInitial(text(callee, src)) {
					t = text(callee, src)
				}
			}
		}
	}
	if t != "" {
		b.Types[name] = t
	}
}

// kotlinTypeOf is the class named by n's type child: `Foo` of `Foo`, `Foo?`,
// `Foo<T>`, `a.b.Foo`; "" for a function type or none.
func kotlinTypeOf(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		t := n.NamedChild(i)
		if t.Kind() == "nullable_type" && t.NamedChildCount() > 0 {
			t = t.NamedChild(0)
		}
		if t.Kind() != "user_type" {
			continue
		}
		s, _, _ := strings.Cut(text(t, src), "<")
		if s = strings.TrimSpace(s); s == "" || len(s) > maxName || strings.ContainsAny(s, " \n\t") {
			return ""
		}
		return s
	}
	return ""
}
