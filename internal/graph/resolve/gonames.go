package resolve

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Go the type checker did not load is stored under the type checker's names
// (`<import path>.<Type>.<Method>`, golang.FallbackNames), so that names do not
// change with the path that extracted them. The pass reasons in file-scoped
// names (`<path>::<Type>::<Method>`), as for every tree-sitter language: the
// view renames Go definitions as it reads them and renames its edges back as
// the pass writes them.

// goNames maps the two forms of the names of the Go definitions read so far.
type goNames struct {
	local  map[string]string // stored name → file-scoped
	stored map[string]string // file-scoped → stored
}

// goLocal is n under its file-scoped name, when n is a definition of a Go file
// the pass resolves and is stored under a type-checked name.
func (v *view) goLocal(n graph.Node) graph.Node {
	if n.Language != "go" || n.Kind == graph.KindFile || n.Kind == graph.KindPackage ||
		strings.Contains(n.QName, "::") || v.tree.Typed(n.File) {
		return n
	}
	local := n.File + "::"
	switch i := strings.LastIndex(n.QName, ".init@"); {
	case n.Name == "init" && i >= 0:
		local += n.QName[i+1:]
	case n.Kind == graph.KindMethod || n.Kind == graph.KindField:
		owner := strings.TrimSuffix(n.QName, "."+n.Name)
		local += owner[strings.LastIndex(owner, ".")+1:] + "::" + n.Name
	default:
		local += n.Name
	}
	if v.goNames.local == nil {
		v.goNames = goNames{local: map[string]string{}, stored: map[string]string{}}
	}
	v.goNames.local[n.QName], v.goNames.stored[local] = local, n.QName
	n.QName = local
	return n
}

// goLocalName is the file-scoped form of a stored name of a definition the
// view has read, the name itself otherwise.
func (v *view) goLocalName(q string) string {
	if l, ok := v.goNames.local[q]; ok {
		return l
	}
	return q
}

// goStoredName is the stored form of a file-scoped name.
func (v *view) goStoredName(q string) string {
	if s, ok := v.goNames.stored[q]; ok {
		return s
	}
	return q
}

// goLocalSites renames the definitions sites and extends edges of file
// belong to, once its definitions are read.
func (v *view) goLocalSites(file string, sites []graph.Unresolved) []graph.Unresolved {
	if v.tree.Language(file) != "go" || v.tree.Typed(file) {
		return sites
	}
	v.nodesOf(file)
	out := make([]graph.Unresolved, len(sites))
	for i, s := range sites {
		s.From = v.goLocalName(s.From)
		out[i] = s
	}
	return out
}

func (v *view) goLocalEdges(file string, edges []graph.Edge) []graph.Edge {
	if v.tree.Language(file) != "go" || v.tree.Typed(file) {
		return edges
	}
	v.nodesOf(file)
	out := make([]graph.Edge, len(edges))
	for i, e := range edges {
		e.From, e.To = v.goLocalName(e.From), v.goLocalName(e.To)
		out[i] = e
	}
	return out
}

// goStored renames what the pass found for a file back to stored names.
func (v *view) goStored(fr *store.FileResolution) {
	for i := range fr.Edges {
		fr.Edges[i].From, fr.Edges[i].To = v.goStoredName(fr.Edges[i].From), v.goStoredName(fr.Edges[i].To)
	}
	for i := range fr.Unresolved {
		fr.Unresolved[i].From = v.goStoredName(fr.Unresolved[i].From)
	}
}
