package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// report is what one tree measures.
type report struct {
	packages     []pkgLines // largest first
	lines, files int
	longFiles    []string // over options.longFile lines, as paths from the root
	funcs        []funcStat
	appTests     binaryTests
	dups         dupResult
}

type pkgLines struct {
	dir          string
	lines, files int
}

// funcStat is one function or method of production code.
type funcStat struct {
	name       string // as gocyclo names it: pkg.F, pkg.(*T).M
	pos        string // file:line from the root
	lines      int
	complexity int
}

// goFile is a production Go file: not a test, not under testdata, vendor or a folder
// the go command ignores.
type goFile struct {
	rel   string // slash-separated path from the root
	src   []byte
	lines int
}

// measure reads the tree at root; the pairs are asked of the duplicates command.
func measure(root string, o options) (*report, error) {
	files, err := productionFiles(root)
	if err != nil {
		return nil, err
	}
	r := &report{files: len(files)}
	byDir := map[string]*pkgLines{}
	fset := token.NewFileSet()
	for _, f := range files {
		dir := pathDir(f.rel)
		p := byDir[dir]
		if p == nil {
			p = &pkgLines{dir: dir}
			byDir[dir] = p
		}
		p.lines += f.lines
		p.files++
		r.lines += f.lines
		if f.lines > o.longFile {
			r.longFiles = append(r.longFiles, f.rel)
		}
		file, err := parser.ParseFile(fset, f.rel, f.src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w (a tree that does not parse cannot be measured)", f.rel, err)
		}
		r.funcs = append(r.funcs, functions(fset, file)...)
	}
	for _, p := range byDir {
		r.packages = append(r.packages, *p)
	}
	slices.SortFunc(r.packages, func(a, b pkgLines) int {
		return cmp.Or(cmp.Compare(b.lines, a.lines), strings.Compare(a.dir, b.dir))
	})
	if r.appTests, err = countBinaryTests(root, o.appDir); err != nil {
		return nil, err
	}
	r.dups = findDuplicates(files, o)
	return r, nil
}

// productionFiles lists the tree's non-test Go files in path order.
func productionFiles(root string) ([]goFile, error) {
	var files []goFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && skippedDir(name) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, goFile{rel: filepath.ToSlash(rel), src: src, lines: countLines(src)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the Go files of %s: %w", root, err)
	}
	return files, nil
}

// skippedDir reports the folders the go command never builds from, and vendored code.
func skippedDir(name string) bool {
	return name == "testdata" || name == "vendor" || name == "node_modules" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// countLines counts lines as wc -l does, plus a last line without its newline.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

func pathDir(rel string) string {
	if i := strings.LastIndex(rel, "/"); i >= 0 {
		return rel[:i]
	}
	return "."
}

// functions measures every function declaration of a file; closures count toward the
// function holding them, as in gocyclo.
func functions(fset *token.FileSet, file *ast.File) []funcStat {
	var out []funcStat
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		out = append(out, funcStat{
			name:       file.Name.Name + "." + funcName(fn),
			pos:        fmt.Sprintf("%s:%d", start.Filename, start.Line),
			lines:      end.Line - start.Line + 1,
			complexity: complexity(fn),
		})
	}
	return out
}

// funcName names a function F or a method (T).M / (*T).M, type parameters left out.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch g := t.(type) {
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	return "(" + star + recv + ")." + fn.Name.Name
}

// complexity is gocyclo's cyclomatic complexity: 1, plus one for each if, for, range,
// non-default case of a switch or select, and && or ||.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
