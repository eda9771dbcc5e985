package resolve

import "strings"

var pythonLanguage = Language{
	Family:    "python",
	Module:    pythonModule,
	Bind:      pythonBind,
	Key:       pythonKey,
	Submodule: pythonSubmodule,
	OwnNames:  true,
	SelfNames: []string{"self", "cls"},
}

// pythonModule resolves `.util`, `..pkg.mod` against the importing file's
// package, and `pkg.mod` against the repository's package roots (see
// pythonRoots). An absolute module found under no root is external (the standard
// library, an installed package); a relative one is missing.
func pythonModule(t *Tree, from, module string) Module {
	if strings.HasPrefix(module, ".") {
		rest := strings.TrimLeft(module, ".")
		dir := parentDir(from)
		for range len(module) - len(rest) - 1 {
			if dir == "" {
				return Module{} // climbs above the repository
			}
			dir = parentDir(dir)
		}
		return pythonAt(t, join(dir, strings.ReplaceAll(rest, ".", "/")), true)
	}
	rel := strings.ReplaceAll(module, ".", "/")
	var hits []Module
	seen := map[string]bool{}
	for i, root := range pythonRoots(t, from) {
		// A bare directory is a namespace package only under the main roots: under
		// any top-level folder it would shadow the standard library (`json/`).
		m := pythonAt(t, join(root, rel), i < 2)
		key := m.Dir
		if len(m.Files) > 0 {
			key = m.Files[0]
		}
		if m.Found() && !seen[key] {
			seen[key] = true
			hits = append(hits, m)
		}
	}
	if len(hits) == 0 {
		return Module{External: true}
	}
	m := hits[0]
	m.Alternatives = len(hits) - 1
	return m
}

// pythonRoots are the folders an absolute import is looked up from, in order: the
// repository root and src/ (the two usual layouts), the importing file's folder
// (a script's sys.path[0]), then every other top-level folder (a package kept
// under lib/ or python/).
func pythonRoots(t *Tree, from string) []string {
	roots := []string{"", "src"}
	seen := map[string]bool{"": true, "src": true}
	for _, r := range append([]string{parentDir(from)}, t.TopDirs()...) {
		if !seen[r] {
			seen[r] = true
			roots = append(roots, r)
		}
	}
	return roots
}

// pythonAt finds the module whose path, without extension, is p: a package
// (p/__init__.py) before a module file (p.py, then the stub p.pyi), as the import
// system does; a folder without __init__.py is a namespace package when
// namespaces is set.
func pythonAt(t *Tree, p string, namespaces bool) Module {
	if strings.HasPrefix(p, "../") {
		return Module{}
	}
	for _, init := range []string{"__init__.py", "__init__.pyi"} {
		if f := join(p, init); t.Has(f) {
			return Module{Files: []string{f}, Dir: p}
		}
	}
	if p != "" {
		for _, ext := range []string{".py", ".pyi"} {
			if t.Has(p + ext) {
				return Module{Files: []string{p + ext}}
			}
		}
	}
	if namespaces && p != "" && t.IsDir(p) {
		return Module{Dir: p}
	}
	return Module{}
}

// pythonSubmodule finds `from pkg import mod` when mod is a module of pkg.
func pythonSubmodule(t *Tree, pkg Module, name string) Module {
	if pkg.Dir == "" || name == "" || strings.Contains(name, ".") {
		return Module{}
	}
	return pythonAt(t, join(pkg.Dir, name), true)
}

// pythonBind: `import a.b.c` binds a.b.c (for `a.b.c.f()`) and a (for `a.x`).
func pythonBind(module string) []Bound {
	if strings.HasPrefix(module, ".") {
		return nil
	}
	out := []Bound{{module, module}}
	if top, _, dotted := strings.Cut(module, "."); dotted {
		out = append(out, Bound{top, top})
	}
	return out
}

// pythonKey is the module's last name; "" for `.` and `..` (a package folder,
// which exists as long as the importing file does).
func pythonKey(module string) string {
	rest := strings.TrimLeft(module, ".")
	return rest[strings.LastIndex(rest, ".")+1:]
}
