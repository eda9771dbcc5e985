package resolve

import (
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// TypeScript without the checker: a value's type is the one its declaration
// names. The extractor writes `x.m()` on a `x: T` as the site `T.m`; on the way
// to m, a variable, a field or a function (its return type) found stands for
// its declared type, read off its signature, so `T.client.send` and
// `cache.build.fetch` (the extractor's `build(…).fetch()`) reach a method.

func init() { jsLanguage.ValueMember = jsValueMember }

// jsValueMember finds name as a member of what l's definition holds.
func jsValueMember(v *view, l lookup, name string, d *deps) lookup {
	return v.jsMember(l, name, d, 0)
}

func (v *view) jsMember(l lookup, name string, d *deps, depth int) lookup {
	switch {
	case depth > maxHops:
		return lookup{status: unknown, reason: "type chain longer than the pass follows"}
	case !l.isNode() || isTypeKind(l.node.Kind) || l.node.Kind == graph.KindNamespace:
		return v.member(l, name, &jsLanguage, d)
	}
	if u, ok := v.unionMember(l, name, d, depth); ok {
		return u
	}
	if l.iterates != "" {
		return v.elementParam(l, name, d, depth)
	}
	if i, j, ok := callbackParam(name); ok { // `f.(i,j)`: see the extractor's jsBinder.callback
		t := tsCallbackParamType(l.node, i, j)
		if t == "" {
			return lookup{status: unknown, reason: "the callback parameters of " + l.node.Name + " are not typed"}
		}
		return v.jsPath(l.node.File, t, d, depth+1)
	}
	if it, ok := iterating(l, name); ok {
		return it
	}
	t := tsDeclaredType(l.node)
	var typ lookup
	switch t {
	case "":
		if n, ok := v.spreadMember(l.node, name, d); ok {
			return lookup{node: n, status: found, choice: l.choice}
		}
		return lookup{status: unknown, reason: "the type of " + l.node.Name + " is not known"}
	case "this": // a fluent method: the class it is a member of
		owner := l.node.QName[:max(strings.LastIndex(l.node.QName, "::"), 0)]
		if n, ok := v.node(owner); ok && isTypeKind(n.Kind) {
			typ = lookup{node: n, status: found}
		}
	default:
		typ = v.jsPath(l.node.File, t, d, depth+1)
	}
	if !typ.isNode() {
		return lookup{status: unknown, reason: "the type of " + l.node.Name + " (" + t + ") is not found"}
	}
	typ.choice = typ.choice || l.choice
	return eachMember(typ, func(x lookup) lookup { return v.jsMember(x, name, d, depth+1) })
}

// spreadMember finds name in the modules a variable's initialiser names by
// namespace (`const z = { ...schemas, ...checks }`, zod's local `z`), when
// exactly one of them defines it.
func (v *view) spreadMember(n graph.Node, name string, d *deps) (graph.Node, bool) {
	if n.Kind != graph.KindVariable && n.Kind != graph.KindConstant {
		return graph.Node{}, false
	}
	sc := v.scopeOf(n.File)
	var hit graph.Node
	hits := 0
	for _, s := range v.sitesOf(n.File) {
		b, ok := sc.names[s.Name]
		if s.From != n.QName || s.Kind != graph.EdgeReferences || !ok || b.symbol != "" {
			continue
		}
		mod := v.bound(b, &jsLanguage, d, 0)
		if mod.status != found || mod.isNode() {
			continue
		}
		if m := v.inModule(mod.mod, name, &jsLanguage, d, 0); m.isNode() && m.node.QName != hit.QName {
			hit, hits = m.node, hits+1
		}
	}
	return hit, hits == 1
}

// jsPath resolves a type as written in file (`Query`, `core.$ZodType`).
func (v *view) jsPath(file, path string, d *deps, depth int) lookup {
	segs := strings.Split(path, ".")
	l, k := v.head(file, segs, &jsLanguage, d)
	if k == 0 {
		return lookup{status: unknown, reason: "not found: " + segs[0]}
	}
	for _, seg := range segs[k:] {
		if l.status != found {
			break
		}
		l = eachMember(l, func(x lookup) lookup { return v.jsMember(x, seg, d, depth+1) })
	}
	return l
}

// tsDeclaredType is the type n's signature names: a field's or variable's
// annotation (`private client: Client`), a function's or method's return type
// (`build(…): Query<T>`), `this` for a fluent method; "" when it names none
// (no annotation, a union, an array, a built-in).
func tsDeclaredType(n graph.Node) string { return tsTypePath(tsAnnotation(n)) }

// tsAnnotation is the type n's signature writes, as written: a field's or
// variable's annotation, a function's or method's return type; "" for none.
func tsAnnotation(n graph.Node) string {
	sig, at := n.Signature, nameEnd(n.Signature, n.Name)
	if at < 0 {
		return ""
	}
	rest := sig[at:]
	switch n.Kind {
	case graph.KindFunction, graph.KindMethod:
		if g := strings.TrimLeft(rest, "?"); strings.HasPrefix(g, "<") { // `m<T extends (x: A) => B>(…)`
			if end := closing(g, 0); end > 0 {
				rest = g[end+1:]
			}
		}
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			return ""
		}
		end := closing(rest, open)
		if end < 0 {
			return ""
		}
		rest = strings.TrimSpace(rest[end+1:])
	case graph.KindField, graph.KindVariable, graph.KindConstant:
		rest = strings.TrimLeft(rest, "?!")
	default:
		return ""
	}
	t, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return ""
	}
	t, _, _ = strings.Cut(t, "=>") // `f = (x): T =>`
	return t
}

