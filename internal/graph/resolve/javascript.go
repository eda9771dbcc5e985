package resolve

import (
	"path"
	"strings"
)

// jsLanguage serves TypeScript, TSX and JavaScript alike: they import each other.
var jsLanguage = Language{
	Family: "js",
	Module: jsModule,
	Key:    jsKey,
	// A module sees its own top-level names: `Query.m` written in query.ts (a
	// static call, or a receiver the extractor typed) names query.ts's Query.
	Package:   jsSelf,
	SelfNames: []string{"this"},
}

func jsSelf(_ *Tree, from string) []string { return []string{from} }

// jsProbe are the extensions tried after a specifier without one, in the order
// TypeScript's resolver tries them (sources before declarations, TS before JS).
var jsProbe = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsSourceFor maps an emitted extension written in a specifier to the sources it
// is compiled from: TypeScript's ESM style writes `./util.js` for util.ts.
var jsSourceFor = map[string][]string{
	".js":  {".ts", ".tsx"},
	".jsx": {".tsx"},
	".mjs": {".mts"},
	".cjs": {".cts"},
}

// jsModule resolves a relative specifier (`./util`, `../lib/index.js`) against the
// importing file's folder, and a bare one through tsconfig.json's paths and
// baseUrl when they are set; any other bare specifier is an npm package or a Node
// built-in: external. A relative specifier naming a non-code file (`./app.css`)
// is external too: the index holds no such file.
func jsModule(t *Tree, from, spec string) Module {
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		m := jsAt(t, join(parentDir(from), spec))
		if ext := path.Ext(spec); !m.Found() && ext != "" && !isJSExt(ext) {
			m.External = true
		}
		return m
	case t.TS != nil:
		for _, base := range t.TS.candidates(spec) {
			if m := jsAt(t, base); m.Found() {
				return m
			}
		}
	}
	return Module{External: true}
}

// jsAt finds the file a specifier resolved to p names: p itself, p with an
// extension, or p's index file.
func jsAt(t *Tree, p string) Module {
	if strings.HasPrefix(p, "../") {
		return Module{}
	}
	if f := jsFile(t, p); f != "" {
		return Module{Files: []string{f}}
	}
	if f := jsFile(t, join(p, "index")); f != "" {
		return Module{Files: []string{f}}
	}
	return Module{}
}

func jsFile(t *Tree, p string) string {
	if p == "" {
		return ""
	}
	if ext := path.Ext(p); ext != "" {
		if t.Has(p) {
			return p
		}
		for _, src := range jsSourceFor[ext] {
			if f := strings.TrimSuffix(p, ext) + src; t.Has(f) {
				return f
			}
		}
	}
	for _, ext := range jsProbe {
		if t.Has(p + ext) {
			return p + ext
		}
	}
	return ""
}

func isJSExt(ext string) bool {
	switch ext {
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// jsKey is the specifier's last name without extension; "" for `.` and `..`.
func jsKey(spec string) string {
	base := path.Base(spec)
	if base == "." || base == ".." || base == "/" {
		return ""
	}
	return stripExt(base)
}
