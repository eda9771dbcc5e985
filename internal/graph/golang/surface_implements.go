package golang

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// implementers are the variants outside recheck that declare a type whose
// implements edge towards an interface of recheck may have moved: the interface
// is new, gone or has other methods, and the type has every method it had or
// has. They are checked from source and their files re-extracted, so that the
// edges, which live in the implementing type's file, come out as in a full load.
func (su *surfaceUpdate) implementers(recheck map[string]bool) []string {
	var sets [][]string // method names of changed interfaces, before and after
	for key := range recheck {
		before := map[string]TypeRecord{}
		for _, r := range su.snap.Variants[key].Types {
			if r.Iface {
				before[r.Name] = r
			}
		}
		now := map[string]TypeRecord{}
		for _, tn := range su.declared(key) {
			if r := typeRecord(tn); r.Iface && len(r.Methods) > 0 {
				now[r.Name] = r
			}
		}
		for name, r := range now {
			if b, ok := before[name]; !ok || b.Sig != r.Sig {
				sets = append(sets, r.Methods)
			}
		}
		for name, b := range before {
			if r, ok := now[name]; !ok || b.Sig != r.Sig {
				sets = append(sets, b.Methods)
			}
		}
	}
	var out []string
	for _, key := range slices.Sorted(maps.Keys(su.variants)) {
		if recheck[key] {
			continue
		}
	types:
		for _, r := range su.variants[key].Types {
			if r.Iface {
				continue
			}
			for _, set := range sets {
				if subset(set, r.Methods) {
					out = append(out, key)
					break types
				}
			}
		}
	}
	return out
}

// declared are the named, non-generic, non-alias types a re-checked variant
// declares in the files it claims: the types of its typeDecls.
func (su *surfaceUpdate) declared(key string) []*types.TypeName {
	c := su.fromSource[key]
	scope := c.pkg.Scope()
	var out []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
			continue
		}
		f := su.fset.File(tn.Pos())
		if f == nil {
			continue
		}
		rel, err := filepath.Rel(su.root, f.Name())
		if err != nil || su.snap.Files[filepath.ToSlash(rel)].Variant != key {
			continue
		}
		out = append(out, tn)
	}
	return out
}

// subset reports whether every name of a (sorted) is in b (sorted).
func subset(a, b []string) bool {
	if len(a) == 0 {
		return false // no implements edge to an interface without methods
	}
	for _, n := range a {
		if _, ok := slices.BinarySearch(b, n); !ok {
			return false
		}
	}
	return true
}

// ifaceRef is an interface of the module, re-checked or from the index.
type ifaceRef struct {
	key, path, name string
	methods         []string // sorted
}

// implements emits, for every concrete type the update re-extracted, the
// implements edges a full load gives it (see extraction.implements): against the
// interfaces of the re-extracted files (set's) and those of every other variant
// of its module, read from their export data when their names could match. It
// returns the variants outside set whose export data lacks an unexported type a
// pair needs (the compiler leaves out what no exported declaration reaches):
// they must be checked from source too.
func (su *surfaceUpdate) implements(decls []*typeDecl, set map[string]bool) map[string]bool {
	missing := map[string]bool{}
	// obj is a declared type as the pair sees it, nil (and noted) when missing.
	obj := func(key, path, name string) *types.TypeName {
		tn := su.typeName(key, path, name)
		if tn != nil || set[key] {
			return tn
		}
		if c := su.privateChecks[key]; c != nil {
			if tn, _ := c.pkg.Scope().Lookup(name).(*types.TypeName); tn != nil && privateInterface(tn) {
				return tn
			}
		}
		if token.IsExported(name) {
			su.fail(path, fmt.Errorf("no type %s", name))
		} else {
			missing[key] = true
		}
		return nil
	}
	byFirst := map[string][]ifaceRef{}
	add := func(r ifaceRef) { byFirst[r.methods[0]] = append(byFirst[r.methods[0]], r) }
	for key, v := range su.variants {
		if set[key] {
			continue
		}
		for _, r := range v.Types {
			if r.Iface && len(r.Methods) > 0 {
				add(ifaceRef{key: key, path: v.PkgPath, name: r.Name, methods: r.Methods})
			}
		}
	}
	var concrete []*typeDecl
	for _, d := range decls {
		if it, ok := d.obj.Type().Underlying().(*types.Interface); ok {
			if it.IsMethodSet() && it.NumMethods() > 0 {
				add(ifaceRef{key: d.view.ID, path: d.obj.Pkg().Path(), name: d.obj.Name(), methods: typeRecord(d.obj).Methods})
			}
			continue
		}
		concrete = append(concrete, d)
	}
	for _, t := range concrete {
		key, path, name := t.view.ID, t.obj.Pkg().Path(), t.obj.Name()
		prefix, _, _ := splitKey(key)
		tobj := t.obj // set's packages are the universe's
		methods := typeRecord(t.obj).Methods
		for _, m := range methods {
			for _, i := range byFirst[m] {
				if p, _, _ := splitKey(i.key); p != prefix || !subset(i.methods, methods) {
					continue
				}
				iobj := obj(i.key, i.path, i.name)
				if iobj == nil {
					continue
				}
				tt, it := tobj.Type(), iobj.Type()
				if o := su.lookupIn(key, i.path, i.name, obj); o != nil {
					it = o.Type()
				} else if o := su.lookupIn(i.key, path, name, obj); o != nil {
					tt = o.Type()
				}
				if satisfies(tt, it) {
					t.fx.edge(graph.EdgeImplements, t.qname, i.path+"."+i.name, t.at)
				}
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
				o := su.stdType(key, s.path, s.name)
				if o == nil {
					continue
				}
				it = o.Type()
			}
			if satisfies(tobj.Type(), it) {
				to := s.name
				if s.path != "" {
					to = s.path + "." + s.name
				}
				t.fx.edge(graph.EdgeImplements, t.qname, to, t.at)
			}
		}
	}
	return missing
}

