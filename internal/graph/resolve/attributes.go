package resolve

import (
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
			o := v.resolveName(file, cls, s.Name, types, d)
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
