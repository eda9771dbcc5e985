package query

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// An answer about Go is exact only when every file it may draw on was
// extracted by the type checker without error. These are the files it may
// draw on.
type goScope int

const (
	// scopeFile: the symbol's own file (what it calls).
	scopeFile goScope = iota
	// scopeImporters: the files of its package and of the packages importing
	// it (who calls or uses it).
	scopeImporters
	// scopeModule: every Go file of the module (implicit interface satisfaction
	// needs no import), files only another platform builds left out.
	scopeModule
	// scopeTransitive: every Go file of the module, those only another
	// platform builds included (impact: a dependent may be anywhere).
	scopeTransitive
)

// maxGapsNamed bounds the files a reason names; the count is always given.
const maxGapsNamed = 3

// gapQueryRows bounds the files read to count them: past it the count is a floor.
const gapQueryRows = 1000

// goGaps says which Go files in scope of n have partial facts: extracted
// without the type checker (with definitions or call sites of their own), or
// with syntax, type or load errors. "" when there are none.
func goGaps(ctx context.Context, st *store.Store, n graph.Node, scope goScope) (string, error) {
	if n.Language != "go" {
		return "", nil
	}
	if why, err := typesPendingWhy(ctx, st); err != nil || why != "" {
		return why, err
	}
	if n.File == "" && scope != scopeTransitive {
		scope = scopeModule // outside the repository: any file may use it
	}
	where := ""
	switch scope {
	case scopeFile:
		where = "f.path = " + sqlString(n.File)
	case scopeImporters:
		dir := path.Dir(n.File)
		pkgs, err := goPackagesOf(ctx, st, dir)
		if err != nil {
			return "", err
		}
		in := []string{inDir("f.path", dir)}
		for _, p := range pkgs {
			in = append(in, "f.path IN (SELECT file FROM edges WHERE kind = 'imports' AND dst = "+sqlString(p)+")")
		}
		where = "(" + strings.Join(in, " OR ") + ")"
	}
	loadErr, _, err := st.Meta(ctx, golang.MetaLoadError)
	if err != nil {
		return "", err
	}
	untyped := "1"
	if scope == scopeModule || scope == scopeTransitive {
		// The go command leaves testdata, vendor and folders starting with "."
		// or "_" out of a module: their files are no part of what it checks.
		where = "(" + inDir("f.path", path.Dir(n.File)) + " OR (" + inModule("f.path") + "))"
		if loadErr == "" && scope == scopeModule {
			// The module loaded: a file it left out is another platform's
			// (build constraints). It may call or use the symbol, but the
			// type checker relates this build's types only.
			untyped = inDir("f.path", path.Dir(n.File))
		}
	}
	return gapsWhere(ctx, st, where, untyped, loadErr)
}

// goGapsIn is goGaps over the given files (the definitions a walk reached).
func goGapsIn(ctx context.Context, st *store.Store, files []string) (string, error) {
	if len(files) == 0 {
		return "", nil
	}
	if why, err := typesPendingWhy(ctx, st); err != nil || why != "" {
		return why, err
	}
	if len(files) > maxGapFiles {
		return goGaps(ctx, st, graph.Node{Language: "go"}, scopeTransitive)
	}
	loadErr, _, err := st.Meta(ctx, golang.MetaLoadError)
	if err != nil {
		return "", err
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = sqlString(f)
	}
	return gapsWhere(ctx, st, "f.path IN ("+strings.Join(quoted, ", ")+")", "1", loadErr)
}

// typesPendingWhy is the reason every Go answer is a lower bound while the
// type checker's pass has not landed (a first index), "" otherwise.
func typesPendingWhy(ctx context.Context, st *store.Store) (string, error) {
	v, _, err := st.Meta(ctx, golang.MetaTypesPending)
	if err != nil || v == "" {
		return "", err
	}
	return v + ": the Go facts are definitions only (no calls, references or type relations yet) until the type checker's pass lands", nil
}

