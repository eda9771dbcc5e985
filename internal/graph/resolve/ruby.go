package resolve

import (
	"path"
	"strings"
)

// rubyLanguage resolves require_relative from the requiring file and require
// from lib/ and the root ($LOAD_PATH as gems and Rails set it); a required file's
// top-level names become visible (constants are global in Ruby).
var rubyLanguage = Language{
	Family:       "ruby",
	Module:       rubyModule,
	Key:          func(spec string) string { return stripExt(path.Base(spec)) },
	Star:         true,
	SelfNames:    []string{"self"},
	ImplicitSelf: true,
}

// rubyModule: the extractor writes require_relative paths with a leading "."
// (internal/graph/treesitter/imports.go); a relative path found nowhere is a miss,
// any other one a gem or the standard library.
func rubyModule(t *Tree, from, spec string) Module {
	file := func(p string) string {
		if !strings.HasSuffix(p, ".rb") {
			p += ".rb"
		}
		if t.Has(p) {
			return p
		}
		return ""
	}
	if strings.HasPrefix(spec, ".") {
		if f := file(join(parentDir(from), spec)); f != "" {
			return Module{Files: []string{f}}
		}
		return Module{}
	}
	for _, root := range []string{"lib", ""} {
		if f := file(join(root, spec)); f != "" {
			return Module{Files: []string{f}}
		}
	}
	return Module{External: true}
}
