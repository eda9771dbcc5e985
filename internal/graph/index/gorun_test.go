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

func TestGoDeclarationEditReloadsTheModule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := goModule(t)
	st := openStore(t)
	opts := Options{Go: golang.DefaultOptions()}
	if _, err := Run(ctx, root, st, opts); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(root, "api", "api.go")
	src, _ := os.ReadFile(name)

	// A new function reaches nothing yet: incremental, and still equal to a rebuild.
	added := strings.Replace(string(src), "func Use(", "func UseIt(", 1) +
		"\n// Use stores k.\nfunc Use(s Store, k string) error { return UseIt(s, k) }\n"
	if err := os.WriteFile(name, []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ctx, root, st, opts)
	if err != nil || rep.GoMode != "incremental" {
		t.Fatalf("new function: %+v, %v; want an incremental run", rep, err)
	}
	fresh := openStore(t)
	if _, err := Run(ctx, root, fresh, Options{Go: golang.DefaultOptions(), Rebuild: true}); err != nil {
		t.Fatal(err)
	}
	got, want := dump(t, st), dump(t, fresh)
	for table := range want {
		if !reflect.DeepEqual(got[table], want[table]) {
			t.Errorf("%s after adding a function differs from a rebuild\n got: %q\nwant: %q", table, got[table], want[table])
		}
	}

	// A changed signature reaches its callers in other packages (mem calls Use):
	// full load.
	changed := strings.Replace(added, "func Use(s Store, k string) error", "func Use(s Store, k string, more ...int) error", 1)
	if err := os.WriteFile(name, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Run(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoMode != "full" || !strings.Contains(rep.GoFullReason, "declarations") || !strings.Contains(rep.GoFullReason, "Use changed") {
		t.Fatalf("declaration edit: mode %q reason %q, want a full load saying why", rep.GoMode, rep.GoFullReason)
	}
	// go.mod alone (no .go file changed) reloads too.
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/inc\n\ngo 1.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Run(ctx, root, st, opts)
	if err != nil || rep.GoMode != "full" || !strings.Contains(rep.GoFullReason, "go.mod") {
		t.Fatalf("go.mod edit: %+v, %v", rep, err)
	}
}
