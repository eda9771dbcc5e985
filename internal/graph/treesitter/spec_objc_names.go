package treesitter

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Objective-C's names that span several nodes: selectors, and the types a
// method's locals and parameters are declared with.

// objcSelector writes a method's selector: each keyword followed by `:` when it
// takes a parameter (`scale:with:`), the bare name when none does (`check`). A
// part with no keyword (`- (void)f:(int)a :(int)b`) would make `f::`, which reads
// as a scope: such a method keeps its first keyword.
func objcSelector(n, nm *sitter.Node, src []byte) string {
	var b strings.Builder
	for i := uint(0); i < n.NamedChildCount(); i++ {
		switch c := n.NamedChild(i); c.Kind() {
		case "identifier":
			b.WriteString(text(c, src))
		case "method_parameter":
			b.WriteByte(':')
		}
	}
	if s := b.String(); s != "" && !strings.Contains(s, "::") {
		return s
	}
	return text(nm, src)
}

// objcMessageSelector names the method of a message by its selector, as
// objcSelector names its definition: the callee of `[obj do:x with:y]` is the
// keyword `do`, which stands for `do:with:`. Other nodes are left to the walker.
func objcMessageSelector(n *sitter.Node, src []byte, _ func(*sitter.Node) string) string {
	if n.Kind() != "identifier" {
		return ""
	}
	msg := n.Parent()
	if msg == nil || msg.Kind() != "message_expression" {
		return ""
	}
	if m := msg.ChildByFieldName("method"); m == nil || m.Id() != n.Id() {
		return "" // the receiver, not the selector
	}
	var b strings.Builder
	for i := uint(0); i < msg.ChildCount(); i++ {
		c := msg.Child(i)
		switch {
		case msg.FieldNameForChild(uint32(i)) == "method":
			b.WriteString(text(c, src))
		case !c.IsNamed() && c.Kind() == ":":
			b.WriteByte(':')
		}
	}
	if s := b.String(); s != "" && !strings.Contains(s, "::") {
		return s
	}
	return ""
}

// objcBindings reads the types of a method's or a function's parameters and
// locals (`Foo *x = …`, `- (void)f:(Foo *)p`), and of a class's properties
// (`@property Foo *foo`, for `self.foo`). Only a named type is kept; `id` and
// `instancetype` say nothing.
func objcBindings(n *sitter.Node, src []byte) Bindings {
	b := Bindings{Types: map[string]string{}}
	bind := func(name *sitter.Node, typ *sitter.Node, local bool) {
		if name == nil {
			return
		}
		nm := text(name, src)
		if local {
			b.Locals = append(b.Locals, nm)
		}
		if t := objcTypeName(typ, src); t != "" {
			b.Types[nm] = t
		}
	}
	switch n.Kind() {
	case "method_definition", "function_definition":
		objcWalkLocals(n, src, 0, bind)
	case "class_interface", "class_implementation":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			p := n.NamedChild(i)
			if p.Kind() != "property_declaration" {
				continue
			}
			for j := uint(0); j < p.NamedChildCount(); j++ {
				if sd := p.NamedChild(j); sd.Kind() == "struct_declaration" {
					typ := sd.ChildByFieldName("type")
					if typ == nil && sd.NamedChildCount() > 0 { // the grammar gives it no field
						typ = sd.NamedChild(0)
					}
					if names := objcPropertyName(p, src); len(names) == 1 {
						bind(names[0], typ, false)
					}
				}
			}
		}
	}
	return b
}

// objcWalkLocals finds the parameters and declarations under n, not entering
// nested functions, methods or classes.
func objcWalkLocals(n *sitter.Node, src []byte, depth int, bind func(name, typ *sitter.Node, local bool)) {
	if depth > 64 {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "method_definition", "function_definition", "class_implementation", "class_interface":
			continue
		case "method_parameter":
			var typ, name *sitter.Node
			for j := uint(0); j < c.NamedChildCount(); j++ {
				switch g := c.NamedChild(j); g.Kind() {
				case "method_type":
					typ = g
				case "identifier":
					name = g
				}
			}
			bind(name, typ, true)
			continue
		case "parameter_declaration", "declaration":
			typ := c.ChildByFieldName("type")
			cur := c.Walk()
			decls := c.ChildrenByFieldName("declarator", cur)
			cur.Close()
			for k := range decls {
				bind(objcDeclaredName(&decls[k]), typ, true)
			}
		}
		objcWalkLocals(c, src, depth+1, bind)
	}
}

// objcDeclaredName is the identifier a declarator declares (`*x`, `x = …`).
func objcDeclaredName(d *sitter.Node) *sitter.Node {
	for i := 0; d != nil && i < 8; i++ {
		if d.Kind() == "identifier" {
			return d
		}
		next := d.ChildByFieldName("declarator")
		if next == nil && d.NamedChildCount() > 0 {
			next = d.NamedChild(0)
		}
		d = next
	}
	return nil
}

// objcTypeName is the class a declared type names: `Foo` of `Foo *`, of a
// method_type `(Foo *)`, of `Foo<P> *`; "" for a primitive, `id` and friends.
func objcTypeName(t *sitter.Node, src []byte) string {
	for i := 0; t != nil && i < 4; i++ {
		switch t.Kind() {
		case "type_identifier":
			s := text(t, src)
			if s == "id" || s == "instancetype" || s == "Class" || s == "SEL" || !hasUpperInitial(s) {
				return ""
			}
			return s
		case "method_type", "type_name", "generic_type":
			if t.NamedChildCount() == 0 {
				return ""
			}
			t = t.NamedChild(0)
		default:
			return ""
		}
	}
	return ""
}

// IsObjCHeader reports whether a header's source is Objective-C: it declares
// a class, a protocol or a category (`@interface`, `@protocol`), or imports
// with `#import` or `@import`. The index names a tree's .h files C or C++
// when it holds C++ sources (an iOS project with .mm and .cpp files); such a
// header read as C or C++ is a syntax error from its first `@`.
func IsObjCHeader(rel string, src []byte) bool {
	if !strings.HasSuffix(rel, ".h") {
		return false
	}
	for _, marker := range [][]byte{[]byte("@interface"), []byte("@protocol"), []byte("#import"), []byte("@import")} {
		if i := bytes.Index(src, marker); i >= 0 && (i == 0 || src[i-1] == '\n' || src[i-1] == ' ' || src[i-1] == '\t') {
			return true
		}
	}
	return false
}
