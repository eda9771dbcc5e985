package resolve

import (
	"go/ast"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"strings"
	"sync"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Go without the type checker: the type of a value is the one its declaration
// names. The extractor writes `x.m()` on a `x *T` as the site `T.m`, and on
// `x := NewT()` as `NewT.m`; a variable, a field, a function (its first result)
// or a method found on the way stands for its declared type, read off its
// signature, so `NewT.m` and `cfg.Store.Get` reach a method.

// goValueMember finds name as a member of what l's definition holds.
func goValueMember(v *view, l lookup, name string, d *deps) lookup {
	return v.goMember(l, name, d, 0)
}

func (v *view) goMember(l lookup, name string, d *deps, depth int) lookup {
	switch {
	case depth > maxHops:
		return lookup{status: unknown, reason: "type chain longer than the pass follows"}
	case !l.isNode():
		return v.member(l, name, &goLanguage, d)
	case isTypeKind(l.node.Kind) || l.node.Kind == graph.KindType:
		if n, ok := v.classMember(l.node.QName, name, d); ok {
			return lookup{node: n, status: found, choice: l.choice}
		}
		return lookup{status: unknown, reason: "not found: " + name + " in " + l.node.QName + " or its bases"}
	}
	t := goDeclaredType(l.node)
	if t == "" {
		return lookup{status: unknown, reason: "the type of " + l.node.Name + " is not known"}
	}
	typ := v.goPath(l.node.File, t, d, depth+1)
	if !typ.isNode() {
		if typ.status == unknown || typ.status == found {
			typ.status, typ.reason = unknown, "the type of "+l.node.Name+" ("+t+") is not found"
		}
		return typ
	}
	return v.goMember(typ, name, d, depth+1)
}

// goPath resolves a type path as written in file (`T`, `pkg.T`, `NewT`, `T.f`).
func (v *view) goPath(file, path string, d *deps, depth int) lookup {
	segs := strings.Split(path, ".")
	l, k := v.head(file, segs, &goLanguage, d)
	if k == 0 {
		return lookup{status: unknown, reason: "not found: " + segs[0]}
	}
	for _, seg := range segs[k:] {
		if l.status != found {
			break
		}
		l = v.goMember(l, seg, d, depth+1)
	}
	return l
}

// sigTypes caches goDeclaredType by kind and signature: parsing is the cost,
// and many definitions share a signature shape. Bounded: cleared when full.
var sigTypes = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

const maxSigTypes = 1 << 16

// goDeclaredType is the type path n's declaration names: a variable's or
// field's type (or, without one, its initialiser's), a function's or method's
// first result, an alias's target. "" when the signature names none.
func goDeclaredType(n graph.Node) string {
	if n.Signature == "" {
		return ""
	}
	key := string(n.Kind) + " " + n.Name + " " + n.Signature
	sigTypes.Lock()
	t, ok := sigTypes.m[key]
	sigTypes.Unlock()
	if ok {
		return t
	}
	t = parseDeclaredType(n)
	sigTypes.Lock()
	if len(sigTypes.m) >= maxSigTypes {
		sigTypes.m = map[string]string{}
	}
	sigTypes.m[key] = t
	sigTypes.Unlock()
	return t
}

func parseDeclaredType(n graph.Node) string {
	sig := n.Signature
	switch n.Kind {
	case graph.KindFunction, graph.KindMethod:
		if strings.HasPrefix(sig, "func") {
			if fd, ok := parseDecl("package p\n" + sig + " {}").(*ast.FuncDecl); ok {
				return firstResult(fd.Type)
			}
			return ""
		}
		// An interface method: `Get(key string) (*Item, error)`.
		if ts := parseTypeSpec("package p\ntype _ interface{ " + sig + " }"); ts != nil {
			if it, ok := ts.Type.(*ast.InterfaceType); ok && len(it.Methods.List) == 1 {
				if ft, ok := it.Methods.List[0].Type.(*ast.FuncType); ok {
					return firstResult(ft)
				}
			}
		}
	case graph.KindField:
		if ts := parseTypeSpec("package p\ntype _ struct{ " + sig + " }"); ts != nil {
			if st, ok := ts.Type.(*ast.StructType); ok && len(st.Fields.List) == 1 {
				return typePath(st.Fields.List[0].Type)
			}
		}
	case graph.KindVariable, graph.KindConstant:
		kw := "var "
		if n.Kind == graph.KindConstant {
			kw = "const "
		}
		gd, ok := parseDecl("package p\n" + kw + sig).(*ast.GenDecl)
		if !ok || len(gd.Specs) != 1 {
			return ""
		}
		vs, ok := gd.Specs[0].(*ast.ValueSpec)
		if !ok {
			return ""
		}
		if vs.Type != nil {
			return typePath(vs.Type)
		}
		for i, id := range vs.Names {
			switch {
			case id.Name != n.Name:
			case len(vs.Values) == len(vs.Names):
				return valuePath(vs.Values[i], 0)
			case len(vs.Values) == 1 && i == 0:
				return valuePath(vs.Values[0], 0)
			}
		}
	case graph.KindTypeAlias:
		if ts := parseTypeSpec("package p\ntype " + sig); ts != nil {
			return typePath(ts.Type)
		}
	}
	return ""
}

func parseDecl(src string) ast.Decl {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	return f.Decls[0]
}

func parseTypeSpec(src string) *ast.TypeSpec {
	gd, ok := parseDecl(src).(*ast.GenDecl)
	if !ok || len(gd.Specs) != 1 {
		return nil
	}
	ts, _ := gd.Specs[0].(*ast.TypeSpec)
	return ts
}

func firstResult(ft *ast.FuncType) string {
	if ft == nil || ft.Results == nil || len(ft.Results.List) == 0 {
		return ""
	}
	return typePath(ft.Results.List[0].Type)
}

// typePath is the path of a named type (`T`, `*T`, `pkg.T`, `T[K]`), "" for
// any other type.
func typePath(e ast.Expr) string {
	for depth := 0; depth < 8; depth++ {
		switch t := e.(type) {
		case *ast.Ident:
			if gotypes.Universe.Lookup(t.Name) != nil {
				return ""
			}
			return t.Name
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				return x.Name + "." + t.Sel.Name
			}
			return ""
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ""
		}
	}
	return ""
}

// valuePath is the path of the type an initialiser has, written as the
// extractor writes a local's (internal/graph/treesitter/gotypes.go).
func valuePath(e ast.Expr, depth int) string {
	if depth > 16 {
		return ""
	}
	switch x := e.(type) {
	case *ast.Ident:
		if gotypes.Universe.Lookup(x.Name) != nil {
			return ""
		}
		return x.Name
	case *ast.SelectorExpr:
		if p := valuePath(x.X, depth+1); p != "" {
			return p + "." + x.Sel.Name
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && (gotypes.Universe.Lookup(id.Name) != nil) {
			if (id.Name == "new" || id.Name == "make") && len(x.Args) > 0 {
				return typePath(x.Args[0])
			}
			return ""
		}
		return valuePath(x.Fun, depth+1)
	case *ast.CompositeLit:
		return typePath(x.Type)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return valuePath(x.X, depth+1)
		}
	case *ast.StarExpr:
		return valuePath(x.X, depth+1)
	case *ast.ParenExpr:
		return valuePath(x.X, depth+1)
	case *ast.TypeAssertExpr:
		return typePath(x.Type)
	case *ast.IndexExpr: // a generic function instantiated: `F[T]`
		return ""
	}
	return ""
}
