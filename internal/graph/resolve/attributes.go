package resolve

import (
	"strings"
	"unicode"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// attributeType finds the type of attribute name of class c or, breadth first,
// of its bases, as the class's file writes it (treesitter.AttributeType sites:
// `self.headers = CaseInsensitiveDict(…)` in a method). The lookup stands for
// that type with attr set: a receiver to find members in, not a definition.
func (v *view) attributeType(c, name string, d *deps) (lookup, bool) {
	queue, seen := []string{c}, map[string]bool{}
	for len(queue) > 0 && len(seen) < maxHops {
		cls := queue[0]
		queue = queue[1:]
		if seen[cls] {
			continue
		}
		seen[cls] = true
		file := fileOf(cls)
		d.file(file)
		for _, s := range v.sitesOf(file) {
			if s.Kind != treesitter.AttributeType || s.From != cls+"::"+name {
				continue
			}
			o := v.typeNamed(file, cls, s.Name, d)
			if o.to == "" || len(o.also) > 0 {
				return lookup{}, false
			}
			n, ok := v.node(o.to)
			if !ok || !isTypeKind(n.Kind) {
				return lookup{}, false
			}
			return lookup{node: n, status: found, choice: o.conf < confImport, attr: name}, true
		}
		bl := v.basesOf(cls)
		d.merge(bl.deps)
		queue = append(queue, bl.bases...)
	}
	return lookup{}, false
}

// attrOutcome is the verdict on a name that ends at an attribute: not a
// definition, so no edge (its type is no use of the attribute).
func attrOutcome(l lookup) outcome {
	return outcome{reason: "attribute " + l.attr + " of type " + l.node.Name + " is not a definition"}
}

// typeNamed resolves a type as written in file: a class name, or `f()`, what
// the function f says it returns (`-> ParamType`, read in f's own file).
func (v *view) typeNamed(file, src, name string, d *deps) outcome {
	callee, ok := strings.CutSuffix(name, "()")
	if !ok {
		return v.resolveName(file, src, name, types, d)
	}
	o := v.resolveName(file, src, callee, callables, d)
	if o.to == "" || len(o.also) > 0 {
		return outcome{reason: "the function " + callee + " is not found"}
	}
	fn, ok := v.node(o.to)
	if !ok || (fn.Kind != graph.KindFunction && fn.Kind != graph.KindMethod) {
		return outcome{reason: callee + " is not a function"}
	}
	t := pyReturnType(fn.Signature)
	if t == "" {
		return outcome{reason: callee + " says no class it returns"}
	}
	return v.resolveName(fn.File, fn.QName, t, types, d)
}

// pyReturnType is the class a Python function's signature says it returns:
// the annotation after `->`, unquoted, with Optional[X] and X | None read as X;
// "" for anything else.
func pyReturnType(sig string) string {
	i := strings.LastIndex(sig, "->")
	if i < 0 {
		return ""
	}
	return pyClassName(strings.TrimSuffix(strings.TrimSpace(sig[i+2:]), ":"))
}

func pyClassName(t string) string {
	t = strings.TrimSpace(t)
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if parts := splitTopLevel(t, '|'); len(parts) > 1 {
		one := ""
		for _, p := range parts {
			if p = strings.TrimSpace(p); p == "None" {
				continue
			}
			if one != "" {
				return ""
			}
			one = p
		}
		return pyClassName(one)
	}
	if head, inner, ok := strings.Cut(t, "["); ok && strings.HasSuffix(inner, "]") {
		if head[strings.LastIndex(head, ".")+1:] == "Optional" {
			return pyClassName(inner[:len(inner)-1])
		}
		return ""
	}
	for _, part := range strings.Split(t, ".") {
		if !pyIdentifier(part) {
			return ""
		}
	}
	return t
}

func pyIdentifier(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}
