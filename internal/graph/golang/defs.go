package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strconv"

	"golang.org/x/tools/go/packages"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// typeDecl is a named type declared in the module: a candidate for implements.
type typeDecl struct {
	qname string
	obj   *types.TypeName
	view  *packages.Package // the variant that declared it
	fx    *fileExtraction   // where its implements edges go
	at    token.Pos
}

// qualifier writes other packages by name, as source does ("shapes.Shape"), and
// the file's own package not at all.
func (fx *fileExtraction) qualifier() types.Qualifier {
	self := fx.u.pkg.Types
	return func(p *types.Package) string {
		if p == self {
			return ""
		}
		return p.Name()
	}
}

func (fx *fileExtraction) packageNode(doc string) {
	f := fx.u.file
	line, col := fx.pos(f.Name.Pos())
	fx.node(graph.Node{
		QName: fx.pkgPath, Kind: graph.KindPackage, Name: f.Name.Name,
		Line: line, Col: col, Signature: "package " + f.Name.Name, Doc: doc,
	})
}

// definitions emits the file node, its imports, and every package-level definition
// with its members and the contains and extends edges; it returns the named types
// declared, for implements.
func (fx *fileExtraction) definitions() []*typeDecl {
	f := fx.u.file
	fx.names = map[ast.Node]string{}
	endLine := 0
	if tf := fx.fset.File(f.FileStart); tf != nil {
		endLine = tf.LineCount()
	}
	fx.node(graph.Node{QName: fx.u.rel, Kind: graph.KindFile, Name: path.Base(fx.u.rel), Line: 1, EndLine: endLine})
	for _, spec := range f.Imports {
		fx.edge(graph.EdgeImports, fx.u.rel, fx.importPath(spec), spec.Path.Pos())
	}
	var decls []*typeDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fx.funcDecl(d)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if td := fx.typeSpec(d, s); td != nil {
						decls = append(decls, td)
					}
				case *ast.ValueSpec:
					fx.valueSpec(d, s)
				}
			}
		}
	}
	return decls
}

// importPath is the path of the package an import spec resolved to (vendoring can
// make it differ from the literal), or the literal when it did not resolve.
func (fx *fileExtraction) importPath(spec *ast.ImportSpec) string {
	if pn := fx.info.PkgNameOf(spec); pn != nil {
		return pn.Imported().Path()
	}
	p, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return ""
	}
	return p
}

// groupDoc is the doc comment of an unparenthesised declaration, which go/ast
// attaches to the GenDecl rather than to its single spec.
func groupDoc(d *ast.GenDecl) *ast.CommentGroup {
	if d.Lparen.IsValid() {
		return nil
	}
	return d.Doc
}

func (fx *fileExtraction) funcDecl(d *ast.FuncDecl) {
	name := d.Name.Name
	if name == "_" {
		return
	}
	obj, _ := fx.info.Defs[d.Name].(*types.Func)
	kind, q, owner := graph.KindFunction, "", fx.pkgPath
	switch {
	case d.Recv == nil && name == "init":
		q = fx.initName()
	case d.Recv == nil:
		q = fx.pkgPath + "." + name
	default:
		kind = graph.KindMethod
		if obj != nil {
			q = qname(obj)
		}
		if q == "" { // the receiver did not type-check: name it from the syntax
			rn := receiverName(d.Recv)
			if rn == "" || rn == "_" {
				return
			}
			q = fx.pkgPath + "." + rn + "." + name
		}
		owner = q[:len(q)-len(name)-1]
	}
	fx.names[d] = q
	sig := ""
	if obj != nil {
		sig = funcSignature(obj, fx.qualifier())
	}
	line, col := fx.pos(d.Name.Pos())
	if fx.node(graph.Node{
		QName: q, Kind: kind, Name: name, Line: line, Col: col, EndLine: fx.line(d.End()),
		Signature: sig, Doc: docText(d.Doc), Exported: ast.IsExported(name) && name != "init",
	}) {
		fx.edge(graph.EdgeContains, owner, q, d.Name.Pos())
	}
}

func (fx *fileExtraction) typeSpec(d *ast.GenDecl, s *ast.TypeSpec) *typeDecl {
	name := s.Name.Name
	if name == "_" {
		return nil
	}
	q := fx.pkgPath + "." + name
	fx.names[s] = q
	tn, _ := fx.info.Defs[s.Name].(*types.TypeName)
	alias := s.Assign.IsValid()
	kind, sig := graph.KindType, ""
	switch {
	case alias:
		kind = graph.KindTypeAlias
	case isStruct(s.Type, tn):
		kind = graph.KindStruct
	case isInterface(s.Type, tn):
		kind = graph.KindInterface
	}
	if tn != nil {
		sig = typeSignature(tn, fx.qualifier())
	}
	line, col := fx.pos(s.Name.Pos())
	if fx.node(graph.Node{
		QName: q, Kind: kind, Name: name, Line: line, Col: col, EndLine: fx.line(s.End()),
		Signature: sig, Doc: docText(s.Doc, groupDoc(d)), Exported: ast.IsExported(name),
	}) {
		fx.edge(graph.EdgeContains, fx.pkgPath, q, s.Name.Pos())
	}
	if alias {
		// Members and relations belong to the aliased type; the extends edge
		// names it, so that questions about the alias are answered for it.
		if tn != nil {
			fx.edge(graph.EdgeExtends, q, namedQName(tn.Type()), s.Name.Pos())
		}
		return nil
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		for _, f := range t.Fields.List {
			fx.field(q, f)
		}
	case *ast.InterfaceType:
		for _, f := range t.Methods.List {
			fx.interfaceElem(q, f)
		}
	}
	if tn == nil {
		return nil
	}
	if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
		// Implements on an uninstantiated generic type is not meaningful
		// (codegraph-eval §1.5): generic types and interfaces are left out.
		return nil
	}
	return &typeDecl{qname: q, obj: tn, view: fx.u.pkg, fx: fx, at: s.Name.Pos()}
}

