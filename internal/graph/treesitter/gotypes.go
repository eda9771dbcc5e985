package treesitter

import (
	"go/types"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Go without the type checker: the names a function binds and the types they
// hold, read off declarations, so that `p.lookup()` on a `p *structPlan` is the
// site `structPlan.lookup`. A type is written as a path the cross-file pass
// resolves: `T`, `pkg.T`, or the definition whose type the value has: `NewT`
// for `x := NewT()` (a function stands for its first result), `T.f` for
// `x := t.f` (a field for its type).

// maxGoBindDepth bounds the syntax nesting goBindings reads: deeper code is
// generated or adversarial, and its names stay unknown.
const maxGoBindDepth = 256

// goBindings reads what a function, method or type binds: its parameters,
// results and type parameters, and a function body's `:=`, `var`, `const`,
// range and type-switch names. A name bound to several types holds none.
func goBindings(n *sitter.Node, src []byte) Bindings {
	if n.Kind() == "source_file" {
		return Bindings{}
	}
	b := &goBinder{src: src, types: map[string]string{}, bound: map[string]bool{}, elems: map[string]string{}}
	b.visit(n, 0)
	out := Bindings{Types: map[string]string{}}
	for name := range b.bound {
		out.Locals = append(out.Locals, name)
	}
	for name, t := range b.types {
		if t != "" {
			out.Types[name] = t
		}
	}
	return out
}

type goBinder struct {
	src   []byte
	bound map[string]bool
	// types holds the type each name was bound to, "" once two bindings disagree
	// or one is unknown.
	types map[string]string
	// elems holds the element type of a name bound to a slice, an array, a map
	// or a channel of a named type, for the values a range over it binds.
	elems map[string]string
}

func (b *goBinder) bind(id *sitter.Node, t string) {
	if id == nil || id.Kind() != "identifier" {
		return
	}
	name := text(id, b.src)
	if name == "_" || name == "" {
		return
	}
	if old, ok := b.types[name]; ok && old != t {
		t = ""
	}
	b.bound[name] = true
	b.types[name] = t
}

func (b *goBinder) visit(n *sitter.Node, depth int) {
	if depth > maxGoBindDepth {
		return
	}
	switch n.Kind() {
	case "parameter_declaration":
		typ := n.ChildByFieldName("type")
		t, elem := b.typePath(typ), b.elemPath(typ)
		for _, id := range children(n, "name") {
			b.bind(&id, t)
			b.bindElem(&id, elem)
		}
	case "variadic_parameter_declaration":
		elem := b.typePath(n.ChildByFieldName("type"))
		for _, id := range children(n, "name") {
			b.bind(&id, "")
			b.bindElem(&id, elem)
		}
	case "type_parameter_declaration", "const_spec":
		for _, id := range children(n, "name") {
			b.bind(&id, "")
		}
	case "short_var_declaration", "range_clause", "receive_statement":
		b.visitChildren(n, depth) // the right side is read with the names before
		b.assign(n.ChildByFieldName("left"), n.ChildByFieldName("right"), n.Kind() == "range_clause")
		return
	case "var_spec":
		b.visitChildren(n, depth)
		names := children(n, "name")
		if t := n.ChildByFieldName("type"); t != nil {
			tp, elem := b.typePath(t), b.elemPath(t)
			for _, id := range names {
				b.bind(&id, tp)
				b.bindElem(&id, elem)
			}
			return
		}
		b.assignNames(names, n.ChildByFieldName("value"), false)
		return
	case "type_switch_statement":
		if alias := n.ChildByFieldName("alias"); alias != nil {
			for i := uint(0); i < alias.NamedChildCount(); i++ {
				b.bind(alias.NamedChild(i), "") // one type per case: none for the name
			}
		}
	}
	b.visitChildren(n, depth)
}

func (b *goBinder) visitChildren(n *sitter.Node, depth int) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.visit(n.NamedChild(i), depth+1)
	}
}

// assign binds the identifiers of the expression list left to the values of
// right; a range binds element types, which are not read.
func (b *goBinder) assign(left, right *sitter.Node, isRange bool) {
	if left == nil {
		return
	}
	var names []sitter.Node
	for i := uint(0); i < left.NamedChildCount(); i++ {
		names = append(names, *left.NamedChild(i))
	}
	b.assignNames(names, right, isRange)
}

func (b *goBinder) assignNames(names []sitter.Node, right *sitter.Node, isRange bool) {
	var values []*sitter.Node
	if right != nil && !isRange {
		if right.Kind() == "expression_list" {
			for i := uint(0); i < right.NamedChildCount(); i++ {
				values = append(values, right.NamedChild(i))
			}
		} else {
			values = []*sitter.Node{right}
		}
	}
	if isRange && right != nil && right.Kind() == "identifier" && len(names) == 2 {
		// `for _, v := range xs`: v holds an element of xs.
		b.bind(&names[0], "")
		b.bind(&names[1], b.elems[text(right, b.src)])
		return
	}
	for i := range names {
		t := ""
		switch {
		case len(values) == len(names):
			t = b.typeOf(values[i], 0)
		case len(values) == 1 && i == 0: // `x, err := f()`, `v, ok := y.(T)`
			if k := values[0].Kind(); k == "call_expression" || k == "type_assertion_expression" {
				t = b.typeOf(values[0], 0)
			}
		}
		b.bind(&names[i], t)
	}
}

