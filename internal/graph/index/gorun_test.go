package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// goModule is a module whose packages implement each other's interfaces, so an
// incremental run must keep implements edges it did not recompute.
func goModule(t *testing.T) string {
	t.Helper()
	return writeTree(t, map[string]string{
		"go.mod": "module example.com/inc\n\ngo 1.26\n",
		"api/api.go": "package api\n\n// Store keeps things.\ntype Store interface{ Put(k string) error }\n\n" +
			"// Use stores k.\nfunc Use(s Store, k string) error { return s.Put(k) }\n",
		"mem/mem.go": "package mem\n\nimport \"example.com/inc/api\"\n\n// Mem is a Store.\ntype Mem struct{ keys []string }\n\n" +
			"// Put adds k.\nfunc (m *Mem) Put(k string) error {\n\tm.keys = append(m.keys, k)\n\treturn nil\n}\n\n" +
			"// Fill uses api.\nfunc Fill(m *Mem) error { return api.Use(m, \"a\") }\n",
		"mem/mem_test.go": "package mem\n\nimport \"testing\"\n\nfunc TestFill(t *testing.T) {\n\tif Fill(&Mem{}) != nil {\n\t\tt.Fatal()\n\t}\n}\n",
		"main.go":         "package main\n\nimport \"example.com/inc/mem\"\n\nfunc main() { _ = mem.Fill(&mem.Mem{}) }\n",
	})
}

// dump is the store's content as rows of text, for comparing two stores.
func dump(t *testing.T, st *store.Store) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, q := range map[string]string{
		"nodes":      "SELECT qname, kind, name, file, line, col, end_line, signature, doc, exported FROM nodes ORDER BY qname",
		"edges":      "SELECT src, dst, kind, confidence, resolution, file, line FROM edges ORDER BY src, dst, kind, file, line",
		"unresolved": "SELECT src, name, kind, file, line, col, reason FROM unresolved ORDER BY file, line, col, name",
		"files":      "SELECT path, language, hash, size, parse_error FROM files ORDER BY path",
	} {
		_, rows, _, err := st.Query(context.Background(), q, 100000, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			out[table] = append(out[table], fmt.Sprintf("%v", r))
		}
	}
	return out
}

func TestGoBodyEditIsIncrementalAndExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := goModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	rep, err := Run(ctx, root, st, opts)
	if err != nil || rep.GoMode != "full" {
		t.Fatalf("first run = %+v, %v", rep, err)
	}

	// Lines move above Mem, and Put now calls api.Use: new edges, same declarations.
	name := filepath.Join(root, "mem", "mem.go")
	src, _ := os.ReadFile(name)
	edited := strings.Replace(string(src), "// Mem is a Store.", "// Mem is a Store,\n// kept in memory.", 1)
	edited = strings.Replace(edited, "\treturn nil\n", "\tif k == \"\" {\n\t\treturn api.Use(m, \"empty\")\n\t}\n\treturn nil\n", 1)
	if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Run(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoMode != "incremental" || rep.Extracted != 1 || !rep.GoTypes {
		t.Fatalf("body edit: report %+v, want an incremental run over one file", rep)
	}

	fresh := openStore(t)
	if _, err := Run(ctx, root, fresh, Options{Go: golang.DefaultOptions(), Rebuild: true}); err != nil {
		t.Fatal(err)
	}
	got, want := dump(t, st), dump(t, fresh)
	for table := range want {
		if !reflect.DeepEqual(got[table], want[table]) {
			t.Errorf("%s after the incremental run differs from a rebuild\n got: %q\nwant: %q", table, got[table], want[table])
		}
	}
	if !strings.Contains(strings.Join(got["edges"], "\n"), "example.com/inc/mem.Mem example.com/inc/api.Store implements") {
		t.Errorf("the implements edge was lost: %q", got["edges"])
	}
}

