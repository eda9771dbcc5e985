package treesitter

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// jsBindings reads what a JavaScript or TypeScript scope binds (Spec.Bindings):
// a function's parameters and the variables its body declares (a variable
// holding a function is a definition, not a local), a class's fields and
// parameter properties, a module's variables; with their types where an
// annotation (`q: Query<T>`, `#cache: QueryCache`), a `new T()` or an `as T`
// says them. A type parameter stands for its constraint (`<S extends Scheduler>`).
func jsBindings(n *sitter.Node, src []byte) Bindings {
	b := jsBinder{src: src, types: map[string]string{}}
	switch n.Kind() {
	case "program":
		b.block(n, 0)
		b.locals = nil // module variables are definitions, not locals
	case "class_declaration", "abstract_class_declaration":
		b.class(n.ChildByFieldName("body"))
	default:
		fn := n
		if n.Kind() == "variable_declarator" { // `const f = (q: Query) => …`
			fn = n.ChildByFieldName("value")
		}
		if fn == nil || !jsFunctions[fn.Kind()] {
			return Bindings{}
		}
		b.callbacks = true
		if cb := n.Parent(); n.Kind() == "method_definition" && cb != nil && cb.Kind() == "class_body" {
			b.self = jsClassTypes(cb.Parent(), src)
		}
		b.function(fn)
	}
	return Bindings{Locals: b.locals, Types: b.types}
}

// callback reads an anonymous function. Passed as argument i of a call of f,
// its untyped parameter j holds what f's declaration says: the type `f.(i,j)`,
// a path the cross-file pass follows (`operate((source, subscriber) => …)`).
func (b *jsBinder) callback(fn *sitter.Node) {
	args := fn.Parent()
	call := (*sitter.Node)(nil)
	if args != nil && args.Kind() == "arguments" {
		call = args.Parent()
	}
	callee := ""
	switch {
	case call == nil:
	case call.Kind() == "call_expression":
		callee = b.calleeType(call.ChildByFieldName("function"))
	case call.Kind() == "new_expression": // `new T(cb)`: T's constructor
		if c := call.ChildByFieldName("constructor"); c != nil && c.Kind() == "identifier" && !b.isLocal(text(c, b.src)) {
			callee = text(c, b.src) + ".constructor"
		}
	}
	if callee == "" {
		b.function(fn)
		return
	}
	arg := 0
	for i := uint(0); i < args.NamedChildCount(); i++ {
		if args.NamedChild(i).Id() == fn.Id() {
			arg = int(i)
		}
	}
	if ps := fn.ChildByFieldName("parameters"); ps != nil {
		for j := uint(0); j < ps.NamedChildCount(); j++ {
			p := ps.NamedChild(j)
			if id := p.ChildByFieldName("pattern"); id != nil && id.Kind() == "identifier" && p.ChildByFieldName("type") == nil {
				b.bindType(text(id, b.src), fmt.Sprintf("%s.(%d,%d)", callee, arg, j))
			} else if p.Kind() == "identifier" { // JavaScript
				b.bindType(text(p, b.src), fmt.Sprintf("%s.(%d,%d)", callee, arg, j))
			}
		}
	} else if p := fn.ChildByFieldName("parameter"); p != nil && p.Kind() == "identifier" { // `x => …`
		b.bindType(text(p, b.src), fmt.Sprintf("%s.(%d,0)", callee, arg))
	}
	b.function(fn)
}

// function reads a function's type parameters, parameters and body.
func (b *jsBinder) function(fn *sitter.Node) {
	b.typeParams(fn.ChildByFieldName("type_parameters"))
	if p := fn.ChildByFieldName("parameter"); p != nil { // `x => …`
		b.pattern(p, "")
	}
	b.params(fn.ChildByFieldName("parameters"))
	b.block(fn.ChildByFieldName("body"), 0)
}

// jsFunctions are the nodes that open a function scope.
var jsFunctions = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true,
	"generator_function": true, "arrow_function": true, "method_definition": true, "function": true,
}

// jsBinder collects one scope's bindings.
type jsBinder struct {
	src    []byte
	locals []string
	types  map[string]string
	// constraints are the function's type parameters with an `extends` bound.
	constraints map[string]string
	// callbacks: the function's anonymous functions are read as part of it.
	callbacks bool
	// self are the types of the enclosing class's fields, under "" the class
	// itself, for `const x = this.f.m()`.
	self map[string]string
}

// jsClassTypes are the types a class's fields hold, and under "" the class's name.
func jsClassTypes(class *sitter.Node, src []byte) map[string]string {
	if class == nil || (class.Kind() != "class_declaration" && class.Kind() != "abstract_class_declaration") {
		return nil
	}
	cb := jsBinder{src: src, types: map[string]string{}}
	cb.class(class.ChildByFieldName("body"))
	cb.types[""] = fieldText(class, "name", src)
	return cb.types
}

// bindType records the type of name; the first declaration wins.
func (b *jsBinder) bindType(name, t string) {
	if c, ok := b.constraints[t]; ok {
		t = c
	}
	if name == "" || t == "" {
		return
	}
	if _, ok := b.types[name]; !ok {
		b.types[name] = t
	}
}

