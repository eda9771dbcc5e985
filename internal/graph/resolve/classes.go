package resolve

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Classes: members found through a class and its bases, the bases themselves
// resolved like any name in the class's own file.

// classMember finds name in class c or, breadth first, in its bases.
func (v *view) classMember(c, name string, d *deps) (graph.Node, bool) {
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
		if n, ok := v.node(cls + "::" + name); ok {
			return n, true
		}
		// A Go method may be declared in any file of its type's package, a Swift
		// one in any file of its module (an extension).
		lang := languages[v.tree.Language(file)]
		if lang != nil && lang.ModuleOf != nil {
			if n, ok := v.inWideModule(lang, file, strings.TrimPrefix(cls, file+"::")+"::"+name, false); ok {
				d.file(n.File)
				return n, true
			}
		} else if lang != nil && lang.Package != nil {
			scopePath := strings.TrimPrefix(cls, file)
			for _, f := range lang.Package(v.tree, file) {
				d.file(f)
				if n, ok := v.node(f + scopePath + "::" + name); ok {
					return n, true
				}
			}
		}
		bl := v.basesOf(cls)
		d.merge(bl.deps)
		queue = append(queue, bl.bases...)
	}
	return graph.Node{}, false
}

// baseList is a class's bases, with what finding them read.
type baseList struct {
	bases []string
	deps  *deps
}

// basesOf lists the classes c extends: those its file defines (the extractor's
// edges) and those its clauses name from elsewhere, resolved like any name.
func (v *view) basesOf(c string) *baseList {
	if bl, ok := v.heirs[c]; ok {
		return bl
	}
	bl := &baseList{deps: newDeps("")}
	v.heirs[c] = bl // a cyclic hierarchy sees the list as far as it got
	file := fileOf(c)
	for _, e := range v.extendsOf(file) {
		if e.From == c {
			bl.bases = append(bl.bases, e.To)
		}
	}
	if lang := languages[v.tree.Language(file)]; lang != nil && lang.SameClass != nil {
		bl.bases = append(bl.bases, lang.SameClass(v, c, bl.deps)...)
	}
	for _, s := range v.sitesOf(file) {
		if s.From == c && s.Kind == graph.EdgeExtends {
			if o := v.resolveName(file, s.From, s.Name, types, bl.deps); o.to != "" {
				bl.bases = append(bl.bases, o.to)
			}
		}
	}
	return bl
}

// enclosingClass is the innermost class, struct or interface around src.
func (v *view) enclosingClass(src string) string {
	for q := src; strings.Contains(q, "::"); q = q[:strings.LastIndex(q, "::")] {
		if n, ok := v.node(q); ok && isTypeKind(n.Kind) {
			return q
		}
	}
	return ""
}

// inherited finds member in the class around src or its bases.
func (v *view) inherited(src, member string, d *deps) (outcome, bool) {
	cls := v.enclosingClass(src)
	if cls == "" {
		return outcome{}, false
	}
	n, ok := v.classMember(cls, member, d)
	if !ok {
		return outcome{}, false
	}
	return importOutcome(n.QName, false, confInherited), true
}

// inheritedPath finds `self.a.b.m`: a in the class around src or its bases,
// then each member through the type a's declaration names (Language.ValueMember)
// or, for an attribute that is no definition, the type its class's methods give
// it (attributeType).
func (v *view) inheritedPath(src string, path []string, lang *Language, d *deps) (outcome, bool) {
	cls := v.enclosingClass(src)
	if cls == "" {
		return outcome{}, false
	}
	var l lookup
	if n, ok := v.classMember(cls, path[0], d); ok && lang.ValueMember != nil {
		l = lookup{node: n, status: found}
	} else if t, ok := v.attributeType(cls, path[0], d); ok {
		l = t // an attribute its class's methods type (Python's self.a = A())
	} else {
		return outcome{}, false
	}
	for _, seg := range path[1:] {
		if l = v.member(l, seg, lang, d); l.status != found {
			return outcome{}, false
		}
	}
	if !l.isNode() || l.attr != "" || l.iterates != "" {
		return outcome{}, false // a receiver, not a definition: no edge
	}
	return importOutcome(l.node.QName, false, confInherited), true
}

// objectMember finds `this.m()` written in a method of an object literal held
// by a variable (`const ext = { clear() { return this.splice(0) }, splice() {…} }`):
// the object's own method m, what `this` is when the method is called on the
// object. The extractor names such methods under the variable.
func (v *view) objectMember(src, member string) (outcome, bool) {
	for q := src; strings.Contains(q, "::"); q = q[:strings.LastIndex(q, "::")] {
		n, ok := v.node(q)
		if !ok {
			continue
		}
		if isTypeKind(n.Kind) {
			return outcome{}, false // a class's this: inherited's
		}
		if n.Kind != graph.KindVariable && n.Kind != graph.KindConstant {
			continue
		}
		if m, ok := v.node(q + "::" + member); ok && m.Kind == graph.KindMethod {
			return importOutcome(m.QName, false, confInherited), true
		}
		return outcome{}, false
	}
	return outcome{}, false
}
