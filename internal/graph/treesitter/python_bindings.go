package treesitter

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pythonBindings reads what a Python scope binds (Spec.Bindings): a function's
// parameters and the names its body binds (assignments, for, with, except,
// comprehension and walrus targets; `global`/`nonlocal` names are Outer), a
// class's fields and self attributes, a module's variables, with their types
// where an annotation or a constructor call (`x = Console()`) says them.
func pythonBindings(n *sitter.Node, src []byte) Bindings {
	ret := ""
	b := pyBinder{src: src, types: map[string]string{}, conflict: map[string]bool{}, declared: map[string]bool{}}
	switch n.Kind() {
	case "function_definition":
		b.params(n.ChildByFieldName("parameters"), true)
		b.body(n.ChildByFieldName("body"), 0)
		ret = pyTypeName(fieldText(n, "return_type", src))
	case "class_definition":
		b.class(n.ChildByFieldName("body"))
	case "module":
		b.module(n, 0)
		b.locals = nil // module variables are definitions, not locals
	}
	types := b.result()
	if ret != "" {
		types[returnKey] = ret
	}
	return Bindings{Locals: b.locals, Outer: b.outer, Types: types}
}

// returnOf marks a type as the return type of the callee it names, read once
// the file's functions are known (`self.copy()`, `load()`, `Style.parse()`).
const returnOf = "()"

// pyBinder collects one scope's bindings. A name's type is its declared one (an
// annotation), else the one every binding of it agrees on; `None` says nothing.
type pyBinder struct {
	src      []byte
	locals   []string
	outer    []string
	types    map[string]string
	declared map[string]bool
	conflict map[string]bool
	// paramTypes are the annotated parameters of the method being read, for
	// `self.env = env`.
	paramTypes map[string]string
}

// maxBindDepth bounds the statements nesting a binder descends.
const maxBindDepth = 64

func (b *pyBinder) result() map[string]string {
	out := map[string]string{}
	for name, t := range b.types {
		if t != "" && (b.declared[name] || !b.conflict[name]) {
			out[name] = t
		}
	}
	return out
}

// declare sets the annotated type of name; the first annotation wins.
func (b *pyBinder) declare(name, t string) {
	if name == "" || b.declared[name] {
		return
	}
	if t = pyTypeName(t); t != "" {
		b.types[name], b.declared[name] = t, true
	}
}

// infer records one binding of name to a value of type t ("" unknown).
func (b *pyBinder) infer(name, t string) {
	if name == "" || b.declared[name] {
		return
	}
	if old, ok := b.types[name]; ok && old != t || t == "" {
		b.conflict[name] = true
	}
	if _, ok := b.types[name]; !ok {
		b.types[name] = t
	}
}

// params reads a parameter list: every parameter is a local; an annotation types it.
func (b *pyBinder) params(ps *sitter.Node, typed bool) {
	if ps == nil {
		return
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		name, t := "", ""
		switch p.Kind() {
		case "identifier":
			name = text(p, b.src)
		case "default_parameter", "typed_default_parameter":
			name = fieldText(p, "name", b.src)
			t = fieldText(p, "type", b.src)
		case "typed_parameter":
			if id := p.NamedChild(0); id != nil && id.Kind() == "identifier" {
				name = text(id, b.src)
			} else if id != nil {
				b.targets(id) // *args: T, **kw: T
			}
			t = fieldText(p, "type", b.src)
		case "list_splat_pattern", "dictionary_splat_pattern":
			b.targets(p)
		}
		if name == "" {
			continue
		}
		b.locals = append(b.locals, name)
		if typed && t != "" {
			b.declare(name, t)
			if b.paramTypes != nil {
				b.paramTypes[name] = pyTypeName(t)
			}
		} else {
			b.infer(name, "")
		}
	}
}

