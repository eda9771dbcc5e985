package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// stdInterface is a standard-library interface that module types are checked
// against, in addition to the module's own interfaces: the question "what
// implements io.Writer here?" is common (codegraph-eval §1.5).
type stdInterface struct {
	path, name string
	// synthetic: its methods mention predeclared types only, so an identical copy
	// type-checked from stdSource stands in for it whether or not the module
	// imports its package (type identity of predeclared types is universal).
	synthetic bool
}

// stdInterfaces is a judgement call: the interfaces most often implemented by
// application types. context.Context is left out: rarely implemented outside the
// standard library, and its methods drag in package time.
var stdInterfaces = []stdInterface{
	{"", "error", false},
	{"fmt", "Stringer", true},
	{"io", "Reader", true},
	{"io", "Writer", true},
	{"io", "Closer", true},
	{"sort", "Interface", true},
	{"encoding/json", "Marshaler", true},
	{"net/http", "Handler", false},
}

// StandardInterfaces lists the qualified names of the interfaces outside the
// module that its types are checked against ("error", "io.Reader", …): an
// interface defined elsewhere and not listed has no implements edges, so its
// implementations can only be a lower bound.
func StandardInterfaces() []string {
	out := make([]string, 0, len(stdInterfaces))
	for _, s := range stdInterfaces {
		if s.path == "" {
			out = append(out, s.name)
		} else {
			out = append(out, s.path+"."+s.name)
		}
	}
	return out
}

const stdSource = `package std
type Stringer interface{ String() string }
type Reader interface{ Read(p []byte) (n int, err error) }
type Writer interface{ Write(p []byte) (n int, err error) }
type Closer interface{ Close() error }
type Interface interface{ Len() int; Less(i, j int) bool; Swap(i, j int) }
type Marshaler interface{ MarshalJSON() ([]byte, error) }
`

var stdSynthetic = sync.OnceValue(func() *types.Package {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "std.go", stdSource, parser.SkipObjectResolution)
	if err != nil {
		panic("golang: stdSource: " + err.Error())
	}
	pkg, err := new(types.Config).Check("std", fset, []*ast.File{f}, nil)
	if err != nil {
		panic("golang: stdSource: " + err.Error())
	}
	return pkg
})

// implements emits T → I for every named non-interface type T and every interface
// I with at least one method, both declared in this module (generic ones left
// out), when T or *T implements I; and T → each standard interface it implements.
//
// The test variant of a package is a second type universe: its copies of the
// package's types are not identical to the plain ones. So each pair is checked in
// the universe of the variant that declared T (I looked up through T's imports),
// else in I's, and only else with the objects as they come. Modules loaded
// separately (nested modules) are not checked against each other.
func (ex *extraction) implements(decls []*typeDecl) {
	// Interfaces are bucketed by their first method's name: a type whose method set
	// lacks that name cannot implement them, so each type is checked against the
	// buckets of its own method names only, not against every interface (1,000
	// types × 1,000 interfaces took 1.5 s of a 4.5 s load before).
	byFirst := map[string][]*typeDecl{}
	var concrete []*typeDecl
	for _, d := range decls {
		if it, ok := d.obj.Type().Underlying().(*types.Interface); ok {
			if it.IsMethodSet() && it.NumMethods() > 0 {
				first := it.Method(0).Name()
				byFirst[first] = append(byFirst[first], d)
			}
			continue
		}
		concrete = append(concrete, d)
	}
	scopes := closures{}
	for _, t := range concrete {
		ms := types.NewMethodSet(types.NewPointer(t.obj.Type()))
		var ifaces []*typeDecl
		for i := range ms.Len() {
			ifaces = append(ifaces, byFirst[ms.At(i).Obj().Name()]...)
		}
		for _, i := range ifaces {
			tt, it := t.obj.Type(), i.obj.Type()
			if o := scopes.lookup(t.view, i.obj.Pkg().Path(), i.obj.Name()); o != nil {
				it = o.Type()
			} else if o := scopes.lookup(i.view, t.obj.Pkg().Path(), t.obj.Name()); o != nil {
				tt = o.Type()
			}
			if satisfies(tt, it) {
				t.fx.edge(graph.EdgeImplements, t.qname, i.qname, t.at)
			}
		}
		for _, s := range stdInterfaces {
			var it types.Type
			switch {
			case s.path == "":
				it = types.Universe.Lookup(s.name).Type()
			case s.synthetic:
				it = stdSynthetic().Scope().Lookup(s.name).Type()
			default:
				o := scopes.lookup(t.view, s.path, s.name)
				if o == nil {
					continue // T's package cannot mention the interface's types
				}
				it = o.Type()
			}
			if satisfies(t.obj.Type(), it) {
				to := s.name
				if s.path != "" {
					to = s.path + "." + s.name
				}
				t.fx.edge(graph.EdgeImplements, t.qname, to, t.at)
			}
		}
	}
}

// satisfies reports whether t or *t implements the interface type iface.
func satisfies(t, iface types.Type) bool {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	if types.Implements(t, it) {
		return true
	}
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return false // no methods on *P for a pointer type P
	}
	return types.Implements(types.NewPointer(t), it)
}

// closures memoises, per package variant, the packages it can see: itself and its
// transitive imports, by path.
type closures map[*packages.Package]map[string]*types.Package

func (c closures) lookup(view *packages.Package, pkgPath, name string) types.Object {
	m, ok := c[view]
	if !ok {
		m = map[string]*types.Package{}
		var visit func(p *packages.Package)
		visit = func(p *packages.Package) {
			if p.Types == nil {
				return
			}
			if _, seen := m[p.PkgPath]; seen {
				return
			}
			m[p.PkgPath] = p.Types
			for _, imp := range p.Imports {
				visit(imp)
			}
		}
		visit(view)
		c[view] = m
	}
	p := m[pkgPath]
	if p == nil {
		return nil
	}
	o, _ := p.Scope().Lookup(name).(*types.TypeName)
	if o == nil {
		return nil
	}
	return o
}
