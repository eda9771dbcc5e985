package treesitter

import "strings"

// innermost narrows the definitions a bare name written in from may name to
// those of the innermost scope around from: a function nested in another is
// seen only inside it and shadows a definition of the same name further out
// (Python's and JavaScript's lexical scoping), so `helper()` in outer1 is
// outer1's own helper, not the module's nor outer2's. Definitions in no scope
// around from (a member of a type) are kept at the file's level, as the spec's
// visibility left them. When nothing is left, defs are returned as they came.
func (w *walker) innermost(defs []*def, from string) []*def {
	if len(defs) < 2 {
		return defs
	}
	var out []*def
	best := -1
	for _, d := range defs {
		depth := 0
		switch p := w.defs[d.parent]; {
		case d.parent != w.rel && (from == d.parent || strings.HasPrefix(from, d.parent+"::")):
			depth = 1 + strings.Count(strings.TrimPrefix(d.parent, w.rel), "::")
		case p != nil && isCallable(p.kind):
			continue // a local of another function
		}
		switch {
		case depth > best:
			best, out = depth, []*def{d}
		case depth == best:
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return defs
	}
	return out
}