// targets binds the names of an assignment target, untyped.
func (b *pyBinder) targets(n *sitter.Node) {
	if n == nil {
		return
	}
	switch n.Kind() {
	case "identifier":
		name := text(n, b.src)
		b.locals = append(b.locals, name)
		b.infer(name, "")
	case "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
		"dictionary_splat_pattern", "as_pattern_target", "expression_list", "tuple", "list", "parenthesized_expression":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			b.targets(n.NamedChild(i))
		}
	}
}

// exceptAlias binds `except errors.OAuthError as e:` (n is its as_pattern): e
// holds the exception class when one class is named (a tuple says nothing).
func (b *pyBinder) exceptAlias(n *sitter.Node) {
	alias := n.ChildByFieldName("alias")
	if alias != nil && alias.Kind() == "as_pattern_target" && alias.NamedChildCount() == 1 {
		alias = alias.NamedChild(0)
	}
	if alias == nil || alias.Kind() != "identifier" {
		b.targets(alias)
		return
	}
	t := ""
	if c := n.NamedChild(0); c != nil && (c.Kind() == "identifier" || c.Kind() == "attribute") {
		t = pyTypeName(text(c, b.src))
	}
	name := text(alias, b.src)
	b.locals = append(b.locals, name)
	b.infer(name, t)
}

// body reads a function body's statements, not entering nested definitions,
// whose names are their own (a nested def or class is a definition of the file).
func (b *pyBinder) body(n *sitter.Node, depth int) {
	if n == nil || depth > maxBindDepth {
		return
	}
	switch n.Kind() {
	case "function_definition", "class_definition", "decorated_definition",
		"import_statement", "import_from_statement":
		return
	case "lambda":
		b.params(n.ChildByFieldName("parameters"), false)
	case "assignment":
		b.assignment(n)
	case "augmented_assignment":
		b.targets(n.ChildByFieldName("left"))
	case "for_statement", "for_in_clause":
		b.targets(n.ChildByFieldName("left"))
	case "as_pattern":
		if p := n.Parent(); p != nil && p.Kind() == "except_clause" {
			b.exceptAlias(n)
		} else {
			b.targets(n.ChildByFieldName("alias"))
		}
	case "except_clause":
		b.targets(n.ChildByFieldName("alias"))
	case "named_expression":
		b.targets(n.ChildByFieldName("name"))
	case "global_statement", "nonlocal_statement":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if c := n.NamedChild(i); c.Kind() == "identifier" {
				b.outer = append(b.outer, text(c, b.src))
			}
		}
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.body(n.NamedChild(i), depth+1)
	}
}

// assignment binds `x = v`, `x: T = v`, `a, b = v`: a lone name takes T, or the
// class a constructor call `v` names.
func (b *pyBinder) assignment(n *sitter.Node) {
	left := n.ChildByFieldName("left")
	if left == nil || left.Kind() != "identifier" {
		b.targets(left)
		return
	}
	name := text(left, b.src)
	b.locals = append(b.locals, name)
	if t := fieldText(n, "type", b.src); t != "" {
		b.declare(name, t)
		return
	}
	if t, ok := b.valueType(n.ChildByFieldName("right")); ok {
		b.infer(name, t)
	}
}

// valueType is the class a value is an instance of when the value says it: a
// call of a capitalised name (`Environment(…)`, `nodes.Const(…)`), an
// annotated parameter of the method read, or `x or Default()`. ok is false for `None`, which says
// nothing (an attribute set to None first, to a value later).
func (b *pyBinder) valueType(v *sitter.Node) (t string, ok bool) {
	if v == nil {
		return "", true
	}
	switch v.Kind() {
	case "none":
		return "", false
	case "call":
		f := v.ChildByFieldName("function")
		if f == nil || (f.Kind() != "identifier" && f.Kind() != "attribute") {
			return "", true
		}
		name := text(f, b.src)
		last := name[strings.LastIndex(name, ".")+1:]
		if r, _ := utf8.DecodeRuneInString(last); unicode.IsUpper(r) && !isUpperSnake(last) {
			return pyTypeName(name), true
		}
		if strings.Count(name, ".") <= 1 && pyTypeName(name) != "" {
			return name + returnOf, true // what the callee's return annotation says
		}
	case "identifier":
		if t, found := b.paramTypes[text(v, b.src)]; found {
			return t, true
		}
	case "boolean_operator":
		// `given or Default()`: a Default, unless given says another class.
		if fieldText(v, "operator", b.src) != "or" {
			return "", true
		}
		lt, _ := b.valueType(v.ChildByFieldName("left"))
		rt, ok := b.valueType(v.ChildByFieldName("right"))
		if lt == "" || lt == rt {
			return rt, ok
		}
	}
	return "", true
}

