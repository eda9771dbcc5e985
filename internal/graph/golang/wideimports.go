package golang

import (
	"go/ast"
	"maps"
	"strings"
)

// newImports gives the variants compiling an edited file whose imports changed
// their new imports, and checks that the go command would still build the same
// variants.
func (w *wide) newImports(edited []string, compiledBy map[string][]string) error {
	changed := false
	for _, rel := range edited {
		p, err := w.parse(rel)
		if err != nil {
			return err
		}
		if p.header == w.snap.Files[rel].Header {
			continue
		}
		changed = true
		for _, key := range compiledBy[rel] {
			w.importsC[key] = true
		}
	}
	if !changed {
		return nil
	}
	for key := range w.importsC {
		old := w.snap.Variants[key]
		v := *old
		v.Imports = map[string]Import{}
		for _, rel := range old.Files {
			p, err := w.parse(rel)
			if err != nil {
				return err
			}
			for _, spec := range p.file.Imports {
				path := importLiteral(spec)
				if path == "unsafe" || path == "C" {
					continue
				}
				imp, err := w.resolveImport(key, old, path)
				if err != nil {
					return err
				}
				v.Imports[path] = imp
			}
		}
		w.vars[key] = &v
	}
	return w.checkTestVariants()
}

func importLiteral(spec *ast.ImportSpec) string {
	return strings.Trim(spec.Path.Value, "`\"")
}

// resolveImport names the package an import path denotes in variant key: what it
// denoted before, a variant of the module, or a package outside the module that
// another variant imports (its export data is known).
func (w *wide) resolveImport(key string, old *Variant, path string) (Import, error) {
	if imp, ok := old.Imports[path]; ok {
		return imp, nil
	}
	prefix, _, suffix := splitKey(key)
	for _, k := range []string{prefix + path + suffix, prefix + path} {
		if v, ok := w.snap.Variants[k]; ok && (k != key) {
			return Import{PkgPath: v.PkgPath, Export: v.Export, Variant: k}, nil
		}
	}
	if w.modPaths[prefix+path] {
		return Import{}, fullLoad("%s imports %s, which has no such variant in the last load", old.PkgPath, path)
	}
	for k, v := range w.snap.Variants {
		if p, _, _ := splitKey(k); p != prefix {
			continue
		}
		if imp, ok := v.Imports[path]; ok && imp.Variant == "" {
			return imp, nil
		}
	}
	return Import{}, fullLoad("%s imports %s, unknown to the last load", old.PkgPath, path)
}

// checkTestVariants refuses an import change after which the go command would
// build other test variants: a plain package that a test's variants reach must
// not depend on the package under test (it would be recompiled for the test),
// and a recompiled one must still depend on it.
func (w *wide) checkTestVariants() error {
	for key := range w.vars {
		prefix, id, suffix := splitKey(key)
		if suffix == "" {
			continue
		}
		tested := strings.TrimSuffix(strings.TrimPrefix(suffix, " ["), ".test]")
		underTest := prefix + tested + suffix
		for k := range w.reach(key) {
			if _, _, s := splitKey(k); s == "" && w.vars[k].PkgPath == tested {
				return fullLoad("the tests of %s would need packages recompiled that the last load did not", tested)
			}
		}
		if id != tested && id != tested+"_test" && key != underTest && !w.reach(key)[underTest] {
			return fullLoad("%s would no longer be recompiled for the tests of %s", id, tested)
		}
	}
	return nil
}

// reach is the set of module variants key imports, transitively, itself included.
func (w *wide) reach(key string) map[string]bool {
	if c, ok := w.closure[key]; ok {
		return c
	}
	c := map[string]bool{key: true}
	w.closure[key] = c // a cycle ends here; order reports it
	for _, imp := range w.vars[key].Imports {
		if imp.Variant != "" && w.vars[imp.Variant] != nil {
			maps.Copy(c, w.reach(imp.Variant))
		}
	}
	return c
}
