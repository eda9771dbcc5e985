package resolve

import "strings"

// javaLanguage resolves `import a.b.C` to the file of package a.b (a folder
// ending in a/b under any source root) that declares C; a file sees its package's
// other classes without importing them.
var javaLanguage = Language{
	Family:       "java",
	Module:       javaModule,
	Key:          lastDotted,
	Package:      sameFolder(".java"),
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
}

// javaModule maps a package to the .java files of every folder ending with its
// path (main and test roots may share a package). A package not in the repository
// (java.util, a dependency) is external. For a static import's module, a class
// (`a.b.C` of `import static a.b.C.max`), the package's files are searched with
// the class as the scope.
func javaModule(t *Tree, _ string, pkg string) Module {
	if files := t.filesWithExt(t.dirsEndingWith(strings.ReplaceAll(pkg, ".", "/"), false), ".java"); len(files) > 0 {
		return Module{Files: files, Dir: parentDir(files[0])}
	}
	if i := strings.LastIndex(pkg, "."); i > 0 {
		outer, class := pkg[:i], pkg[i+1:]
		if files := t.filesWithExt(t.dirsEndingWith(strings.ReplaceAll(outer, ".", "/"), false), ".java"); len(files) > 0 {
			return Module{Files: files, Scope: class}
		}
	}
	return Module{External: true}
}

// lastDotted is a dotted module's last name.
func lastDotted(module string) string { return module[strings.LastIndex(module, ".")+1:] }

// sameFolder lists the other files of from's folder with extension ext: a Java
// package's classes.
func sameFolder(ext string) func(t *Tree, from string) []string {
	return func(t *Tree, from string) []string {
		var out []string
		for _, f := range t.Files(parentDir(from)) {
			if f != from && strings.HasSuffix(f, ext) {
				out = append(out, f)
			}
		}
		return out
	}
}
