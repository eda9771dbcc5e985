package resolve

import "strings"

// kotlinLanguage resolves `import a.b.C` (and `a.b.*`) to the Kotlin files of
// package a.b, found as a folder, and gives a file its package's other files
// (its folder) without an import, as Java does. Kotlin's own convention drops
// the common root package from the folders (`com.example.geo` in `src/geo`), so
// the longest tail of the package that names a folder is taken, unless the
// package is the standard library's or a platform's (kotlin.*, java.*,
// android.*…), which is external whatever folders the repository has. Kotlin
// shares Java's family: a package's Java classes are found from Kotlin (by
// import, in the same package, or by name), and a name counted for a match by
// name is counted in both languages.
var kotlinLanguage = Language{
	Family:       "java",
	Module:       kotlinModule,
	Key:          lastDotted,
	Package:      kotlinPackage,
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	// `val q = Square(); q.area()` in Square's own file is the site Square.area.
	OwnNames:     true,
	StarsOwnOnly: true,
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
		if files := t.filesWithExt(dirs, ".kt", ".kts", ".java"); len(files) > 0 {
			m := Module{Files: files, Dir: dirs[0]}
			if drop > 0 {
				// Found by a tail of the package only: a guess, said with less
				// confidence than a folder that spells the whole package.
				m.Alternatives = 1
			}
			return m
		}
	}
	return Module{External: true}
}

// kotlinPackage lists the other Kotlin and Java files of from's folder.
func kotlinPackage(t *Tree, from string) []string {
	var out []string
	for _, f := range t.Files(parentDir(from)) {
		if f != from && (strings.HasSuffix(f, ".kt") || strings.HasSuffix(f, ".kts") || strings.HasSuffix(f, ".java")) {
			out = append(out, f)
		}
	}
	return out
}
