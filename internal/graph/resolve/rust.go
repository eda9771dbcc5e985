package resolve

import (
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// rustLanguage resolves `use` paths through the crate's module files:
// `crate::a::b` from the crate root (the folder of the nearest lib.rs or
// main.rs above the file), `self::` from the file's own module, `super::` from
// its parent, and a path starting with a top-level module of the crate as
// `crate::`; each segment is a file `a.rs` or `a/mod.rs`, and the rest of the
// path, when no file holds it, an inline `mod` of the last file (the scope its
// items are named under). Any other path (std, a dependency) is external.
// `crate::f()` and `super::f()` need no use. A receiver's type is not read:
// `c.send()` is matched by name only.
var rustLanguage = Language{
	Family:       "rust",
	Module:       rustModule,
	Key:          rustKey,
	SelfNames:    []string{"self"},
	Submodule:    rustSubmodule,
	Reopening:    rustModDeclaration,
	StarsOwnOnly: true,
	ImplicitNames: func(string) []Bound {
		return []Bound{{Local: "crate", Module: "crate"}, {Local: "super", Module: "super"}}
	},
}

// rustKey is a path's last segment.
func rustKey(p string) string {
	if i := strings.LastIndex(p, "::"); i >= 0 {
		return p[i+2:]
	}
	return p
}

// rustModule walks a path from the module it starts at.
func rustModule(t *Tree, from, spec string) Module {
	segs := strings.Split(spec, "::")
	root := rustCrateRoot(t, from)
	var file, dir string // the current module's file, and the folder of its submodules
	switch segs[0] {
	case "crate":
		file, dir = rustRootFile(t, root), root
		segs = segs[1:]
	case "self":
		file, dir = from, rustModuleDir(from)
		segs = segs[1:]
	case "super":
		file, dir = from, rustModuleDir(from)
		for len(segs) > 0 && segs[0] == "super" {
			if dir == root {
				return Module{} // above the crate root
			}
			dir = parentDir(dir)
			file = rustFileOfDir(t, dir, root)
			segs = segs[1:]
		}
	default:
		if f, _ := rustChild(t, root, segs[0]); f == "" {
			return Module{External: true}
		}
		file, dir = rustRootFile(t, root), root
	}
	if file == "" {
		return Module{}
	}
	for i, s := range segs {
		f, d := rustChild(t, dir, s)
		if f == "" {
			return Module{Files: []string{file}, Dir: dir, Scope: strings.Join(segs[i:], "::")}
		}
		file, dir = f, d
	}
	return Module{Files: []string{file}, Dir: dir}
}

// rustSubmodule finds the module file name of a module's folder.
func rustSubmodule(t *Tree, pkg Module, name string) Module {
	if pkg.Dir == "" && len(pkg.Files) == 0 {
		return Module{}
	}
	if f, d := rustChild(t, pkg.Dir, name); f != "" && pkg.Scope == "" {
		return Module{Files: []string{f}, Dir: d}
	}
	return Module{}
}

// rustChild is the file of submodule name of the module whose folder is dir:
// dir/name.rs or dir/name/mod.rs, with the folder of its own submodules.
func rustChild(t *Tree, dir, name string) (file, subdir string) {
	sub := join(dir, name)
	switch {
	case t.Has(sub + ".rs"):
		return sub + ".rs", sub
	case t.Has(join(sub, "mod.rs")):
		return join(sub, "mod.rs"), sub
	}
	return "", ""
}

// rustCrateRoot is the folder of the nearest lib.rs or main.rs at or above
// file's folder; the file's own folder when there is none.
func rustCrateRoot(t *Tree, file string) string {
	for d := parentDir(file); ; d = parentDir(d) {
		if rustRootFile(t, d) != "" {
			return d
		}
		if d == "" {
			return parentDir(file)
		}
	}
}

func rustRootFile(t *Tree, dir string) string {
	for _, name := range []string{"lib.rs", "main.rs"} {
		if f := join(dir, name); t.Has(f) {
			return f
		}
	}
	return ""
}

// rustModuleDir is the folder of a file's submodules: a/b.rs's are in a/b,
// a/mod.rs's and a crate root's in a.
func rustModuleDir(file string) string {
	base := file[strings.LastIndex(file, "/")+1:]
	if base == "mod.rs" || base == "lib.rs" || base == "main.rs" {
		return parentDir(file)
	}
	return strings.TrimSuffix(file, ".rs")
}

// rustFileOfDir is the file of the module whose submodules are in dir: the
// crate root, dir/mod.rs or dir.rs.
func rustFileOfDir(t *Tree, dir, root string) string {
	if dir == root {
		return rustRootFile(t, root)
	}
	if f := join(dir, "mod.rs"); t.Has(f) {
		return f
	}
	if t.Has(dir + ".rs") {
		return dir + ".rs"
	}
	return ""
}

// rustModDeclaration: `mod x;` declares a module another file defines.
// It holds no definition in its file.
func rustModDeclaration(v *view, n graph.Node) bool {
	if n.Kind != graph.KindNamespace {
		return false
	}
	for q := range v.nodesOf(n.File) {
		if strings.HasPrefix(q, n.QName+"::") {
			return false
		}
	}
	return true
}
