package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// definitions records the file's package-level definitions: functions, methods,
// types with their direct struct fields and interface methods, constants and
// variables. Blank names define nothing.
func (x *extractor) definitions(u unit) {
	generated := ast.IsGenerated(u.file)
	pkg := u.pkg.PkgPath
	def := func(id *ast.Ident, qualified, kind string, abstract bool) {
		if id == nil || id.Name == "_" {
			return
		}
		rel, line, off, ok := x.position(id.Pos())
		if !ok {
			return
		}
		key := truth.Key(rel, line)
		x.defs[posKey{rel, off}] = key
		x.out.Definitions = append(x.out.Definitions, truth.Definition{Key: key, Name: id.Name,
			Qualified: qualified, Kind: kind, Generated: generated, Abstract: abstract})
	}
	for _, d := range u.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				def(d.Name, pkg+"."+d.Name.Name, truth.KindFunction, false)
			} else {
				def(d.Name, pkg+"."+receiver(d.Recv)+"."+d.Name.Name, truth.KindMethod, false)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					x.typeSpec(u, s, def)
				case *ast.ValueSpec:
					kind := truth.KindVariable
					if d.Tok == token.CONST {
						kind = truth.KindConstant
					}
					for _, id := range s.Names {
						def(id, pkg+"."+id.Name, kind, false)
					}
				}
			}
		}
	}
}

// typeSpec records a named type and, when it is a struct or interface written in
// place, its fields or explicit methods (fields of nested anonymous structs are
// not definitions).
func (x *extractor) typeSpec(u unit, s *ast.TypeSpec, def func(*ast.Ident, string, string, bool)) {
	q := u.pkg.PkgPath + "." + s.Name.Name
	kind := truth.KindType
	tn, _ := u.pkg.TypesInfo.Defs[s.Name].(*types.TypeName)
	switch {
	case s.Assign.IsValid():
		kind = truth.KindTypeAlias
	case tn != nil && types.IsInterface(tn.Type()):
		kind = truth.KindInterface
	case tn != nil:
		if _, ok := tn.Type().Underlying().(*types.Struct); ok {
			kind = truth.KindStruct
		}
	}
	def(s.Name, q, kind, false)
	if s.Assign.IsValid() {
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		for _, f := range t.Fields.List {
			for _, id := range fieldNames(f) {
				def(id, q+"."+id.Name, truth.KindField, false)
			}
		}
	case *ast.InterfaceType:
		for _, f := range t.Methods.List {
			for _, id := range f.Names {
				def(id, q+"."+id.Name, truth.KindMethod, true)
			}
		}
	}
}

// fieldNames are the names a struct field line declares: its names, or for an
// embedded field the type name it is known by.
func fieldNames(f *ast.Field) []*ast.Ident {
	if len(f.Names) > 0 {
		return f.Names
	}
	if id := embeddedName(f.Type); id != nil {
		return []*ast.Ident{id}
	}
	return nil
}

// embeddedName is the identifier naming an embedded field: T in T, *T, pkg.T,
// T[int]; go/types puts the field at that identifier.
func embeddedName(x ast.Expr) *ast.Ident {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.Ident:
			return t
		default:
			return nil
		}
	}
}

// receiver writes a method's receiver type as a qualified name does: T or (*T),
// without type parameters.
func receiver(recv *ast.FieldList) string {
	if recv == nil || len(recv.List) == 0 {
		return "?"
	}
	t := recv.List[0].Type
	star := false
	if p, ok := ast.Unparen(t).(*ast.StarExpr); ok {
		star, t = true, p.X
	}
	name := "?"
	if id := embeddedName(t); id != nil {
		name = id.Name
	}
	if star {
		return "(*" + name + ")"
	}
	return name
}
