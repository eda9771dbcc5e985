package main

import (
	"go/types"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// named is one copy of a package-level named type of the module.
type named struct {
	key string
	typ types.Type
}

// implementations records T implements I for every named, non-generic,
// non-interface type T and every named, non-generic interface I with at least one
// method (codegraph-eval §1.5), when T or *T implements I.
//
// With tests, a package's test variant re-declares its types: copies that are not
// identical to the plain ones, and the types that mention them differ too. So
// every copy of T is checked against every copy of I and a pair holds when any
// check holds: each true pair has one consistent universe (the plain packages, or
// the test variant that sees both), and a check across universes can only fail.
func (x *extractor) implementations(pkgs []*packages.Package) {
	var concrete, ifaces []named
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil {
			return
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			key := x.keyAt(tn.Pos())
			n, ok := tn.Type().(*types.Named)
			if key == "" || !ok || n.TypeParams().Len() > 0 {
				continue
			}
			if it, ok := n.Underlying().(*types.Interface); ok {
				if it.IsMethodSet() && it.NumMethods() > 0 {
					ifaces = append(ifaces, named{key, it})
				}
				continue
			}
			concrete = append(concrete, named{key, n})
		}
	})
	type pair struct{ t, i string }
	found := map[pair]bool{}
	for _, t := range concrete {
		ptr := types.NewPointer(t.typ)
		for _, i := range ifaces {
			p := pair{t.key, i.key}
			if found[p] {
				continue
			}
			it := i.typ.(*types.Interface)
			if types.Implements(t.typ, it) || types.Implements(ptr, it) {
				found[p] = true
				x.out.Implementations = append(x.out.Implementations, truth.Implementation{Type: t.key, Interface: i.key})
			}
		}
	}
}