// typeName is the type name declared in variant key's package.
func (su *surfaceUpdate) typeName(key, path, name string) *types.TypeName {
	p := su.packageOf(key)
	if p == nil || p.Path() != path {
		return nil
	}
	tn, _ := p.Scope().Lookup(name).(*types.TypeName)
	return tn
}

// lookupIn finds a module type as variant view sees it: in the variant of its
// package that view imports, transitively (itself included); nil when it does
// not import the package, or the variant does not declare the type
// (closures.lookup in a full load). obj resolves a type the variant declares.
func (su *surfaceUpdate) lookupIn(view, path, name string, obj func(key, path, name string) *types.TypeName) *types.TypeName {
	for k := range su.reach(view) {
		if su.variants[k].PkgPath != path {
			continue
		}
		if !su.declares(k, name) {
			return nil
		}
		return obj(k, path, name)
	}
	return nil
}

// declares reports whether variant key's package declares a type named name.
func (su *surfaceUpdate) declares(key, name string) bool {
	if c := su.fromSource[key]; c != nil {
		_, ok := c.pkg.Scope().Lookup(name).(*types.TypeName)
		return ok
	}
	// Types index the files a variant claims; a test variant also compiles the
	// files of its plain variant, which claims them.
	prefix, id, _ := splitKey(key)
	for _, k := range []string{key, prefix + id} {
		if v := su.variants[k]; v != nil && v.PkgPath == su.variants[key].PkgPath {
			for _, r := range v.Types {
				if r.Name == name {
					return true
				}
			}
		}
	}
	return su.typeName(key, su.variants[key].PkgPath, name) != nil
}

// stdType is a standard interface as variant key sees it, nil when it does not
// import its package (transitively).
func (su *surfaceUpdate) stdType(key, path, name string) *types.TypeName {
	if !slices.Contains(su.stdSeen(key), path) {
		return nil
	}
	file := su.snap.StdExports[path]
	if file == "" {
		return nil
	}
	prefix, _, _ := splitKey(key)
	u := su.universe(prefix)
	view := u.view()
	p := view[path]
	if p == nil || !p.Complete() {
		var err error
		if p, err = readExport(su.fset, view, file, path); err != nil {
			su.fail(path, err)
			return nil
		}
		u.commit(view)
	}
	tn, _ := p.Scope().Lookup(name).(*types.TypeName)
	return tn
}

// privateInterface reports whether tn, from a private check, is an interface
// whose methods mention no named type of its own package: the only types it
// shares with the universe are then the universe's.
func privateInterface(tn *types.TypeName) bool {
	it, ok := tn.Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	own := tn.Pkg()
	seen := map[types.Type]bool{}
	var mentions func(t types.Type) bool
	tuple := func(t *types.Tuple) bool {
		for i := range t.Len() {
			if mentions(t.At(i).Type()) {
				return true
			}
		}
		return false
	}
	mentions = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			return t.Obj().Pkg() == own || mentions(t.Rhs())
		case *types.Named:
			if t.Obj().Pkg() == own {
				return true
			}
			for i := range t.TypeArgs().Len() {
				if mentions(t.TypeArgs().At(i)) {
					return true
				}
			}
		case *types.Pointer:
			return mentions(t.Elem())
		case *types.Slice:
			return mentions(t.Elem())
		case *types.Array:
			return mentions(t.Elem())
		case *types.Chan:
			return mentions(t.Elem())
		case *types.Map:
			return mentions(t.Key()) || mentions(t.Elem())
		case *types.Signature:
			return tuple(t.Params()) || tuple(t.Results())
		case *types.Struct:
			for i := range t.NumFields() {
				if mentions(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				if mentions(t.Method(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	for i := range it.NumMethods() {
		if mentions(it.Method(i).Type()) {
			return false
		}
	}
	return true
}
