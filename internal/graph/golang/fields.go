package golang

import (
	"go/ast"
	"go/token"
	"go/types"
)

// fieldNames names struct fields by the type whose declaration lists them. The
// selection's receiver is not enough: in `type Flags pflag.Allowlist` the fields
// of Flags are pflag's, and a promoted field belongs to the embedded type.
type fieldNames struct {
	// declared maps the position of a field's name in the module (shared by
	// every package variant: go/packages parses a file once per load) to its
	// qualified name.
	declared map[token.Pos]string
	// external memoises fields declared outside the module, and structs the
	// named struct types of the packages searched for them.
	external map[*types.Var]string
	structs  map[*types.Package][]*types.TypeName
}

// collectFields records the fields of the struct types the units declare.
func collectFields(units []unit) *fieldNames {
	fn := &fieldNames{
		declared: map[token.Pos]string{},
		external: map[*types.Var]string{},
		structs:  map[*types.Package][]*types.TypeName{},
	}
	for _, u := range units {
		for _, d := range u.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || ts.Assign.IsValid() || ts.Name.Name == "_" {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				owner := u.pkg.PkgPath + "." + ts.Name.Name
				for _, f := range st.Fields.List {
					names := f.Names
					if len(names) == 0 {
						if id := EmbeddedIdent(f.Type); id != nil {
							names = []*ast.Ident{id}
						}
					}
					for _, id := range names {
						fn.declared[id.Pos()] = owner + "." + id.Name
					}
				}
			}
		}
	}
	return fn
}

// qname is the qualified name of field v, "" when no named package-level struct
// type declares it (an anonymous or local struct).
func (fn *fieldNames) qname(v *types.Var) string {
	v = v.Origin()
	if q, ok := fn.declared[v.Pos()]; ok {
		return q
	}
	if q, ok := fn.external[v]; ok {
		return q
	}
	q := fn.declaringStruct(v)
	fn.external[v] = q
	return q
}

// declaringStruct finds, in the field's package scope, the named struct type whose
// fields include v; when several share the struct (`type A B`), the nearest one
// declared before the field is the one whose declaration lists it.
func (fn *fieldNames) declaringStruct(v *types.Var) string {
	if v.Pkg() == nil {
		return ""
	}
	structs, ok := fn.structs[v.Pkg()]
	if !ok {
		scope := v.Pkg().Scope()
		for _, name := range scope.Names() {
			if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				if _, ok := tn.Type().Underlying().(*types.Struct); ok {
					structs = append(structs, tn)
				}
			}
		}
		fn.structs[v.Pkg()] = structs
	}
	var best *types.TypeName
	for _, tn := range structs {
		if !hasField(tn.Type().Underlying().(*types.Struct), v) {
			continue
		}
		if best == nil || tn.Pos() <= v.Pos() && (best.Pos() > v.Pos() || tn.Pos() > best.Pos()) {
			best = tn
		}
	}
	if best == nil {
		return ""
	}
	return v.Pkg().Path() + "." + best.Name() + "." + v.Name()
}

func hasField(st *types.Struct, v *types.Var) bool {
	for i := range st.NumFields() {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}