func (b *jsBinder) typeParams(tps *sitter.Node) {
	if tps == nil {
		return
	}
	for i := uint(0); i < tps.NamedChildCount(); i++ {
		tp := tps.NamedChild(i)
		c := tp.ChildByFieldName("constraint")
		if tp.Kind() != "type_parameter" || c == nil || c.NamedChildCount() == 0 {
			continue
		}
		if t := jsTypeName(c.NamedChild(0), b.src); t != "" {
			if b.constraints == nil {
				b.constraints = map[string]string{}
			}
			b.constraints[fieldText(tp, "name", b.src)] = t
		}
	}
}

// params reads a parameter list: every parameter is a local; an annotation types it.
func (b *jsBinder) params(ps *sitter.Node) {
	if ps == nil {
		return
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		switch p.Kind() {
		case "required_parameter", "optional_parameter":
			b.pattern(p.ChildByFieldName("pattern"), jsAnnotation(p.ChildByFieldName("type"), b.src))
		default: // JavaScript: identifier, assignment_pattern, object_pattern, rest_pattern
			b.pattern(p, "")
		}
	}
}

// pattern binds the names of a binding pattern; a lone name takes the type t.
func (b *jsBinder) pattern(n *sitter.Node, t string) {
	if n == nil {
		return
	}
	switch n.Kind() {
	case "identifier", "shorthand_property_identifier_pattern":
		name := text(n, b.src)
		b.locals = append(b.locals, name)
		b.bindType(name, t)
	case "pair_pattern":
		b.pattern(n.ChildByFieldName("value"), "")
	case "assignment_pattern", "object_assignment_pattern":
		b.pattern(n.ChildByFieldName("left"), t)
	case "object_pattern", "array_pattern", "rest_pattern":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			b.pattern(n.NamedChild(i), "")
		}
	}
}

// block reads the declarations of a body, in nested blocks too, not entering
// nested functions and classes, whose names are their own.
func (b *jsBinder) block(n *sitter.Node, depth int) {
	if n == nil || depth > maxBindDepth {
		return
	}
	switch {
	case b.callbacks && (n.Kind() == "arrow_function" || n.Kind() == "function_expression"):
		// A function no variable names is no definition: its calls are the
		// enclosing function's, and so are its names.
		b.callback(n)
		return
	case jsFunctions[n.Kind()] || n.Kind() == "class_declaration" || n.Kind() == "class" || n.Kind() == "abstract_class_declaration":
		return
	case n.Kind() == "variable_declarator":
		b.declarator(n)
		return
	case n.Kind() == "for_in_statement":
		b.pattern(n.ChildByFieldName("left"), "")
	case n.Kind() == "catch_clause":
		b.pattern(n.ChildByFieldName("parameter"), "")
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.block(n.NamedChild(i), depth+1)
	}
}

// declarator binds `const x: T = v`, `let x = new T()`, `const {a, b} = v`. A
// variable holding a function is a definition of the file, not a local.
func (b *jsBinder) declarator(n *sitter.Node) {
	v := n.ChildByFieldName("value")
	if v != nil && functionValues[v.Kind()] != "" {
		return
	}
	t := jsAnnotation(n.ChildByFieldName("type"), b.src)
	if t == "" {
		t = b.valueType(v)
	}
	b.pattern(n.ChildByFieldName("name"), t)
}

// class reads a class body's typed fields (`private q: Query`, `#c = new C()`)
// and its constructor's parameter properties (`constructor(private c: Client)`).
func (b *jsBinder) class(body *sitter.Node) {
	if body == nil {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		switch m.Kind() {
		case "public_field_definition", "field_definition":
			name := m.ChildByFieldName("name")
			if name == nil {
				name = m.ChildByFieldName("property")
			}
			t := jsAnnotation(m.ChildByFieldName("type"), b.src)
			if t == "" {
				t = b.valueType(m.ChildByFieldName("value"))
			}
			b.bindType(text(name, b.src), t)
		case "method_definition":
			if fieldText(m, "name", b.src) == "constructor" {
				b.parameterProperties(m.ChildByFieldName("parameters"))
			}
		}
	}
}

func (b *jsBinder) parameterProperties(ps *sitter.Node) {
	if ps == nil {
		return
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if !isParameterProperty(p) {
			continue
		}
		if id := p.ChildByFieldName("pattern"); id != nil && id.Kind() == "identifier" {
			b.bindType(text(id, b.src), jsAnnotation(p.ChildByFieldName("type"), b.src))
		}
	}
}

// isParameterProperty reports whether a constructor parameter declares a field
// (`private x`, `readonly x`).
func isParameterProperty(p *sitter.Node) bool {
	if p.Kind() != "required_parameter" && p.Kind() != "optional_parameter" {
		return false
	}
	for i := uint(0); i < p.ChildCount(); i++ {
		if k := p.Child(i).Kind(); k == "accessibility_modifier" || k == "readonly" {
			return true
		}
	}
	return false
}