// isUpperSnake: `DEFAULT_STYLE()` is a constant holding a callable, not a class.
func isUpperSnake(s string) bool { return len(s) > 1 && strings.ToUpper(s) == s }

// class reads a class body: annotated fields (`x: T`, dataclasses) and, in its
// methods, `self.x = T(…)`, `self.x: T = …`, `self.x = param` of annotated type.
func (b *pyBinder) class(body *sitter.Node) {
	if body == nil {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		st := body.NamedChild(i)
		switch st.Kind() {
		case "expression_statement":
			if a := st.NamedChild(0); a != nil && a.Kind() == "assignment" {
				b.assignment(a)
			}
		case "decorated_definition":
			if d := st.ChildByFieldName("definition"); d != nil && d.Kind() == "function_definition" {
				b.method(d)
			}
		case "function_definition":
			b.method(st)
		}
	}
	b.locals = nil // class fields are definitions, not locals
}

// method reads one method's `self.x` assignments for the class's attribute types.
func (b *pyBinder) method(fn *sitter.Node) {
	ps := fn.ChildByFieldName("parameters")
	if ps == nil || ps.NamedChildCount() == 0 {
		return
	}
	self := text(ps.NamedChild(0), b.src)
	m := &pyBinder{src: b.src, types: map[string]string{}, paramTypes: map[string]string{},
		conflict: map[string]bool{}, declared: map[string]bool{}}
	m.params(ps, true)
	b.paramTypes = m.paramTypes
	b.selfAssignments(fn.ChildByFieldName("body"), self, 0)
	b.paramTypes = nil
}

func (b *pyBinder) selfAssignments(n *sitter.Node, self string, depth int) {
	if n == nil || depth > maxBindDepth {
		return
	}
	switch n.Kind() {
	case "function_definition", "class_definition", "lambda":
		return
	case "assignment":
		left := n.ChildByFieldName("left")
		if left != nil && left.Kind() == "attribute" && fieldText(left, "object", b.src) == self {
			attr := fieldText(left, "attribute", b.src)
			if t := fieldText(n, "type", b.src); t != "" {
				b.declare(attr, t)
			} else if t, ok := b.valueType(n.ChildByFieldName("right")); ok {
				b.infer(attr, t)
			}
		}
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.selfAssignments(n.NamedChild(i), self, depth+1)
	}
}

// module reads the module's variables, in blocks (`if`, `try`) but not in
// functions or classes.
func (b *pyBinder) module(n *sitter.Node, depth int) {
	if n == nil || depth > maxBindDepth {
		return
	}
	switch n.Kind() {
	case "function_definition", "class_definition", "decorated_definition", "lambda":
		return
	case "assignment":
		b.assignment(n)
	case "for_statement", "augmented_assignment":
		b.targets(n.ChildByFieldName("left"))
	case "as_pattern":
		b.targets(n.ChildByFieldName("alias"))
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		b.module(n.NamedChild(i), depth+1)
	}
}

