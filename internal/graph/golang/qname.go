package golang

import (
	"go/ast"
	"go/types"
	"strings"
)

// qname is the qualified name of a package-level object, a method or an interface
// method, normalised to the generic origin; "" when the object has no node (locals,
// type parameters, labels, package names, builtins; fields: see fieldNames).
func qname(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		sig, _ := o.Type().(*types.Signature)
		if sig == nil || sig.Recv() == nil {
			if o.Pkg() == nil {
				return ""
			}
			return o.Pkg().Path() + "." + o.Name()
		}
		owner := namedQName(sig.Recv().Type())
		if owner == "" {
			return ""
		}
		return owner + "." + o.Name()
	case *types.TypeName:
		if o.Pkg() == nil {
			if o.Name() == "error" {
				return "error"
			}
			return ""
		}
		if o.Parent() != o.Pkg().Scope() {
			return "" // local type or type parameter
		}
		return o.Pkg().Path() + "." + o.Name()
	case *types.Var:
		if o.IsField() || o.Pkg() == nil || o.Parent() != o.Pkg().Scope() {
			return ""
		}
		return o.Pkg().Path() + "." + o.Name()
	case *types.Const:
		if o.Pkg() == nil || o.Parent() != o.Pkg().Scope() {
			return ""
		}
		return o.Pkg().Path() + "." + o.Name()
	}
	return ""
}

// namedQName is the qualified name of the named type t denotes, through pointers,
// aliases and instantiations; "" for an unnamed or local type.
func namedQName(t types.Type) string {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	return qname(n.Origin().Obj())
}

// funcSignature renders a function or method as in source, qualified relative to
// its package: "func (s *Stack[T]) Push(v T)", "func Map[T, U any](…) []U",
// "func (Shape) Area() float64" for an interface method.
func funcSignature(fn *types.Func, q types.Qualifier) string {
	sig := fn.Type().(*types.Signature)
	var b strings.Builder
	b.WriteString("func ")
	if r := sig.Recv(); r != nil {
		b.WriteByte('(')
		if r.Name() != "" && r.Name() != "_" {
			b.WriteString(r.Name())
			b.WriteByte(' ')
		}
		b.WriteString(types.TypeString(r.Type(), q))
		b.WriteString(") ")
	}
	b.WriteString(fn.Name())
	b.WriteString(strings.TrimPrefix(types.TypeString(sig, q), "func"))
	return b.String()
}

// typeSignature renders a type declaration without the body of a struct or
// interface: "type Stack[T any] struct", "type Celsius float64", "type Sq = Square".
func typeSignature(tn *types.TypeName, q types.Qualifier) string {
	var b strings.Builder
	b.WriteString("type ")
	b.WriteString(tn.Name())
	if tn.IsAlias() {
		if a, ok := tn.Type().(*types.Alias); ok {
			writeTypeParams(&b, a.TypeParams(), q)
			b.WriteString(" = ")
			b.WriteString(types.TypeString(a.Rhs(), q))
			return b.String()
		}
		b.WriteString(" = ")
		b.WriteString(types.TypeString(tn.Type(), q))
		return b.String()
	}
	n, ok := tn.Type().(*types.Named)
	if !ok {
		return b.String()
	}
	writeTypeParams(&b, n.TypeParams(), q)
	b.WriteByte(' ')
	switch u := n.Underlying().(type) {
	case *types.Struct:
		b.WriteString("struct")
	case *types.Interface:
		b.WriteString("interface")
	default:
		b.WriteString(types.TypeString(u, q))
	}
	return b.String()
}

func writeTypeParams(b *strings.Builder, tps *types.TypeParamList, q types.Qualifier) {
	if tps.Len() == 0 {
		return
	}
	b.WriteByte('[')
	for i := range tps.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		tp := tps.At(i)
		b.WriteString(tp.Obj().Name())
		b.WriteByte(' ')
		b.WriteString(types.TypeString(tp.Constraint(), q))
	}
	b.WriteByte(']')
}

// maxConstValue bounds the constant value shown in a signature: a judgement call,
// long enough for numbers and short strings, short enough for search snippets.
const maxConstValue = 64

// valueSignature renders a package-level constant (with its value when short) or
// variable: "const Pi untyped float = 3.14", "var Default Shape".
func valueSignature(obj types.Object, q types.Qualifier) string {
	s := types.ObjectString(obj, q)
	if c, ok := obj.(*types.Const); ok && c.Val() != nil {
		if v := c.Val().String(); len(v) <= maxConstValue {
			s += " = " + v
		}
	}
	return s
}

// EmbeddedIdent is the identifier naming an embedded field's type: T, *T, pkg.T,
// T[int] all give T. The first pass (package index) names receivers and embedded
// fields with it too, so both passes agree.
func EmbeddedIdent(x ast.Expr) *ast.Ident {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.ParenExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.SelectorExpr:
			return e.Sel
		case *ast.Ident:
			return e
		default:
			return nil
		}
	}
}

// receiverName is the base type name of a method receiver, syntactically: used when
// the receiver did not type-check.
func receiverName(recv *ast.FieldList) string {
	if recv == nil || len(recv.List) == 0 {
		return ""
	}
	if id := EmbeddedIdent(recv.List[0].Type); id != nil {
		return id.Name
	}
	return ""
}

func docText(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g != nil {
			if t := strings.TrimSpace(g.Text()); t != "" {
				return t
			}
		}
	}
	return ""
}
