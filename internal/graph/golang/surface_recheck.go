package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
)

// recheckAffected re-checks, in dependency order, the seeds and every variant that may
// see a re-checked variant differently: one of its files names a declaration of
// that variant that changed, was removed, or leads (through the types it
// mentions) to a changed declaration. Any other importer type-checks as before
// and keeps its facts and export data: what it uses is what it used. New
// declarations reach no importer (none uses them yet, unless it dot-imports the
// package), and the implements edges of new types are computed where they are
// declared. It returns the re-checked set and order.
func (su *surfaceUpdate) recheckAffected(ctx context.Context, order []string, seeds map[string]bool) (map[string]bool, []string, error) {
	changed := map[string]bool{} // package path + "." + name
	affected := map[string]map[string]bool{}
	added := map[string]bool{} // variants with new declarations
	recheck := map[string]bool{}
	var out []string
	files := 0
	for _, key := range order {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		need := seeds[key]
		for path, imp := range su.variants[key].Imports {
			if need {
				break
			}
			need = affected[imp.Variant] != nil && su.mentions(key, affected[imp.Variant]) ||
				added[imp.Variant] && su.dotImports(key, path)
		}
		if !need {
			continue
		}
		if files += len(su.variants[key].Files); files > maxSurfaceUpdateFiles {
			return nil, nil, fullLoad("the edit reaches more than %d files: a full load is cheaper", maxSurfaceUpdateFiles)
		}
		if !su.firstCheckStands(key, recheck) {
			if err := su.check(key); err != nil {
				return nil, nil, err
			}
		}
		recheck[key] = true
		out = append(out, key)
		c := su.fromSource[key]
		names := map[string]bool{}
		for name, h := range objects(c.pkg) {
			switch old, ok := su.snap.Variants[key].Objects[name]; {
			case !ok:
				added[key] = true
			case old != h:
				changed[c.v.PkgPath+"."+name], names[name] = true, true
			}
		}
		for name := range su.snap.Variants[key].Objects {
			if c.pkg.Scope().Lookup(name) == nil {
				changed[c.v.PkgPath+"."+name], names[name] = true, true
			}
		}
		su.markReachingChanged(key, changed, names)
		if len(names) > 0 {
			affected[key] = names
		}
	}
	return recheck, out, nil
}

// mentions reports whether a file of variant key has an identifier in names.
func (su *surfaceUpdate) mentions(key string, names map[string]bool) bool {
	for _, rel := range su.variants[key].Files {
		p, err := su.parse(rel)
		if err != nil {
			return true // the check reports it
		}
		if p.idents == nil {
			p.idents = map[string]bool{}
			ast.Inspect(p.file, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					p.idents[id.Name] = true
				}
				return true
			})
		}
		for name := range names {
			if p.idents[name] {
				return true
			}
		}
	}
	return false
}

// firstCheckStands reports whether Update's first pass already checked key, against
// export data only, and none of its imports has been re-checked since: that
// check stands.
func (su *surfaceUpdate) firstCheckStands(key string, recheck map[string]bool) bool {
	c := su.fromSource[key]
	if c == nil || su.importsChanged[key] {
		return false
	}
	for _, imp := range su.variants[key].Imports {
		if recheck[imp.Variant] {
			return false
		}
	}
	return true
}

// dotImports reports whether a file of variant key imports path with a dot.
func (su *surfaceUpdate) dotImports(key, path string) bool {
	for _, rel := range su.variants[key].Files {
		name := filepath.Join(su.root, filepath.FromSlash(rel))
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			return true // the re-check reports it
		}
		for _, spec := range f.Imports {
			if spec.Name != nil && spec.Name.Name == "." && importLiteral(spec) == path {
				return true
			}
		}
	}
	return false
}

// markReachingChanged adds to names the package-level declarations of re-checked variant key
// that lead, through the types they mention (fields, signatures, methods,
// embedded types, across the module's packages), to a changed declaration. The
// walk starts afresh from each declaration: a result memoised inside a cycle
// could miss a path.
func (su *surfaceUpdate) markReachingChanged(key string, changed, names map[string]bool) {
	prefix, _, _ := splitKey(key)
	var seen map[types.Type]bool
	var visit func(t types.Type) bool
	visitTuple := func(t *types.Tuple) bool {
		for i := range t.Len() {
			if visit(t.At(i).Type()) {
				return true
			}
		}
		return false
	}
	visit = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			if o := t.Obj(); o.Pkg() != nil && changed[o.Pkg().Path()+"."+o.Name()] {
				return true
			}
			return visit(t.Rhs())
		case *types.Named:
			o := t.Origin().Obj()
			if o.Pkg() == nil || !su.modulePaths[prefix+o.Pkg().Path()] {
				return false // outside the module: nothing there changed
			}
			if changed[o.Pkg().Path()+"."+o.Name()] {
				return true
			}
			for i := range t.TypeArgs().Len() {
				if visit(t.TypeArgs().At(i)) {
					return true
				}
			}
			n := t.Origin()
			for i := range n.NumMethods() {
				if visit(n.Method(i).Type()) {
					return true
				}
			}
			return visit(n.Underlying())
		case *types.Pointer:
			return visit(t.Elem())
		case *types.Slice:
			return visit(t.Elem())
		case *types.Array:
			return visit(t.Elem())
		case *types.Chan:
			return visit(t.Elem())
		case *types.Map:
			return visit(t.Key()) || visit(t.Elem())
		case *types.Signature:
			return visitTuple(t.Params()) || visitTuple(t.Results())
		case *types.Tuple:
			return visitTuple(t)
		case *types.Struct:
			for i := range t.NumFields() {
				if visit(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			for i := range t.NumEmbeddeds() {
				if visit(t.EmbeddedType(i)) {
					return true
				}
			}
			for i := range t.NumExplicitMethods() {
				if visit(t.ExplicitMethod(i).Type()) {
					return true
				}
			}
		case *types.TypeParam:
			return visit(t.Constraint())
		case *types.Union:
			for i := range t.Len() {
				if visit(t.Term(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	scope := su.fromSource[key].pkg.Scope()
	for _, name := range scope.Names() {
		if names[name] {
			continue
		}
		seen = map[types.Type]bool{}
		obj := scope.Lookup(name)
		reached := visit(obj.Type())
		if tn, ok := obj.(*types.TypeName); ok && !reached {
			if n, ok := tn.Type().(*types.Named); ok {
				for i := range n.NumMethods() {
					if reached = visit(n.Method(i).Type()); reached {
						break
					}
				}
			}
		}
		if reached {
			names[name] = true
		}
	}
}