// maxGapFiles bounds the files goGapsIn names in its query; past it, the whole
// module is read. A judgement: a few hundred keeps the statement small.
const maxGapFiles = 500

// gapsWhere lists the Go files matching where whose facts are partial: with an
// error, or, where untyped holds, extracted without the type checker.
func gapsWhere(ctx context.Context, st *store.Store, where, untyped, loadErr string) (string, error) {
	q := `SELECT f.path, f.parse_error, f.typed FROM files f
WHERE f.language = 'go' AND ` + where + ` AND (f.parse_error <> '' OR (f.typed = 0 AND ` + untyped + ` AND (
  EXISTS (SELECT 1 FROM nodes n WHERE n.file = f.path AND n.kind NOT IN ('file', 'package'))
  OR EXISTS (SELECT 1 FROM sites s WHERE s.file = f.path))))
ORDER BY f.path`
	_, rows, more, err := st.Query(ctx, q, gapQueryRows, 5*time.Second)
	if err != nil {
		return "", fmt.Errorf("read the Go files' coverage: %w", err)
	}
	if len(rows) == 0 {
		return "", nil
	}
	var named []string
	for _, r := range rows[:min(len(rows), maxGapsNamed)] {
		file, _ := r[0].(string)
		perr, _ := r[1].(string)
		switch {
		case perr != "":
			named = append(named, fmt.Sprintf("%s (%s)", file, firstLine(perr)))
		case loadErr != "":
			named = append(named, fmt.Sprintf("%s (no type checker: %s)", file, firstLine(loadErr)))
		default:
			named = append(named, file+" (no type checker: left out of the loaded build, by build constraints or a package that did not load)")
		}
	}
	count := fmt.Sprint(len(rows))
	if more {
		count += "+"
	}
	if len(rows) > maxGapsNamed {
		named = append(named, "…")
	}
	return fmt.Sprintf("%s Go file(s) it may draw on have partial facts (extracted without the type checker, or with errors): %s",
		count, strings.Join(named, ", ")), nil
}

// goPackagesOf lists the import paths of the Go packages whose files are in dir
// (a package and its external test package).
func goPackagesOf(ctx context.Context, st *store.Store, dir string) ([]string, error) {
	_, rows, _, err := st.Query(ctx, `SELECT qname FROM nodes f WHERE kind = 'package' AND language = 'go' AND `+inDir("f.file", dir), 10, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("read the Go packages of %s: %w", dir, err)
	}
	var out []string
	for _, r := range rows {
		if s, ok := r[0].(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// inDir is an SQL condition: column is a file directly in dir ("." is the root).
func inDir(column, dir string) string {
	if dir == "." || dir == "" {
		return "instr(" + column + ", '/') = 0"
	}
	prefix := sqlString(dir + "/")
	return "substr(" + column + ", 1, length(" + prefix + ")) = " + prefix +
		" AND instr(substr(" + column + ", length(" + prefix + ") + 1), '/') = 0"
}

// inModule is an SQL condition: column is a file the go command would load
// as part of a module (not under testdata, vendor, or a folder starting with
// "." or "_").
func inModule(column string) string {
	var conds []string
	for _, seg := range []string{"/testdata/", "/vendor/", "/_", "/."} {
		conds = append(conds, "instr('/' || "+column+", '"+seg+"') = 0")
	}
	return strings.Join(conds, " AND ")
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 160 {
		s = cut(s, 160)
	}
	return s
}

// externalWhy says why the implementations of a Go type or interface defined
// outside the repository are a lower bound, "" when they are checked: a
// standard interface's (golang.StandardInterfaces).
func externalWhy(n graph.Node) string {
	if n.Language != "go" || n.File != "" || slices.Contains(golang.StandardInterfaces(), n.QName) {
		return ""
	}
	return fmt.Sprintf("%s is defined outside the repository: the type checker relates the module's types to their own interfaces and to %s only",
		n.QName, strings.Join(golang.StandardInterfaces(), ", "))
}