// jsAnnotation is the type a type_annotation names (jsTypeName), "" for none.
func jsAnnotation(a *sitter.Node, src []byte) string {
	if a == nil || a.NamedChildCount() == 0 {
		return ""
	}
	return jsTypeName(a.NamedChild(0), src)
}

// jsTypeName is the class or interface a type names, as written: `Query` of
// `Query<T>`, `core.$ZodType`, `T` of `T | undefined`; "" for anything else (a
// built-in, an array, a function type, a union of several types).
func jsTypeName(t *sitter.Node, src []byte) string {
	switch t.Kind() {
	case "type_identifier", "nested_type_identifier":
		return text(t, src)
	case "generic_type":
		if name := t.ChildByFieldName("name"); name != nil {
			return jsTypeName(name, src)
		}
	case "parenthesized_type":
		if t.NamedChildCount() == 1 {
			return jsTypeName(t.NamedChild(0), src)
		}
	case "union_type":
		out := ""
		for i := uint(0); i < t.NamedChildCount(); i++ {
			m := t.NamedChild(i)
			if m.Kind() == "literal_type" || (m.Kind() == "predefined_type" && (text(m, src) == "undefined" || text(m, src) == "null")) {
				continue // `| undefined`, `| null`
			}
			if out != "" {
				return ""
			}
			if out = jsTypeName(m, src); out == "" {
				return ""
			}
		}
		return out
	}
	return ""
}

// valueType is the type of a value when the value says it: `new T(…)`, `v as
// T`, `<T>v`; or a call, written as the path to the function whose return type
// it is (`f`, `T.m` for `x.m()` with x a T, `this.f.m()` and `this.m()` alike),
// which the cross-file pass follows.
func (b *jsBinder) valueType(v *sitter.Node) string {
	if v == nil {
		return ""
	}
	src := b.src
	switch v.Kind() {
	case "new_expression":
		c := v.ChildByFieldName("constructor")
		if c != nil && (c.Kind() == "identifier" || c.Kind() == "member_expression") {
			return text(c, src)
		}
	case "as_expression":
		if v.NamedChildCount() == 2 {
			return jsTypeName(v.NamedChild(1), src)
		}
	case "type_assertion":
		if v.NamedChildCount() == 2 {
			if ta := v.NamedChild(0); ta.NamedChildCount() == 1 {
				return jsTypeName(ta.NamedChild(0), src)
			}
		}
	case "parenthesized_expression", "non_null_expression":
		if v.NamedChildCount() == 1 {
			return b.valueType(v.NamedChild(0))
		}
	case "call_expression":
		return b.calleeType(v.ChildByFieldName("function"))
	case "member_expression": // `(s as T)._zod.def`: the member's declared type
		return b.calleeType(v)
	case "this": // `const self = this` in a method: the class, for closures
		return b.self[""]
	}
	return ""
}

// calleeType writes a callee as the path to its function: `f`, `T.m`.
func (b *jsBinder) calleeType(f *sitter.Node) string {
	if f == nil {
		return ""
	}
	switch f.Kind() {
	case "identifier":
		if b.isLocal(text(f, b.src)) {
			return ""
		}
		return text(f, b.src)
	case "member_expression":
		obj, prop := f.ChildByFieldName("object"), fieldText(f, "property", b.src)
		if obj == nil || prop == "" {
			return ""
		}
		for (obj.Kind() == "non_null_expression" || obj.Kind() == "parenthesized_expression") && obj.NamedChildCount() == 1 {
			obj = obj.NamedChild(0) // `x!.c()`, `(v as T).c()`
		}
		recv := ""
		switch obj.Kind() {
		case "identifier": // a local of known type, else a module's name (`core.clone()`)
			if recv = b.types[text(obj, b.src)]; recv == "" && !b.isLocal(text(obj, b.src)) {
				recv = text(obj, b.src)
			}
		case "this":
			recv = b.self[""]
		case "member_expression":
			if o := obj.ChildByFieldName("object"); o != nil && o.Kind() == "this" {
				p := fieldText(obj, "property", b.src)
				if recv = b.self[p]; (recv == "" || jsContainers[recv]) && b.self[""] != "" {
					recv = b.self[""] + "." + p // the field itself: the pass reads its declaration
				}
			} else {
				recv = b.calleeType(obj) // `x.a.b`: b of what a holds
			}
		case "call_expression": // `a.b().c()`: c of what b returns
			recv = b.calleeType(obj.ChildByFieldName("function"))
		case "as_expression": // `(v as T).c()`
			recv = b.valueType(obj)
		}
		if recv != "" {
			return recv + "." + prop
		}
	}
	return ""
}

// jsContainers are the built-in containers whose element type the pass reads
// off a field's declaration (internal/graph/resolve/jselements.go).
var jsContainers = map[string]bool{"Array": true, "ReadonlyArray": true, "Set": true, "ReadonlySet": true,
	"Map": true, "ReadonlyMap": true}

func (b *jsBinder) isLocal(name string) bool {
	for _, l := range b.locals {
		if l == name {
			return true
		}
	}
	return false
}