func isStruct(x ast.Expr, tn *types.TypeName) bool {
	if tn != nil {
		_, ok := tn.Type().Underlying().(*types.Struct)
		return ok
	}
	_, ok := x.(*ast.StructType)
	return ok
}

func isInterface(x ast.Expr, tn *types.TypeName) bool {
	if tn != nil {
		_, ok := tn.Type().Underlying().(*types.Interface)
		return ok
	}
	_, ok := x.(*ast.InterfaceType)
	return ok
}

// field emits the nodes of one struct field line (`A, B int` declares two) and,
// for an embedded field, the extends edge to the embedded type.
func (fx *fileExtraction) field(owner string, f *ast.Field) {
	names, embedded := f.Names, false
	if len(names) == 0 {
		id := EmbeddedIdent(f.Type)
		if id == nil {
			return
		}
		names, embedded = []*ast.Ident{id}, true
	}
	fx.names[f] = owner
	for _, id := range names {
		if id.Name == "_" {
			continue
		}
		q := owner + "." + id.Name
		if fx.names[f] == owner {
			fx.names[f] = q // uses in the field's type are the first field's
		}
		sig := ""
		v, _ := fx.info.Defs[id].(*types.Var)
		if v != nil {
			sig = types.ObjectString(v, fx.qualifier())
		}
		line, col := fx.pos(id.Pos())
		if fx.node(graph.Node{
			QName: q, Kind: graph.KindField, Name: id.Name, Line: line, Col: col, EndLine: fx.line(f.End()),
			Signature: sig, Doc: docText(f.Doc, f.Comment), Exported: ast.IsExported(id.Name),
		}) {
			fx.edge(graph.EdgeContains, owner, q, id.Pos())
		}
		if embedded {
			var t types.Type
			if v != nil {
				t = v.Type()
			} else {
				t = fx.info.TypeOf(f.Type)
			}
			if t != nil {
				fx.edge(graph.EdgeExtends, owner, namedQName(t), f.Type.Pos())
			}
		}
	}
}

// interfaceElem emits an interface's explicit method, or the extends edge of an
// embedded interface (type-set elements such as ~int | string are not edges).
func (fx *fileExtraction) interfaceElem(owner string, f *ast.Field) {
	if len(f.Names) == 0 {
		fx.names[f] = owner
		t := fx.info.TypeOf(f.Type)
		if t == nil {
			return
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			fx.edge(graph.EdgeExtends, owner, namedQName(t), f.Type.Pos())
		}
		return
	}
	for _, id := range f.Names {
		if id.Name == "_" {
			continue
		}
		q := owner + "." + id.Name
		fx.names[f] = q
		sig := ""
		if fn, ok := fx.info.Defs[id].(*types.Func); ok {
			sig = funcSignature(fn, fx.qualifier())
		}
		line, col := fx.pos(id.Pos())
		if fx.node(graph.Node{
			QName: q, Kind: graph.KindMethod, Name: id.Name, Line: line, Col: col, EndLine: fx.line(f.End()),
			Signature: sig, Doc: docText(f.Doc, f.Comment), Exported: ast.IsExported(id.Name),
		}) {
			fx.edge(graph.EdgeContains, owner, q, id.Pos())
		}
	}
}

func (fx *fileExtraction) valueSpec(d *ast.GenDecl, s *ast.ValueSpec) {
	kind := graph.KindVariable
	if d.Tok == token.CONST {
		kind = graph.KindConstant
	}
	for _, id := range s.Names {
		if id.Name == "_" {
			continue
		}
		q := fx.pkgPath + "." + id.Name
		sig := ""
		if obj := fx.info.Defs[id]; obj != nil {
			sig = valueSignature(obj, fx.qualifier())
		}
		line, col := fx.pos(id.Pos())
		if fx.node(graph.Node{
			QName: q, Kind: kind, Name: id.Name, Line: line, Col: col, EndLine: fx.line(s.End()),
			Signature: sig, Doc: docText(s.Doc, groupDoc(d)), Exported: ast.IsExported(id.Name),
		}) {
			fx.edge(graph.EdgeContains, fx.pkgPath, q, id.Pos())
		}
	}
}
