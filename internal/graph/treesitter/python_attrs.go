package treesitter

import (
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// AttributeType is the kind of the sites a class leaves for each attribute
// whose type its body or methods say (`self.headers = CaseInsensitiveDict(…)`,
// `self.client: Client`, `cache: Store`): not an edge, a fact the cross-file
// pass reads to follow `request.headers.get` on a `request: Request` from
// another file to CaseInsensitiveDict.get. From is `<class>::<attribute>`, Name
// the type as the class's file writes it, or `f()` for what a function of
// another file returns. The pass draws no edge for them.
const AttributeType graph.EdgeKind = "attribute_type"

// attributeTypes lists the AttributeType sites of the file's classes, when the
// spec asks for them (Spec.AttributeTypes).
func (w *walker) attributeTypes() []graph.Unresolved {
	if !w.spec.AttributeTypes {
		return nil
	}
	var out []graph.Unresolved
	for q, attrs := range w.types {
		d := w.defs[q]
		if d == nil || !isType(d.kind) {
			continue
		}
		for attr, t := range attrs {
			if r := w.returned(t, q, q); r != "" || !strings.HasSuffix(t, returnOf) {
				t = r
			} // else a function of another file (`types.convert_type()`): the pass reads its return type
			if attr == returnKey || t == "" || !w.knownType(t) {
				continue
			}
			out = append(out, graph.Unresolved{From: q + "::" + attr, Name: t, Kind: AttributeType,
				File: w.rel, Line: d.line, Reason: "the type of attribute " + attr})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}