// typeOf is the path of the type an expression has, "" when it is not known.
func (b *goBinder) typeOf(n *sitter.Node, depth int) string {
	if n == nil || depth > 32 {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		name := text(n, b.src)
		if t, ok := b.types[name]; ok {
			return t
		}
		if b.bound[name] || goPredeclared(name) {
			return ""
		}
		return name // a top-level name of the package, or an imported package
	case "selector_expression":
		if t := b.typeOf(n.ChildByFieldName("operand"), depth+1); t != "" {
			return t + "." + text(n.ChildByFieldName("field"), b.src)
		}
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn != nil && fn.Kind() == "identifier" && goPredeclared(text(fn, b.src)) && !b.bound[text(fn, b.src)] {
			if name := text(fn, b.src); name == "new" || name == "make" {
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 {
					return b.typePath(args.NamedChild(0))
				}
			}
			return ""
		}
		return b.typeOf(fn, depth+1)
	case "composite_literal":
		return b.typePath(n.ChildByFieldName("type"))
	case "unary_expression":
		if op := text(n.ChildByFieldName("operator"), b.src); op == "&" || op == "*" {
			return b.typeOf(n.ChildByFieldName("operand"), depth+1)
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return b.typeOf(n.NamedChild(0), depth+1)
		}
	case "type_assertion_expression":
		return b.typePath(n.ChildByFieldName("type"))
	case "type_identifier", "qualified_type", "pointer_type", "generic_type":
		return b.typePath(n) // a type where an expression may stand: `new(T)`, `(*T)(x)`
	}
	return ""
}

// typePath is the path of a named type (`T`, `*T`, `pkg.T`, `T[K]`); "" for
// any other type (a slice, a map, a function, a type parameter).
func (b *goBinder) typePath(t *sitter.Node) string {
	for depth := 0; t != nil && depth < 8; depth++ {
		switch t.Kind() {
		case "type_identifier", "identifier":
			name := text(t, b.src)
			if b.bound[name] || goPredeclared(name) {
				return "" // a type parameter, or a builtin type with no methods here
			}
			return name
		case "qualified_type", "selector_expression":
			s := strings.Join(strings.Fields(text(t, b.src)), "")
			if len(s) > maxName || strings.ContainsAny(s, "([*") {
				return ""
			}
			return s
		case "pointer_type", "parenthesized_type", "parenthesized_expression":
			t = t.NamedChild(0)
		case "unary_expression": // `*T` written where an expression may stand
			t = t.ChildByFieldName("operand")
		case "generic_type":
			t = t.ChildByFieldName("type")
		default:
			return ""
		}
	}
	return ""
}

func (b *goBinder) bindElem(id *sitter.Node, elem string) {
	if id == nil || id.Kind() != "identifier" {
		return
	}
	name := text(id, b.src)
	if old, ok := b.elems[name]; ok && old != elem {
		elem = ""
	}
	b.elems[name] = elem
}

// elemPath is the path of the named element type of a slice, an array, a map
// (its values) or a channel type; "" for any other type.
func (b *goBinder) elemPath(t *sitter.Node) string {
	if t == nil {
		return ""
	}
	switch t.Kind() {
	case "slice_type", "array_type", "implicit_length_array_type":
		return b.typePath(t.ChildByFieldName("element"))
	case "map_type", "channel_type":
		return b.typePath(t.ChildByFieldName("value"))
	}
	return ""
}

func children(n *sitter.Node, field string) []sitter.Node {
	c := n.Walk()
	defer c.Close()
	return n.ChildrenByFieldName(field, c)
}

// goPackageScope: a bare name the file neither defines nor imports is another
// file's of the package, unless it is predeclared.
func goPackageScope(name string) bool { return name != "_" && !goPredeclared(name) }

// goPredeclared reports whether name is in Go's universe block (int, error, nil,
// len, ...), which go/types lists.
func goPredeclared(name string) bool { return types.Universe.Lookup(name) != nil }

// goCallee names a call whose result a member is taken of by the function it
// calls: `NewT().m()` is the site `NewT.m`, which the cross-file pass reads as
// the method m of NewT's result type. Any other node is left to the walker.
func goCallee(n *sitter.Node, _ []byte, name func(*sitter.Node) string) string {
	if n.Kind() != "call_expression" {
		return ""
	}
	p := n.Parent()
	if p == nil || p.Kind() != "selector_expression" {
		return ""
	}
	if op := p.ChildByFieldName("operand"); op == nil || op.Id() != n.Id() {
		return ""
	}
	fn := n.ChildByFieldName("function")
	if fn == nil || (fn.Kind() == "identifier" && goPredeclared(name(fn))) {
		return ""
	}
	return name(fn)
}
