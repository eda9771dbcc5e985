package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Reasons recorded on graph.Unresolved call sites.
const (
	reasonFuncValue  = "dynamic call through a function value"
	reasonNoNode     = "callee is a method of an unnamed or local type"
	reasonIllTyped   = "callee did not type-check"
	maxUnresolvedLen = 120 // characters of callee expression kept; a judgement call
)

// useWalker attributes the calls and references of one file to their enclosing
// definitions.
type useWalker struct {
	fx *fileExtraction
	// callees are identifiers already recorded as the callee of a call edge, so
	// they are not also references.
	callees map[*ast.Ident]bool
}

// uses walks every declaration of the file. Calls and references inside a
// function, closures included, belong to the function; inside a type declaration
// to the field or interface method (else the type); inside a package-level value
// declaration, to the variable or constant the value initialises (valueSpec).
func (fx *fileExtraction) uses() {
	w := &useWalker{fx: fx, callees: map[*ast.Ident]bool{}}
	for _, d := range fx.u.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if q := fx.names[d]; q != "" {
				w.walk(d, q, q)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					w.typeSpec(s)
				case *ast.ValueSpec:
					w.valueSpec(s)
				}
			}
		}
	}
}

// valueSpec attributes the uses of a package-level value declaration. In
// `var a, b = g(), h()` each value belongs to the name it initialises; in
// `var a, b = f()` the one value initialises both and belongs to the first
// named one (one site, one caller); the declared type belongs to the first named
// one too. What only blank names initialise (`var _ I = (*T)(nil)`) belongs
// to the package: no definition runs it.
func (w *useWalker) valueSpec(s *ast.ValueSpec) {
	owner := func(i int) string {
		if i < len(s.Names) && s.Names[i].Name != "_" {
			return w.fx.pkgPath + "." + s.Names[i].Name
		}
		return ""
	}
	first := w.fx.pkgPath
	for i := range s.Names {
		if q := owner(i); q != "" {
			first = q
			break
		}
	}
	if s.Type != nil {
		w.walk(s.Type, first, first)
	}
	for i, v := range s.Values {
		from := first
		if len(s.Values) == len(s.Names) {
			if from = owner(i); from == "" {
				from = w.fx.pkgPath
			}
		}
		w.walk(v, from, from)
	}
}

func (w *useWalker) typeSpec(s *ast.TypeSpec) {
	q := w.fx.names[s]
	if q == "" {
		return
	}
	if s.TypeParams != nil {
		w.walk(s.TypeParams, q, q)
	}
	var fields *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	}
	if fields == nil || s.Assign.IsValid() {
		w.walk(s.Type, q, q)
		return
	}
	for _, f := range fields.List {
		from := w.fx.names[f]
		if from == "" {
			from = q
		}
		w.walk(f.Type, from, from)
	}
}

func (w *useWalker) walk(n ast.Node, refFrom, callFrom string) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			w.call(n, callFrom)
		case *ast.Ident:
			w.use(n, refFrom)
		}
		return true
	})
}

// call records a call edge to a statically known function or method (interface
// methods included: dispatch is resolved elsewhere), or an unresolved site.
// Conversions and builtins are not calls; an immediately invoked function literal
// is not either, its body being walked as part of the enclosing function.
func (w *useWalker) call(c *ast.CallExpr, from string) {
	info := w.fx.info
	tv, typed := info.Types[c.Fun]
	if typed && (tv.IsType() || tv.IsBuiltin()) {
		return
	}
	fun := ast.Unparen(c.Fun)
	if _, lit := fun.(*ast.FuncLit); lit {
		return
	}
	at := fun.Pos()
	if id := calleeIdent(fun); id != nil {
		at = id.Pos()
		if fn, ok := info.Uses[id].(*types.Func); ok {
			w.callees[id] = true
			if to := qname(fn); to != "" {
				w.fx.edge(graph.EdgeCalls, from, to, at)
				return
			}
			w.unresolved(from, c.Fun, at, reasonNoNode)
			return
		}
	}
	reason := reasonFuncValue
	if !typed || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		reason = reasonIllTyped
	}
	w.unresolved(from, c.Fun, at, reason)
}

// calleeIdent is the identifier naming a call's callee: f, x.f, pkg.F, F[int],
// x.M[T]. Anything else (a call result, an index into a slice of functions, a type
// assertion) has none.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

func (w *useWalker) unresolved(from string, fun ast.Expr, at token.Pos, reason string) {
	name := types.ExprString(fun)
	if len(name) > maxUnresolvedLen {
		name = strings.ToValidUTF8(name[:maxUnresolvedLen], "")
	}
	line, col := w.fx.pos(at)
	w.fx.ff.Unresolved = append(w.fx.ff.Unresolved, graph.Unresolved{
		From: from, Name: name, Kind: graph.EdgeCalls, File: w.fx.u.rel, Line: line, Col: col, Reason: reason,
	})
}

// use records a reference to the package-level object, field or method an
// identifier denotes, unless it is the callee of a recorded call. Locals, type
// parameters, package names, labels and predeclared identifiers have no node.
func (w *useWalker) use(id *ast.Ident, from string) {
	obj := w.fx.info.Uses[id]
	if obj == nil || obj.Pkg() == nil || w.callees[id] {
		return
	}
	to := ""
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		to = w.fx.fields.qname(v)
	} else {
		to = qname(obj)
	}
	if to != "" {
		w.fx.edge(graph.EdgeReferences, from, to, id.Pos())
	}
}
