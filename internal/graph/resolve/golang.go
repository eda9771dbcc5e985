package resolve

import (
	"bufio"
	"bytes"
	"path"
	"strconv"
	"strings"
)

// goLanguage resolves the Go files the type checker did not cover (a module that
// does not load): import paths become folders through go.mod's module path, and a
// file sees its package's other files without importing them.
var goLanguage = Language{
	Family:    "go",
	Module:    goModule,
	Bind:      goBind,
	Key:       goPackageName,
	Package:   goPackageFiles,
	SelfNames: nil, // Go names its receiver; the extractor's receiver scope covers it
}

// Without the type checker, types are read off declarations (gotypes.go) and
// implementations off method names (goimplements.go). Set here: they read
// languages, which holds goLanguage.
func init() {
	goLanguage.ValueMember = goValueMember
	goLanguage.Implements = goImplements
}

// goModule maps an import path under the root module's path to its folder's Go
// files (tests excluded: no import sees them). Other paths are the standard
// library or other modules: external.
func goModule(t *Tree, _ string, importPath string) Module {
	mod := t.GoModule
	if mod == "" || (importPath != mod && !strings.HasPrefix(importPath, mod+"/")) {
		return Module{External: true}
	}
	dir := strings.TrimPrefix(strings.TrimPrefix(importPath, mod), "/")
	var files []string
	for _, f := range t.Files(dir) {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !t.Typed(f) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return Module{}
	}
	return Module{Files: files, Dir: dir}
}

// goBind: `import "example.com/m/util"` binds util.
func goBind(importPath string) []Bound {
	return []Bound{{goPackageName(importPath), importPath}}
}

// goPackageName guesses the name a package is imported under from its path: the
// last element, skipping a major-version suffix (`/v2`) and a gopkg.in one
// (`yaml.v3`). The package clause may say otherwise; the pass does not read it.
func goPackageName(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return name
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

// goPackageFiles lists the Go files of from's folder, from included: a site
// the extractor left, `T.m`, may name a type from defines.
func goPackageFiles(t *Tree, from string) []string {
	var out []string
	for _, f := range t.Files(parentDir(from)) {
		if strings.HasSuffix(f, ".go") && !t.Typed(f) {
			out = append(out, f)
		}
	}
	return out
}

// goModulePath reads the module path from go.mod's content, "" when it has none.
func goModulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			if p, err := strconv.Unquote(rest); err == nil {
				return p
			}
			return path.Clean(rest)
		}
	}
	return ""
}