// The Go snapshot file is used only when the store vouches for it: an altered
// file means a full load, never an error, and the next edit is incremental again.
func TestGoSnapshotFileMustMatchTheStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := goModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	if rep, err := Run(ctx, root, st, opts); err != nil || rep.GoMode != "full" {
		t.Fatalf("first run = %+v, %v", rep, err)
	}
	edit := func(n int) *Report {
		t.Helper()
		rewrite(t, root, "mem/mem.go", "\treturn nil\n", fmt.Sprintf("\t_ = %d\n\treturn nil\n", n))
		rep, err := Run(ctx, root, st, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := edit(1); rep.GoMode != "incremental" {
		t.Fatalf("body edit with the snapshot in place: %s (%s)", rep.GoMode, rep.GoFullReason)
	}
	f, err := os.OpenFile(goSnapshotPath(st), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("no snapshot file next to the store: %v", err)
	}
	f.Write([]byte{0})
	f.Close()
	if rep := edit(2); rep.GoMode != "full" || rep.GoFullReason != "first Go load (or rebuild)" {
		t.Fatalf("body edit with an altered snapshot: %s (%s), want a full load", rep.GoMode, rep.GoFullReason)
	}
	if rep := edit(3); rep.GoMode != "incremental" {
		t.Fatalf("body edit after the full load: %s (%s)", rep.GoMode, rep.GoFullReason)
	}
	sameAsRebuild(t, root, st, "after an altered snapshot")
}

// sameAsRebuild asserts that st holds, row for row, what a rebuild of root gives.
func sameAsRebuild(t *testing.T, root string, st *store.Store, step string) {
	t.Helper()
	fresh := openStore(t)
	if _, err := Run(context.Background(), root, fresh, Options{Go: golang.DefaultOptions(), Rebuild: true}); err != nil {
		t.Fatal(err)
	}
	got, want := dump(t, st), dump(t, fresh)
	for table := range want {
		if !reflect.DeepEqual(got[table], want[table]) {
			t.Errorf("%s: %s differs from a rebuild\n got: %q\nwant: %q", step, table, got[table], want[table])
		}
	}
}

// rewrite replaces every old in rel by new.
func rewrite(t *testing.T, root, rel, old, new string) {
	t.Helper()
	name := filepath.Join(root, filepath.FromSlash(rel))
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s lacks %q", rel, old)
	}
	if err := os.WriteFile(name, []byte(strings.ReplaceAll(string(src), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Declaration edits re-check the edited package and its importers without the go
// command, and leave the store as a rebuild would, implements edges included;
// go.mod still reloads the module.
func TestGoDeclarationEditsAreIncrementalAndExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := goModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	if _, err := Run(ctx, root, st, opts); err != nil {
		t.Fatal(err)
	}
	const storeImpl = "example.com/inc/mem.Log example.com/inc/api.Store implements"
	steps := []struct {
		name, rel, old, new string
		edge                string // an edges row that must be present ("+") or absent ("-") after the step
	}{
		{"new function", "api/api.go", "// Use stores k.", "// UseIt stores k too.\nfunc UseIt(s Store, k string) error { return Use(s, k) }\n\n// Use stores k.", ""},
		{"changed signature", "api/api.go", "func Use(s Store, k string) error", "func Use(s Store, k string, more ...int) error", ""},
		{"new type", "mem/mem.go", "// Fill uses api.", "// Log records.\ntype Log struct{ n int }\n\n// Fill uses api.", "-" + storeImpl},
		{"new method", "mem/mem.go", "// Fill uses api.", "// Put counts.\nfunc (l *Log) Put(k string) error {\n\tl.n++\n\treturn nil\n}\n\n// Fill uses api.", "+" + storeImpl},
		{"changed struct field", "mem/mem.go", "type Log struct{ n int }", "type Log struct {\n\tn    int\n\tlast string\n}", "+" + storeImpl},
		{"removed method", "mem/mem.go", "func (l *Log) Put(k string) error {\n\tl.n++\n\treturn nil\n}", "func (l *Log) put(k string) error {\n\tl.n++\n\treturn nil\n}", "-" + storeImpl},
		{"renamed type", "mem/mem.go", "Log", "Journal", "-example.com/inc/mem.Log"},
		{"new import of a module package", "main.go", "import \"example.com/inc/mem\"\n\nfunc main() { _ = mem.Fill(&mem.Mem{}) }",
			"import (\n\t\"example.com/inc/api\"\n\t\"example.com/inc/mem\"\n)\n\nfunc main() { _ = api.Use(&mem.Mem{}, \"k\") }", ""},
	}
	for _, step := range steps {
		rewrite(t, root, step.rel, step.old, step.new)
		rep, err := Run(ctx, root, st, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.GoMode != "incremental" {
			t.Fatalf("%s: mode %q (%s), want incremental", step.name, rep.GoMode, rep.GoFullReason)
		}
		sameAsRebuild(t, root, st, step.name)
		if step.edge != "" {
			edges := strings.Join(dump(t, st)["edges"], "\n")
			if present := strings.Contains(edges, step.edge[1:]); present != (step.edge[0] == '+') {
				t.Errorf("%s: edge %q present = %v", step.name, step.edge[1:], present)
			}
		}
	}
	exports, _ := os.ReadDir(filepath.Join(filepath.Dir(st.Path()), "go-export"))
	if len(exports) == 0 {
		t.Error("no export data written next to the store")
	}

	// go.mod alone (no .go file changed) reloads the module; the next Go edit
	// removes the export data the full load's snapshot no longer names.
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/inc\n\ngo 1.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, root, st, opts)
	if err != nil || rep.GoMode != "full" || !strings.Contains(rep.GoFullReason, "go.mod") {
		t.Fatalf("go.mod edit: %+v, %v", rep, err)
	}
	rewrite(t, root, "main.go", "func main() { ", "func main() {\n\tprintln()\n\t")
	if rep, err := Run(ctx, root, st, opts); err != nil || rep.GoMode != "incremental" {
		t.Fatalf("body edit after a full load: %+v, %v", rep, err)
	}
	if exports, _ := os.ReadDir(filepath.Join(filepath.Dir(st.Path()), "go-export")); len(exports) != 0 {
		t.Errorf("stale export data left: %v", exports)
	}
	sameAsRebuild(t, root, st, "after go.mod")
}

// An edit that does not type-check in an importer still takes a full load, which
// reports the error.
func TestGoSurfaceEditBreakingAnImporterReloads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := goModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	if _, err := Run(ctx, root, st, opts); err != nil {
		t.Fatal(err)
	}
	rewrite(t, root, "api/api.go", "func Use(s Store, k string) error", "func Use(s Store, k int) error")
	rewrite(t, root, "api/api.go", "return s.Put(k)", "return s.Put(\"\")")
	rep, err := Run(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoMode != "full" || !strings.Contains(rep.GoFullReason, "mem does not type-check") || rep.GoErrors == 0 {
		t.Fatalf("mode %q reason %q errors %d, want a full load reporting mem's error", rep.GoMode, rep.GoFullReason, rep.GoErrors)
	}
}
