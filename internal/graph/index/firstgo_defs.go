package index

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
)

// goDefs collects one file's definitions.
type goDefs struct {
	fset     *token.FileSet
	ff       *graph.FileFacts
	pkg, rel string
	seen     map[string]bool
	inits    int
	// defined are the types defined as another type of the package (`type A
	// B`): A is a struct or an interface when B is.
	defined [][2]string
}

func (d *goDefs) file(f *ast.File) {
	endLine := 0
	if tf := d.fset.File(f.FileStart); tf != nil {
		endLine = tf.LineCount()
	}
	d.node(graph.Node{QName: d.rel, Kind: graph.KindFile, Name: path.Base(d.rel), Line: 1, EndLine: endLine}, "")
	for _, spec := range f.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err == nil && p != "" {
			d.edge(graph.EdgeImports, d.rel, p, spec.Path.Pos(), graph.ResolvedImport)
		}
	}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			d.funcDecl(decl)
		case *ast.GenDecl:
			for _, s := range decl.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					d.typeSpec(decl, s)
				case *ast.ValueSpec:
					d.valueSpec(decl, s)
				}
			}
		}
	}
}

func (d *goDefs) funcDecl(fd *ast.FuncDecl) {
	name := fd.Name.Name
	if name == "_" {
		return
	}
	kind, q, owner, recv := graph.KindFunction, d.pkg+"."+name, d.pkg, ""
	switch {
	case fd.Recv == nil && name == "init":
		d.inits++
		q = d.pkg + ".init@" + path.Base(d.rel)
		if d.inits > 1 {
			q += "#" + strconv.Itoa(d.inits)
		}
	case fd.Recv != nil:
		rn := receiverName(fd.Recv)
		if rn == "" || rn == "_" {
			return
		}
		kind, owner = graph.KindMethod, d.pkg+"."+rn
		q = owner + "." + name
		recv = "(" + fieldString(fd.Recv.List[0]) + ") "
	}
	sig := "func " + recv + name + typeParams(fd.Type.TypeParams) + strings.TrimPrefix(types.ExprString(fd.Type), "func")
	line, col := d.pos(fd.Name.Pos())
	d.node(graph.Node{QName: q, Kind: kind, Name: name, Line: line, Col: col, EndLine: d.line(fd.End()),
		Signature: sig, Doc: docOf(fd.Doc), Exported: ast.IsExported(name) && name != "init"}, owner)
}

func (d *goDefs) typeSpec(gd *ast.GenDecl, s *ast.TypeSpec) {
	name := s.Name.Name
	if name == "_" {
		return
	}
	q := d.pkg + "." + name
	kind, sig := graph.KindType, "type "+name+typeParams(s.TypeParams)
	switch t := s.Type.(type) {
	case *ast.StructType:
		kind, sig = graph.KindStruct, sig+" struct"
	case *ast.InterfaceType:
		kind, sig = graph.KindInterface, sig+" interface"
	default:
		switch base := localTypeName(t); {
		case base == "any" || base == "error": // predeclared interfaces
			kind = graph.KindInterface
		case base != "" && !s.Assign.IsValid():
			d.defined = append(d.defined, [2]string{q, d.pkg + "." + base})
		}
		sig += " " + types.ExprString(t)
	}
	if s.Assign.IsValid() {
		kind, sig = graph.KindTypeAlias, "type "+name+typeParams(s.TypeParams)+" = "+types.ExprString(s.Type)
	}
	line, col := d.pos(s.Name.Pos())
	d.node(graph.Node{QName: q, Kind: kind, Name: name, Line: line, Col: col, EndLine: d.line(s.End()),
		Signature: sig, Doc: docOf(s.Doc, groupDoc(gd)), Exported: ast.IsExported(name)}, d.pkg)
	if s.Assign.IsValid() {
		return // members belong to the aliased type
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		for _, f := range t.Fields.List {
			d.field(q, f)
		}
	case *ast.InterfaceType:
		for _, f := range t.Methods.List {
			for _, id := range f.Names {
				d.member(q, id, graph.KindMethod, "func ("+name+") "+id.Name+strings.TrimPrefix(types.ExprString(f.Type), "func"), f)
			}
		}
	}
}

// field emits one struct field line's nodes (`A, B int` declares two; an
// embedded field is named after its type).
func (d *goDefs) field(owner string, f *ast.Field) {
	names := f.Names
	if len(names) == 0 {
		id := golang.EmbeddedIdent(f.Type)
		if id == nil {
			return
		}
		names = []*ast.Ident{id}
	}
	for _, id := range names {
		d.member(owner, id, graph.KindField, "field "+id.Name+" "+types.ExprString(f.Type), f)
	}
}

