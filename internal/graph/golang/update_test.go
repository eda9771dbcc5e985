package golang

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// copyFixture copies the fixture module to a temporary directory that the test
// may edit.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "fixture")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	name := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func extractFixtureCopy(t *testing.T, root string) *Result {
	t.Helper()
	res, err := Extract(context.Background(), root, Options{Tests: true, Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	if res.Snapshot == nil {
		t.Fatal("no snapshot")
	}
	return res
}

func factsOf(res []graph.FileFacts, rel string) (graph.FileFacts, bool) {
	for _, f := range res {
		if f.Path == rel {
			return f, true
		}
	}
	return graph.FileFacts{}, false
}

func withoutImplements(f graph.FileFacts) graph.FileFacts {
	var edges []graph.Edge
	for _, e := range f.Edges {
		if e.Kind != graph.EdgeImplements {
			edges = append(edges, e)
		}
	}
	f.Edges = edges
	return f
}

// An edit inside bodies, which moves lines and changes calls, gives exactly the
// facts a full load gives, implements edges aside (Update leaves them to the
// caller, since it refuses any change that could alter them).
func TestUpdateMatchesFullLoad(t *testing.T) {
	cases := []struct{ name, rel, old, new string }{
		{"body edit moving lines", "shapes/shapes.go", "func (c *Circle) Area() float64 { return Pi * c.R * c.R }",
			"func (c *Circle) Area() float64 {\n\t// two lines more\n\treturn Pi * c.R * c.R * float64(len(c.Name()))\n}"},
		{"package doc file", "shapes/shapes.go", "// Package shapes is the fixture's interface package",
			"// Package shapes, edited, is the fixture's interface package"},
		{"in-package test file", "shapes/shapes_test.go", `if got := Describe(fakeShape{}); got == "" {`,
			"if got := Describe(fakeShape{}); got == \"\" || Default.Area() < 0 {"},
		{"fields and generics of other packages", "app/app.go", "\tw.Describe()\n", "\tw.Describe()\n\t_ = shapes.Square{Side: 3}.Side\n\t_ = container.Sum[float64](1, 2)\n"},
		{"main package", "cmd/fixture/main.go", "func main() {", "func main() {\n\tprintln(\"start\")"},
		{"new function and constant", "shapes/shapes.go", "// Sq is an alias.",
			"// Extra is new.\nfunc Extra() float64 { return Pi * Default.Area() }\n\nconst Tau = 2 * Pi\n\n// Sq is an alias."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t)
			before := extractFixtureCopy(t, root)
			edit(t, root, tc.rel, tc.old, tc.new)
			up, err := Update(context.Background(), root, before.Snapshot, []string{tc.rel}, Options{Tests: true, Env: offline})
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			if len(up.Files) != 1 || len(up.Syntactic) != 0 {
				t.Fatalf("Update gave %d files and syntactic %v, want the one edited file", len(up.Files), up.Syntactic)
			}
			full := extractFixtureCopy(t, root)
			want, ok := factsOf(full.Files, tc.rel)
			if !ok {
				t.Fatalf("full load has no %s", tc.rel)
			}
			got := up.Files[0]
			if !reflect.DeepEqual(withoutImplements(got), withoutImplements(want)) {
				t.Errorf("Update facts differ from a full load\n got: %+v\nwant: %+v", withoutImplements(got), withoutImplements(want))
			}
		})
	}
}