// pyTypeName is the class an annotation names, as written: `Environment`,
// `"Console"`, `nodes.Template`, `Optional[T]`, `T | None`, `Union[T, None]`;
// "" for anything else (a container, a callable, a union of classes).
func pyTypeName(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if parts := splitTop(s, '|'); len(parts) > 1 {
		return onlyOne(parts)
	}
	if strings.HasSuffix(s, "]") {
		head, inner, ok := strings.Cut(s[:len(s)-1], "[")
		if !ok {
			return ""
		}
		switch base := head[strings.LastIndex(head, ".")+1:]; {
		case base == "Optional" || base == "Type" || base == "type":
			return pyTypeName(inner)
		case base == "Union":
			return onlyOne(splitTop(inner, ','))
		case pyGenericBuiltins[base] || !hasUpperInitial(base):
			return ""
		}
		return pyTypeName(head) // a generic class of the project: `Stack[MarkdownElement]` is a Stack
	}
	if s == "" || s == "None" {
		return ""
	}
	for _, part := range strings.Split(s, ".") {
		if !isIdentifier(part) {
			return ""
		}
	}
	return s
}

// pyGenericBuiltins are the typing and built-in generics whose instance is no
// class of the project (`List[Console]` says nothing of a receiver's methods).
var pyGenericBuiltins = map[string]bool{
	"List": true, "Dict": true, "Set": true, "FrozenSet": true, "Tuple": true, "Sequence": true,
	"MutableSequence": true, "Iterable": true, "Iterator": true, "Mapping": true, "MutableMapping": true,
	"Callable": true, "Generator": true, "AsyncGenerator": true, "AsyncIterator": true, "AsyncIterable": true,
	"Awaitable": true, "Coroutine": true, "Deque": true, "DefaultDict": true, "OrderedDict": true,
	"Counter": true, "ChainMap": true, "ClassVar": true, "Final": true, "Literal": true, "Annotated": true,
	"Collection": true, "Container": true, "AbstractSet": true, "MutableSet": true, "Generic": true,
	"Protocol": true, "TypeGuard": true, "Pattern": true, "Match": true, "IO": true, "TextIO": true,
	"ContextManager": true, "AsyncContextManager": true, "KeysView": true, "ValuesView": true, "ItemsView": true,
}

// onlyOne is the one class a union names besides None, or "".
func onlyOne(parts []string) string {
	out := ""
	for _, p := range parts {
		if p = strings.TrimSpace(p); p == "None" {
			continue
		}
		if out != "" {
			return ""
		}
		if out = pyTypeName(p); out == "" {
			return ""
		}
	}
	return out
}

// splitTop splits s at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// pythonCallee writes `super()` as the enclosing class's first base, so that
// `super().m()` is the site `Base.m`, found in Base or its bases: the class's
// own m, which super() skips, is never the target. A call of a CapWords name
// (`Registry()`, `models.Token()`), by convention a class, is written as that
// name: `Registry().get()` is the site `Registry.get`, the receiver's type is
// evidence. "" leaves other callees to the Member rules.
func pythonCallee(n *sitter.Node, src []byte, _ func(*sitter.Node) string) string {
	if n.Kind() != "call" {
		return ""
	}
	f := n.ChildByFieldName("function")
	if f == nil {
		return ""
	}
	if f.Kind() != "identifier" || text(f, src) != "super" {
		return pythonClassCall(f, src)
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() != "class_definition" {
			continue
		}
		bases := p.ChildByFieldName("superclasses")
		if bases == nil {
			return ""
		}
		for i := uint(0); i < bases.NamedChildCount(); i++ {
			if b := bases.NamedChild(i); b.Kind() == "identifier" || b.Kind() == "attribute" {
				return text(b, src)
			}
		}
		return ""
	}
	return ""
}

// pythonClassCall is the callee f of a call written as a dotted CapWords name
// (`Token`, `models.Token`), or "".
func pythonClassCall(f *sitter.Node, src []byte) string {
	if f.Kind() != "identifier" && f.Kind() != "attribute" {
		return ""
	}
	name := text(f, src)
	parts := strings.Split(name, ".")
	for _, p := range parts {
		if !isIdentifier(p) {
			return ""
		}
	}
	last := parts[len(parts)-1]
	if r, _ := utf8.DecodeRuneInString(last); !unicode.IsUpper(r) || strings.ToUpper(last) == last {
		return "" // lower case: a function; ALL_CAPS: a constant holding anything
	}
	return name
}