func (d *goDefs) member(owner string, id *ast.Ident, kind graph.NodeKind, sig string, f *ast.Field) {
	if id.Name == "_" {
		return
	}
	line, col := d.pos(id.Pos())
	d.node(graph.Node{QName: owner + "." + id.Name, Kind: kind, Name: id.Name, Line: line, Col: col, EndLine: d.line(f.End()),
		Signature: sig, Doc: docOf(f.Doc, f.Comment), Exported: ast.IsExported(id.Name)}, owner)
}

func (d *goDefs) valueSpec(gd *ast.GenDecl, s *ast.ValueSpec) {
	kind, word := graph.KindVariable, "var "
	if gd.Tok == token.CONST {
		kind, word = graph.KindConstant, "const "
	}
	for i, id := range s.Names {
		if id.Name == "_" {
			continue
		}
		sig := word + id.Name
		if s.Type != nil {
			sig += " " + types.ExprString(s.Type)
		}
		if gd.Tok == token.CONST && i < len(s.Values) {
			if v := types.ExprString(s.Values[i]); len(v) <= maxConstValue {
				sig += " = " + v
			}
		}
		line, col := d.pos(id.Pos())
		d.node(graph.Node{QName: d.pkg + "." + id.Name, Kind: kind, Name: id.Name, Line: line, Col: col, EndLine: d.line(s.End()),
			Signature: sig, Doc: docOf(s.Doc, groupDoc(gd)), Exported: ast.IsExported(id.Name)}, d.pkg)
	}
}

// maxConstValue bounds a constant's value in its signature, as the type
// checker's pass does (golang's maxConstValue).
const maxConstValue = 64

// node appends n, once per qualified name, and the contains edge from owner.
func (d *goDefs) node(n graph.Node, owner string) {
	if d.seen[n.QName] {
		return
	}
	d.seen[n.QName] = true
	n.File, n.Language = d.rel, golang.Language
	d.ff.Nodes = append(d.ff.Nodes, n)
	if owner != "" {
		d.ff.Edges = append(d.ff.Edges, graph.Edge{From: owner, To: n.QName, Kind: graph.EdgeContains,
			Confidence: 1, Resolution: graph.ResolvedName, File: d.rel, Line: n.Line})
	}
}

func (d *goDefs) edge(kind graph.EdgeKind, from, to string, at token.Pos, res graph.Resolution) {
	d.ff.Edges = append(d.ff.Edges, graph.Edge{From: from, To: to, Kind: kind, Confidence: 1, Resolution: res, File: d.rel, Line: d.line(at)})
}

// pos is the 1-based line and byte column of p, ignoring //line directives, as
// the type checker's pass locates names.
func (d *goDefs) pos(p token.Pos) (line, col int) {
	if !p.IsValid() {
		return 0, 0
	}
	ps := d.fset.PositionFor(p, false)
	return ps.Line, ps.Column
}

func (d *goDefs) line(p token.Pos) int {
	l, _ := d.pos(p)
	return l
}

// typeParams renders a declaration's type parameters: "[K comparable, V any]".
func typeParams(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	parts := make([]string, 0, len(fl.List))
	for _, f := range fl.List {
		parts = append(parts, fieldString(f))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// fieldString renders a parameter or receiver: "s *Stack[T]", "a, b int".
func fieldString(f *ast.Field) string {
	names := make([]string, 0, len(f.Names))
	for _, id := range f.Names {
		names = append(names, id.Name)
	}
	t := types.ExprString(f.Type)
	if len(names) == 0 {
		return t
	}
	return strings.Join(names, ", ") + " " + t
}

// localTypeName is the name of the type of this package (or predeclared) x
// denotes: B, B[int], (B) give B; "" for a type literal or another package's.
func localTypeName(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.ParenExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// receiverName is a method receiver's base type name.
func receiverName(recv *ast.FieldList) string {
	if recv == nil || len(recv.List) == 0 {
		return ""
	}
	if id := golang.EmbeddedIdent(recv.List[0].Type); id != nil {
		return id.Name
	}
	return ""
}

// groupDoc is the doc comment of an unparenthesised declaration, which go/ast
// attaches to the GenDecl rather than to its single spec.
func groupDoc(gd *ast.GenDecl) *ast.CommentGroup {
	if gd.Lparen.IsValid() {
		return nil
	}
	return gd.Doc
}

func docOf(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g != nil {
			if t := strings.TrimSpace(g.Text()); t != "" {
				return t
			}
		}
	}
	return ""
}

// firstError is the first line of a parse error list.
func firstError(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
