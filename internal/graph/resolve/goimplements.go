package resolve

import (
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// Go without the type checker: a type implements an interface when its method
// names, those promoted through embedding included, cover the interface's
// (embedded interfaces included). Names only: signatures are not compared.

// confMethodSet is the confidence of an implements edge matched by method
// names: a method of the same name may take other parameters. Judgement, between
// the import-chosen 0.8 and a unique-name guess.
const confMethodSet = 0.8

// maxMethodCandidates bounds the methods of one name read to find interfaces:
// a name that common (String, Close) names interfaces the type's other methods
// find too.
const maxMethodCandidates = 256

// goImplements lists the implements edges of the named non-interface types file
// defines. Candidate interfaces are those declaring one of the type's method
// names, and those of the type's package and of the candidates' packages (an
// interface made only of embedded ones declares no method itself).
func goImplements(v *view, file string, d *deps) []graph.Edge {
	var types []graph.Node
	for q, n := range v.nodesOf(file) {
		if (n.Kind == graph.KindStruct || n.Kind == graph.KindType) && q == file+"::"+n.Name && !goGeneric(n) {
			types = append(types, n)
		}
	}
	if len(types) == 0 {
		return nil
	}
	ms := &methodSets{v: v, d: d, sets: map[string]map[string]bool{}, byName: map[string][]string{}}
	var out []graph.Edge
	for _, t := range sortedNodes(types) {
		have := ms.of(t.QName, 0)
		if len(have) == 0 {
			continue
		}
		for _, iface := range ms.candidates(t.File, have) {
			want := ms.of(iface, 0)
			if len(want) > 0 && covers(have, want) {
				out = append(out, graph.Edge{From: t.QName, To: iface, Kind: graph.EdgeImplements,
					Confidence: confMethodSet, Resolution: graph.ResolvedName, File: file, Line: t.Line})
			}
		}
	}
	return out
}

// goGeneric reports whether a type declaration has type parameters (`T[K any]
// struct`): the ground truth of implementations leaves those out, and their
// method sets depend on the instantiation.
func goGeneric(n graph.Node) bool {
	rest, ok := strings.CutPrefix(n.Signature, n.Name)
	return ok && strings.HasPrefix(rest, "[")
}

func covers(have, want map[string]bool) bool {
	for m := range want {
		if !have[m] {
			return false
		}
	}
	return true
}

// methodSets computes and caches method-name sets during one file's pass.
type methodSets struct {
	v      *view
	d      *deps
	sets   map[string]map[string]bool
	byName map[string][]string // method name → interfaces declaring it
}

// of is the method names of the type or interface q: its own, declared in any
// file of its package, and those of its bases (embedded fields and interfaces).
func (m *methodSets) of(q string, depth int) map[string]bool {
	if s, ok := m.sets[q]; ok {
		return s
	}
	s := map[string]bool{}
	m.sets[q] = s // a cycle of embeddings sees the set as far as it got
	if depth > maxHops {
		return s
	}
	file := fileOf(q)
	scope := strings.TrimPrefix(q, file) + "::"
	for _, f := range append([]string{file}, goPackageFiles(m.v.tree, file)...) {
		m.d.file(f)
		for mq, n := range m.v.nodesOf(f) {
			if n.Kind == graph.KindMethod && mq == f+scope+n.Name {
				s[n.Name] = true
			}
		}
	}
	bl := m.v.basesOf(q)
	m.d.merge(bl.deps)
	for _, b := range bl.bases {
		for name := range m.of(b, depth+1) {
			s[name] = true
		}
	}
	return s
}

// candidates lists the interfaces a type with methods have, in file's package,
// may implement.
func (m *methodSets) candidates(file string, have map[string]bool) []string {
	seen := map[string]bool{}
	var out []string
	add := func(q string) {
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	pkgs := map[string]bool{parentDir(file): true}
	for _, name := range sortedKeys(have) {
		for _, iface := range m.declaring(name) {
			add(iface)
			pkgs[parentDir(fileOf(iface))] = true
		}
	}
	for _, dir := range sortedKeys(pkgs) {
		m.d.module(dirKey(dir))
		for _, f := range m.v.tree.Files(dir) {
			if !strings.HasSuffix(f, ".go") || m.v.tree.Typed(f) {
				continue
			}
			m.d.file(f)
			for _, n := range sortedNodes(mapValues(m.v.nodesOf(f))) {
				if n.Kind == graph.KindInterface && n.QName == f+"::"+n.Name && !goGeneric(n) {
					add(n.QName)
				}
			}
		}
	}
	return out
}

// declaring lists the interfaces of the repository's untyped Go files that
// declare a method named name.
func (m *methodSets) declaring(name string) []string {
	if out, ok := m.byName[name]; ok {
		return out
	}
	var out []string
	nodes, err := m.v.st.NodesByName(m.v.ctx, name)
	if err != nil {
		m.v.fail(err)
	}
	if len(nodes) > maxMethodCandidates {
		nodes = nodes[:maxMethodCandidates]
	}
	for _, n := range nodes {
		if n.Language != "go" || n.Kind != graph.KindMethod {
			continue
		}
		n = m.v.goLocal(n)
		parent := strings.TrimSuffix(n.QName, "::"+n.Name)
		if p, ok := m.v.node(parent); ok && p.Kind == graph.KindInterface && parent == p.File+"::"+p.Name && !goGeneric(p) {
			m.d.file(p.File)
			out = append(out, parent)
		}
	}
	m.byName[name] = out
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mapValues(m map[string]graph.Node) []graph.Node {
	out := make([]graph.Node, 0, len(m))
	for _, n := range m {
		out = append(out, n)
	}
	return out
}

// sortedNodes orders nodes by qualified name, so edges come out in one order.
func sortedNodes(ns []graph.Node) []graph.Node {
	sort.Slice(ns, func(i, j int) bool { return ns[i].QName < ns[j].QName })
	return ns
}
