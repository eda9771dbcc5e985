package resolve

import (
	"path"
	"strings"
)

// phpLanguage resolves `use A\B\C` to the files of the folder that holds
// namespace A\B (PSR-4: a folder whose path ends with the namespace's, or with
// its tail, letter case ignored: App\Http → app/Http), where C is defined in the
// namespace's scope; and include/require of a path, which brings the file's
// top-level names.
var phpLanguage = Language{
	Family:    "php",
	Module:    phpModule,
	Key:       phpKey,
	Star:      true,
	SelfNames: []string{"$this", "self", "static"},
}

func phpModule(t *Tree, from, spec string) Module {
	if strings.HasSuffix(spec, ".php") || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		// An include: "./x.php" is relative to the including file (__DIR__); any
		// other path is looked up from the root, then from the including folder.
		var cands []string
		if strings.HasPrefix(spec, ".") {
			cands = []string{join(parentDir(from), spec)}
		} else {
			cands = []string{join(spec), join(parentDir(from), spec)}
		}
		for _, c := range cands {
			if t.Has(c) {
				return Module{Files: []string{c}}
			}
		}
		return Module{}
	}
	ns := strings.Trim(spec, `\`)
	if ns == "" {
		return Module{} // the global namespace: only matching by name can find its names
	}
	segs := strings.Split(ns, `\`)
	// The longest tail of the namespace that names folders wins: App\Models under
	// src/ is src/Models when composer maps App\ to src/.
	for drop := range segs {
		dirs := t.dirsEndingWith(strings.Join(segs[drop:], "/"), true)
		if files := t.filesWithExt(dirs, ".php"); len(files) > 0 {
			return Module{Files: files, Dir: dirs[0], Scope: ns}
		}
	}
	return Module{External: true}
}

func phpKey(spec string) string {
	if strings.Contains(spec, `\`) || !strings.Contains(spec, "/") {
		return spec[strings.LastIndex(spec, `\`)+1:]
	}
	return stripExt(path.Base(spec))
}
