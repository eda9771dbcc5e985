package golang

import (
	"go/ast"
	"maps"
	"strings"
)

// applyNewImports gives the variants compiling an edited file whose imports changed
// their new imports, and checks that the go command would still build the same
// variants.
func (su *surfaceUpdate) applyNewImports(edited []string, compiledBy map[string][]string) error {
	changed := false
	for _, rel := range edited {
		p, err := su.parse(rel)
		if err != nil {
			return err
		}
		if p.header == su.snap.Files[rel].Header {
			continue
		}
		changed = true
		for _, key := range compiledBy[rel] {
			su.importsChanged[key] = true
		}
	}
	if !changed {
		return nil
	}
	for key := range su.importsChanged {
		old := su.snap.Variants[key]
		v := *old
		v.Imports = map[string]Import{}
		for _, rel := range old.Files {
			p, err := su.parse(rel)
			if err != nil {
				return err
			}
			for _, spec := range p.file.Imports {
				path := importLiteral(spec)
				if path == "unsafe" || path == "C" {
					continue
				}
				imp, err := su.resolveImport(key, old, path)
				if err != nil {
					return err
				}
				v.Imports[path] = imp
			}
		}
		su.variants[key] = &v
	}
	return su.checkTestVariants()
}

func importLiteral(spec *ast.ImportSpec) string {
	return strings.Trim(spec.Path.Value, "`\"")
}

// resolveImport names the package an import path denotes in variant key: what it
// denoted before, a variant of the module, or a package outside the module that
// another variant imports (its export data is known).
func (su *surfaceUpdate) resolveImport(key string, old *Variant, path string) (Import, error) {
	if imp, ok := old.Imports[path]; ok {
		return imp, nil
	}
	prefix, _, suffix := splitKey(key)
	for _, k := range []string{prefix + path + suffix, prefix + path} {
		if v, ok := su.snap.Variants[k]; ok && (k != key) {
			return Import{PkgPath: v.PkgPath, Export: v.Export, Variant: k}, nil
		}
	}
	if su.modulePaths[prefix+path] {
		return Import{}, fullLoad("%s imports %s, which has no such variant in the last load", old.PkgPath, path)
	}
	for k, v := range su.snap.Variants {
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
func (su *surfaceUpdate) checkTestVariants() error {
	for key := range su.variants {
		prefix, id, suffix := splitKey(key)
		if suffix == "" {
			continue
		}
		tested := strings.TrimSuffix(strings.TrimPrefix(suffix, " ["), ".test]")
		underTest := prefix + tested + suffix
		for k := range su.reach(key) {
			if _, _, s := splitKey(k); s == "" && su.variants[k].PkgPath == tested {
				return fullLoad("the tests of %s would need packages recompiled that the last load did not", tested)
			}
		}
		if id != tested && id != tested+"_test" && key != underTest && !su.reach(key)[underTest] {
			return fullLoad("%s would no longer be recompiled for the tests of %s", id, tested)
		}
	}
	return nil
}

// reach is the set of module variants key imports, transitively, itself included.
func (su *surfaceUpdate) reach(key string) map[string]bool {
	if c, ok := su.reachOf[key]; ok {
		return c
	}
	c := map[string]bool{key: true}
	su.reachOf[key] = c // a cycle ends here; order reports it
	for _, imp := range su.variants[key].Imports {
		if imp.Variant != "" && su.variants[imp.Variant] != nil {
			maps.Copy(c, su.reach(imp.Variant))
		}
	}
	return c
}