func TestUpdateRefusesWhatReachesOtherPackages(t *testing.T) {
	cases := []struct{ name, rel, old, new, reason string }{
		{"new method", "shapes/shapes.go", "// Sq is an alias.", "func (c Celsius) Kelvin() float64 { return float64(c) + 273.15 }\n\n// Sq is an alias.", "declarations"},
		{"struct tag", "shapes/shapes.go", "Side float64 // length of a side", "Side float64 `json:\"side\"`", "declarations"},
		{"new type", "shapes/shapes.go", "// Sq is an alias.", "type Extra struct{}\n\nfunc (Extra) Area() float64 { return 0 }\n\n// Sq is an alias.", "new type Extra"},
		{"removed function", "shapes/shapes.go", "func Describe(", "func describe(", "Describe removed"},
		{"constant value", "shapes/shapes.go", "const Pi = 3.14", "const Pi = 3.1416", "declarations"},
		{"imports", "shapes/shapes.go", "\"strings\"\n", "\"strings\"\n\t\"os\"\n", "imports"},
		{"build constraint", "shapes/shapes.go", "// Package shapes", "//go:build linux\n\n// Package shapes", "build constraints"},
		{"type error", "shapes/shapes.go", "return Pi * c.R * c.R", "return Pi * c.R * undefinedName", "type-check"},
		{"syntax error", "shapes/shapes.go", "return Pi * c.R * c.R", "return Pi * (c.R", "parse"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t)
			before := extractFixtureCopy(t, root)
			edit(t, root, tc.rel, tc.old, tc.new)
			_, err := Update(context.Background(), root, before.Snapshot, []string{tc.rel}, Options{Tests: true, Env: offline})
			reason, ok := IsFullLoadNeeded(err)
			if !ok {
				t.Fatalf("Update = %v, want FullLoadNeeded", err)
			}
			if !strings.Contains(reason, tc.reason) {
				t.Errorf("reason %q does not mention %q", reason, tc.reason)
			}
		})
	}
}

func TestUpdateRefusesStaleSnapshot(t *testing.T) {
	root := copyFixture(t)
	before := extractFixtureCopy(t, root)
	opts := Options{Tests: true, Env: offline}

	edit(t, root, "go.mod", "module", "// edited\nmodule")
	if reason, ok := IsFullLoadNeeded(mustUpdateErr(t, root, before.Snapshot, opts)); !ok || !strings.Contains(reason, "go.mod") {
		t.Errorf("go.mod edit: reason %q", reason)
	}
	if _, ok := IsFullLoadNeeded(mustUpdateErr(t, root, before.Snapshot, Options{Env: offline})); !ok {
		t.Error("other options: want FullLoadNeeded")
	}
	if _, ok := IsFullLoadNeeded(mustUpdateErr(t, root, nil, opts)); !ok {
		t.Error("no snapshot: want FullLoadNeeded")
	}
}

func mustUpdateErr(t *testing.T, root string, snap *Snapshot, opts Options) error {
	t.Helper()
	_, err := Update(context.Background(), root, snap, []string{"app/app.go"}, opts)
	if err == nil {
		t.Fatal("Update succeeded")
	}
	return err
}

// A file outside every build (testdata) is left to the syntactic extractor; a
// missing export data file (a trimmed build cache) means a full load.
func TestUpdateSyntacticAndMissingExport(t *testing.T) {
	root := copyFixture(t)
	if err := os.MkdirAll(filepath.Join(root, "app", "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "app", "testdata", "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := extractFixtureCopy(t, root)
	opts := Options{Tests: true, Env: offline}
	up, err := Update(context.Background(), root, before.Snapshot, []string{"app/testdata/x.go"}, opts)
	if err != nil || len(up.Files) != 0 || !reflect.DeepEqual(up.Syntactic, []string{"app/testdata/x.go"}) {
		t.Fatalf("Update = %+v, %v; want the file left to the syntactic extractor", up, err)
	}

	snap := before.Snapshot
	key := snap.Files["app/app.go"].Variant
	v := *snap.Variants[key]
	v.Imports = map[string]Import{}
	for p, imp := range snap.Variants[key].Imports {
		imp.Export = filepath.Join(root, "gone.a")
		v.Imports[p] = imp
	}
	snap.Variants[key] = &v
	_, err = Update(context.Background(), root, snap, []string{"app/app.go"}, opts)
	if reason, ok := IsFullLoadNeeded(err); !ok || !strings.Contains(reason, "export data") {
		t.Fatalf("missing export data: %v", err)
	}
}
