package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// binaryTests counts the Test functions under a folder and those that run the binary
// a `go build -o` made for them.
type binaryTests struct {
	dir               string
	tests, spawns     int
	files, spawnFiles int      // test files with a Test function, and those with one that runs the binary
	helpers           []string // the functions found to run or build the binary, as dir:name
	without           []string // the Test functions that do not run it, as dir:name
}

// testFunc is one function of the folder's Go files, as far as calls go.
type testFunc struct {
	dir, name string
	file      string
	test      bool            // a TestXxx function of a _test.go file
	calls     []string        // names called or passed as values
	idents    map[string]bool // identifiers read, a selector's right side left out
	spawns    bool
}

// countBinaryTests finds, in every Go file under root/appDir, the functions that run
// `go build -o X` (other than TestMain) or read the variable X a TestMain built into,
// then every function calling those, transitively; and counts the Test functions
// among them. Calls are matched by name: within a folder any name, across folders
// exported names only (a call from another package must be to one).
func countBinaryTests(root, appDir string) (binaryTests, error) {
	res := binaryTests{dir: appDir}
	base := filepath.Join(root, filepath.FromSlash(appDir))
	if _, err := os.Stat(base); err != nil {
		return res, nil // nothing to count: the tree has no such folder
	}
	var funcs []*testFunc
	builtVars := map[string]map[string]bool{} // folder → names of variables holding the built binary
	fset := token.NewFileSet()
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != base && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		dir := filepath.ToSlash(rel)
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse %s: %w", path, err)
		}
		isTest := strings.HasSuffix(path, "_test.go")
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			f := &testFunc{dir: dir, file: path, name: fn.Name.Name, calls: callNames(fn.Body), idents: identsRead(fn.Body)}
			f.test = isTest && fn.Recv == nil && strings.HasPrefix(f.name, "Test") && f.name != "TestMain"
			if out := goBuildOutputs(fn.Body); len(out) > 0 {
				if f.name == "TestMain" {
					if builtVars[dir] == nil {
						builtVars[dir] = map[string]bool{}
					}
					for _, v := range out {
						builtVars[dir][v] = true
					}
				} else {
					f.spawns = true // builds the binary itself: a getter for it
				}
			}
			funcs = append(funcs, f)
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("read the tests under %s: %w", appDir, err)
	}
	for _, f := range funcs {
		if f.name != "TestMain" && readsAny(f, builtVars[f.dir]) {
			f.spawns = true
		}
	}
	propagate(funcs)
	files := map[string]bool{} // test file → one of its tests runs the binary
	for _, f := range funcs {
		if f.test {
			res.tests++
			files[f.file] = files[f.file] || f.spawns
			if f.spawns {
				res.spawns++
			} else {
				res.without = append(res.without, f.dir+":"+f.name)
			}
		} else if f.spawns && f.name != "TestMain" {
			res.helpers = append(res.helpers, f.dir+":"+f.name)
		}
	}
	for _, spawns := range files {
		res.files++
		if spawns {
			res.spawnFiles++
		}
	}
	slices.Sort(res.helpers)
	slices.Sort(res.without)
	res.helpers = slices.Compact(res.helpers)
	return res, nil
}

// propagate marks every function that calls a marked one, until nothing changes.
func propagate(funcs []*testFunc) {
	local := map[string][]*testFunc{}    // dir + "\x00" + name
	exported := map[string][]*testFunc{} // name, across folders
	for _, f := range funcs {
		local[f.dir+"\x00"+f.name] = append(local[f.dir+"\x00"+f.name], f)
		if ast.IsExported(f.name) {
			exported[f.name] = append(exported[f.name], f)
		}
	}
	marked := func(fs []*testFunc) bool {
		return slices.ContainsFunc(fs, func(g *testFunc) bool { return g.spawns })
	}
	for changed := true; changed; {
		changed = false
		for _, f := range funcs {
			if f.spawns || f.name == "TestMain" {
				continue
			}
			for _, c := range f.calls {
				if marked(local[f.dir+"\x00"+c]) || (ast.IsExported(c) && marked(exported[c])) {
					f.spawns, changed = true, true
					break
				}
			}
		}
	}
}

// callNames lists the names a body calls (f(), x.m()) or passes as arguments (t.Run(n, f)).
func callNames(body *ast.BlockStmt) []string {
	var names []string
	name := func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.Ident:
			names = append(names, e.Name)
		case *ast.SelectorExpr:
			names = append(names, e.Sel.Name)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			name(call.Fun)
			for _, a := range call.Args {
				name(a)
			}
		}
		return true
	})
	return names
}

// goBuildOutputs returns the variables named after -o in the body's
// exec.Command("go", "build", ..., "-o", X, ...) calls (CommandContext alike).
func goBuildOutputs(body *ast.BlockStmt) []string {
	var out []string
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Command" && sel.Sel.Name != "CommandContext") {
			return true
		}
		args := call.Args
		if sel.Sel.Name == "CommandContext" && len(args) > 0 {
			args = args[1:]
		}
		if len(args) < 2 || stringLit(args[0]) != "go" || stringLit(args[1]) != "build" {
			return true
		}
		for i := 2; i+1 < len(args); i++ {
			if stringLit(args[i]) == "-o" {
				if id, ok := args[i+1].(*ast.Ident); ok {
					out = append(out, id.Name)
				} else {
					out = append(out, "") // built into an expression: the getter itself counts
				}
			}
		}
		return true
	})
	return out
}

func stringLit(e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return ""
	}
	return s
}

// readsAny reports whether f reads one of vars.
func readsAny(f *testFunc, vars map[string]bool) bool {
	for v := range vars {
		if f.idents[v] {
			return true
		}
	}
	return false
}

// identsRead lists a body's identifiers but a selector's right side (h.binary is a
// field, not the package's variable binary).
func identsRead(body *ast.BlockStmt) map[string]bool {
	seen := map[string]bool{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			seen[n.Name] = true
		}
		return true
	}
	ast.Inspect(body, visit)
	return seen
}
