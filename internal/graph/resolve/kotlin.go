package resolve

import "strings"

// kotlinLanguage resolves `import a.b.C` (and `a.b.*`) to the Kotlin files of
// package a.b, found as a folder, and gives a file its package's other files
// (its folder) without an import, as Java does. Kotlin's own convention drops
// the common root package from the folders (`com.example.geo` in `src/geo`), so
// the longest tail of the package that names a folder is taken, unless the
// package is the standard library's or a platform's (kotlin.*, java.*,
// android.*…), which is external whatever folders the repository has.
var kotlinLanguage = Language{
	Family:       "kotlin",
	Module:       kotlinModule,
	Key:          lastDotted,
	Package:      sameFolder(".kt"),
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
}

// kotlinPlatform are the package roots that are never the repository's.
var kotlinPlatform = []string{"kotlin", "kotlinx", "java", "javax", "android", "androidx"}

func kotlinModule(t *Tree, _ string, pkg string) Module {
	segs := strings.Split(pkg, ".")
	for _, p := range kotlinPlatform {
		if segs[0] == p {
			return Module{External: true}
		}
	}
	for drop := range segs {
		dirs := t.dirsEndingWith(strings.Join(segs[drop:], "/"), false)
		if files := t.filesWithExt(dirs, ".kt", ".kts"); len(files) > 0 {
			return Module{Files: files, Dir: dirs[0]}
		}
	}
	return Module{External: true}
}