// callbackParam reads the selector `(i,j)`: parameter j of the function passed
// as argument i.
func callbackParam(s string) (i, j int, ok bool) {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return 0, 0, false
	}
	inner := s[1 : len(s)-1]
	a, b, found := strings.Cut(inner, ",")
	i, err1 := strconv.Atoi(a)
	j, err2 := strconv.Atoi(b)
	return i, j, found && err1 == nil && err2 == nil
}

// tsCallbackParamType is the type a function's signature gives parameter j of
// the function its parameter i takes (`operate(init: (source: Observable<T>,
// subscriber: Subscriber<R>) => void)`: (0,1) is Subscriber), `this:` skipped.
func tsCallbackParamType(n graph.Node, i, j int) string {
	if n.Kind != graph.KindFunction && n.Kind != graph.KindMethod {
		return ""
	}
	params, ok := paramList(n.Signature, nameEnd(n.Signature, n.Name))
	if !ok || i >= len(params) {
		return ""
	}
	_, fnType, ok := strings.Cut(params[i], ":")
	if !ok {
		return ""
	}
	inner, ok := paramList(strings.TrimSpace(fnType), 0)
	if !ok || !strings.HasPrefix(strings.TrimSpace(fnType), "(") {
		return ""
	}
	var named []string
	for _, p := range inner {
		if !strings.HasPrefix(strings.TrimSpace(p), "this:") {
			named = append(named, p)
		}
	}
	if j >= len(named) {
		return ""
	}
	_, t, ok := strings.Cut(named[j], ":")
	if !ok {
		return ""
	}
	return tsTypePath(t)
}

// paramList splits the first parameter list at or after from in sig, skipping
// type parameters.
func paramList(sig string, from int) ([]string, bool) {
	if from < 0 || from > len(sig) {
		return nil, false
	}
	rest := strings.TrimLeft(sig[from:], "? ")
	if strings.HasPrefix(rest, "<") {
		end := closing(rest, 0)
		if end < 0 {
			return nil, false
		}
		rest = rest[end+1:]
	}
	open := strings.IndexByte(rest, '(')
	if open < 0 {
		return nil, false
	}
	end := closing(rest, open)
	if end < 0 {
		return nil, false
	}
	if strings.TrimSpace(rest[open+1:end]) == "" {
		return nil, true
	}
	return splitTopLevel(rest[open+1:end], ','), true
}

// nameEnd is the index just past the first whole-word occurrence of name in
// sig, or -1.
func nameEnd(sig, name string) int {
	for from := 0; name != "" && from < len(sig); {
		i := strings.Index(sig[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(name)
		if (i == 0 || !isWordByte(sig[i-1])) && (j == len(sig) || !isWordByte(sig[j])) {
			return j
		}
		from = j
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '#' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// closing is the index of the bracket that closes the one at open, or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if i > 0 && s[i-1] == '=' { // `=>` in a function type
				continue
			}
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// tsTypePath is the class or interface a type names, as written: `Query` of
// `Query<T>`, `core.$ZodType`, `T` of `T | undefined`, `this`; "" otherwise.
func tsTypePath(t string) string {
	t = strings.TrimSpace(t)
	if parts := splitTopLevel(t, '|'); len(parts) > 1 {
		one := ""
		for _, p := range parts {
			switch p = strings.TrimSpace(p); p {
			case "undefined", "null", "":
				continue
			}
			if one != "" {
				return ""
			}
			one = p
		}
		t = one
	}
	if strings.HasPrefix(t, "(") && closing(t, 0) == len(t)-1 {
		return tsTypePath(t[1 : len(t)-1])
	}
	if i := strings.IndexByte(t, '<'); i > 0 && closing(t, i) == len(t)-1 {
		t = t[:i]
	}
	if t == "" || tsBuiltin[t] && t != "this" {
		return ""
	}
	for _, part := range strings.Split(t, ".") {
		if part == "" || !isIdentifierText(part) {
			return ""
		}
	}
	return t
}

var tsBuiltin = map[string]bool{
	"any": true, "unknown": true, "never": true, "void": true, "object": true, "string": true,
	"number": true, "boolean": true, "bigint": true, "symbol": true, "undefined": true, "null": true,
}

func isIdentifierText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isWordByte(c) || c == '#' || (i == 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// splitTopLevel splits s at sep outside brackets.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if i > 0 && s[i-1] == '=' {
				continue
			}
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
