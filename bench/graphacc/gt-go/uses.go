package main

import (
	"go/ast"
	"go/types"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// uses records the file's references and, inside functions and methods, its calls.
// A use belongs to its innermost enclosing definition: the function (closures
// included), the field or interface method whose type mentions it (the first name
// of `A, B T`), the type, the constant or variable whose declaration names exactly
// one; else to the file.
func (x *extractor) uses(u unit) {
	keyOf := func(id *ast.Ident) string { return x.keyAt(id.Pos()) }
	for _, d := range u.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if k := keyOf(d.Name); k != "" {
				x.walk(u, d, k, true)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					x.typeUses(u, s, keyOf(s.Name))
				case *ast.ValueSpec:
					from := u.rel
					if len(s.Names) == 1 && s.Names[0].Name != "_" {
						from = keyOf(s.Names[0])
					}
					if s.Type != nil {
						x.walk(u, s.Type, from, false)
					}
					for _, v := range s.Values {
						x.walk(u, v, from, false)
					}
				}
			}
		}
	}
}

func (x *extractor) typeUses(u unit, s *ast.TypeSpec, typeKey string) {
	if typeKey == "" {
		return
	}
	if s.TypeParams != nil {
		x.walk(u, s.TypeParams, typeKey, false)
	}
	var fields *ast.FieldList
	if !s.Assign.IsValid() {
		switch t := s.Type.(type) {
		case *ast.StructType:
			fields = t.Fields
		case *ast.InterfaceType:
			fields = t.Methods
		}
	}
	if fields == nil {
		x.walk(u, s.Type, typeKey, false)
		return
	}
	for _, f := range fields.List {
		// An embedded interface element names no definition: its uses are the type's.
		from := typeKey
		if names := fieldNames(f); len(names) > 0 {
			if k := x.keyAt(names[0].Pos()); k != "" {
				from = k
			}
		}
		x.walk(u, f.Type, from, false)
	}
}

// walk records the references under n as coming from from, and its calls too
// when n is a function.
func (x *extractor) walk(u unit, n ast.Node, from string, calls bool) {
	info := u.pkg.TypesInfo
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil {
				if to := x.objectKey(obj); to != "" {
					x.out.References = append(x.out.References, truth.Reference{From: from, To: to})
				}
			}
		case *ast.CallExpr:
			if calls {
				x.call(info, n, from)
			}
		}
		return true
	})
}

// objectKey is the definition key of the object a use denotes, generic
// instantiations taken back to their declaration; "" for objects that are not
// definitions of the module (locals, the standard library, other modules).
func (x *extractor) objectKey(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Func:
		obj = o.Origin()
	case *types.Var:
		obj = o.Origin()
	}
	return x.keyAt(obj.Pos())
}

// call classifies one call site (codegraph-eval §1.3). Conversions and builtins are
// not calls; an immediately invoked function literal is not either, its body being
// part of the enclosing function. A named function or method of the module is a
// call edge (an interface method when called through an interface); one of
// another module is out of scope; anything else — a function value, a call
// result, a method of a local or anonymous type — is unresolvable.
func (x *extractor) call(info *types.Info, c *ast.CallExpr, from string) {
	if tv, ok := info.Types[c.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return
	}
	fun := ast.Unparen(c.Fun)
	if _, ok := fun.(*ast.FuncLit); ok {
		return
	}
	base := fun
	switch f := fun.(type) {
	case *ast.IndexExpr:
		base = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		base = ast.Unparen(f.X)
	}
	var id *ast.Ident
	switch f := base.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	site, name := fun.Pos(), ""
	if id != nil {
		site, name = id.Pos(), id.Name
		if fn, ok := info.Uses[id].(*types.Func); ok {
			if to := x.objectKey(fn); to != "" {
				x.out.Calls = append(x.out.Calls, truth.Call{From: from, To: to, Dispatch: dispatch(fn)})
				return
			}
			if _, _, _, inside := x.position(fn.Pos()); !inside {
				return // a function of another module or of the standard library
			}
		}
	}
	x.out.Unresolvable = append(x.out.Unresolvable, truth.Unresolvable{From: from, Site: x.siteKey(site), Name: name})
}

// dispatch says whether a call of fn goes through an interface.
func dispatch(fn *types.Func) string {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return truth.DispatchInterface
	}
	return truth.DispatchStatic
}
