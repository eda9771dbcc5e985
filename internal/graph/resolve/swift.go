package resolve

import (
	"path"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// swiftLanguage gives a file every other file of its module without an import:
// in Swift a module's files see each other's declarations. A module is a Swift
// package's target, the folder under Sources/ or Tests/ (`Sources/App/…`);
// files outside any such folder (an Xcode project) are taken as one module.
// `import App` brings the target Sources/App's names; a module the repository
// does not hold (Foundation, UIKit) is external.
var swiftLanguage = Language{
	Family:       "swift",
	Module:       swiftModule,
	Key:          func(m string) string { return m },
	Star:         true,
	Package:      swiftModuleFiles,
	ModuleOf:     swiftModuleOf,
	SelfNames:    []string{"self"},
	ImplicitSelf: true,
	// `let q = Square(); q.area()` in Square's own file is the site Square.area.
	OwnNames:  true,
	Reopening: swiftExtension,
}

func swiftModule(t *Tree, _ string, module string) Module {
	name, _, _ := strings.Cut(module, ".")
	if files := t.swiftModules()["Sources/"+name]; len(files) > 0 {
		return Module{Files: files, Dir: "Sources/" + name}
	}
	for d, files := range t.swiftModules() {
		if path.Base(d) == name && strings.HasSuffix(path.Dir(d), "Sources") {
			return Module{Files: files, Dir: d}
		}
	}
	return Module{External: true}
}

// swiftModuleFiles lists the other files of from's module.
func swiftModuleFiles(t *Tree, from string) []string {
	var out []string
	for _, f := range t.swiftModules()[swiftModuleOf(from)] {
		if f != from {
			out = append(out, f)
		}
	}
	return out
}

// swiftModuleOf is the module folder of a Swift file: the path up to the
// folder under the last Sources or Tests folder; "" for a file under none.
func swiftModuleOf(file string) string {
	segs := strings.Split(file, "/")
	for i := len(segs) - 3; i >= 0; i-- {
		if segs[i] == "Sources" || segs[i] == "Tests" {
			return strings.Join(segs[:i+2], "/")
		}
	}
	return ""
}

// swiftModules groups the tree's Swift files by module, once per pass.
func (t *Tree) swiftModules() map[string][]string {
	if t.swift != nil {
		return t.swift
	}
	t.swift = map[string][]string{}
	for p, lang := range t.lang {
		if lang == "swift" {
			m := swiftModuleOf(p)
			t.swift[m] = append(t.swift[m], p)
		}
	}
	for _, fs := range t.swift {
		sort.Strings(fs)
	}
	return t.swift
}

// swiftExtension: `extension T` in another file reopens T; the type is where
// it is declared.
func swiftExtension(_ *view, n graph.Node) bool { return strings.HasPrefix(n.Signature, "extension ") }

// inWideModule finds rel, a name within its file (`helper`, `Circle::extra`),
// among the definitions of file's module (Language.ModuleOf), preferring one
// that declares it to one that reopens it (a Swift extension). others leaves
// file's own definitions out (a name the file defines is the extractor's).
func (v *view) inWideModule(lang *Language, file, rel string, others bool) (graph.Node, bool) {
	key := lang.ModuleOf(file)
	idx, ok := v.wide[key]
	if !ok {
		idx = map[string][]graph.Node{}
		for _, f := range append([]string{file}, lang.Package(v.tree, file)...) {
			for q, n := range v.nodesOf(f) {
				r := strings.TrimPrefix(q, f+"::")
				idx[r] = append(idx[r], n)
			}
		}
		for _, ns := range idx {
			sort.Slice(ns, func(i, j int) bool { return ns[i].QName < ns[j].QName })
		}
		v.wide[key] = idx
	}
	var reopening *graph.Node
	for _, n := range idx[rel] {
		switch {
		case others && n.File == file:
		case lang.Reopening != nil && lang.Reopening(v, n):
			if reopening == nil {
				reopening = &n
			}
		default:
			return n, true
		}
	}
	if reopening != nil {
		return *reopening, true
	}
	return graph.Node{}, false
}
