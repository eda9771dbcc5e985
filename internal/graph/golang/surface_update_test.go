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

type fileEdit struct{ rel, old, new string }

// surfaceUpdateOpts are the options of a surface update, export data written under dir.
func surfaceUpdateOpts(dir string) Options { return Options{Tests: true, Env: offline, ExportDir: dir} }

// checkAsFullLoad asserts that the facts after an update (those of before,
// replaced by up's files) are a full load's, file by file, implements included.
func checkAsFullLoad(t *testing.T, before []graph.FileFacts, up *UpdateResult, full *Result) {
	t.Helper()
	for _, want := range full.Files {
		got, ok := factsOf(up.Files, want.Path)
		if !ok {
			if got, ok = factsOf(before, want.Path); !ok {
				t.Errorf("%s: no facts", want.Path)
				continue
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs from a full load\n got: %+v\nwant: %+v", want.Path, got, want)
		}
	}
	for _, f := range up.Files {
		if _, ok := factsOf(full.Files, f.Path); !ok {
			t.Errorf("update gave %s, a full load does not", f.Path)
		}
	}
}

func hasEdge(files []graph.FileFacts, kind graph.EdgeKind, from, to string) bool {
	for _, f := range files {
		for _, e := range f.Edges {
			if e.Kind == kind && e.From == from && e.To == to {
				return true
			}
		}
	}
	return false
}

// A surface edit re-checks the importers of the edited package and gives the
// facts of a full load, implements edges included; the snapshot it returns lets
// the next update read the fresh export data.
func TestUpdateSurfaceMatchesFullLoad(t *testing.T) {
	const (
		shapesGo = "shapes/shapes.go"
		appGo    = "app/app.go"
	)
	type edge struct {
		from, to string
		present  bool
	}
	cases := []struct {
		name  string
		pre   []fileEdit // applied before the first load
		edits []fileEdit
		edges []edge // implements edges the full load has, or lacks
		// redone and kept: files the update must return, or must not (unchanged
		// facts: an importer that cannot see the change, or whose re-check gives
		// the facts it had)
		redone, kept []string
	}{
		{"change reaching an importer's importer", []fileEdit{
			{appGo, "// Logger logs.", "// B is a square.\nvar B shapes.Square\n\n// Logger logs."},
			{"cmd/fixture/main.go", "func main() {", "var side = app.B.Side\n\nfunc main() {"}},
			[]fileEdit{{shapesGo, "Side float64 // length of a side", "Side float32 // length of a side"},
				{shapesGo, "func (s Square) Area() float64 { return s.Side * s.Side }", "func (s Square) Area() float64 { return float64(s.Side * s.Side) }"}},
			nil, []string{"cmd/fixture/main.go"}, nil},
		{"new type", nil, []fileEdit{{shapesGo, "// Sq is an alias.",
			"// Extra is new.\ntype Extra struct{}\n\nfunc (Extra) Area() float64 { return 1 }\n\nfunc (Extra) Name() string { return \"x\" }\n\n// Sq is an alias."}},
			[]edge{{"example.com/fixture/shapes.Extra", "example.com/fixture/shapes.Shape", true}},
			nil, []string{appGo, "cmd/fixture/main.go"}},
		// app and the example test call Describe: re-checked, their facts unchanged.
		{"changed signature", nil, []fileEdit{{shapesGo, "func Describe(s Shape) string", "func Describe(s Shape, _ ...int) string"}},
			nil, []string{shapesGo}, []string{appGo, "shapes/example_test.go", "cmd/fixture/main.go"}},
		{"new method", nil, []fileEdit{{appGo, "// Hello has a value receiver.", "// Name names it.\nfunc (b Base) Name() string { return \"base\" }\n\n// Hello has a value receiver."}},
			[]edge{{"example.com/fixture/app.Base", "example.com/fixture/shapes.Named", true}}, nil, nil},
		{"removed method", nil, []fileEdit{{shapesGo, "func (c Celsius) String() string { return fmt.Sprintf(\"%.1f°C\", float64(c)) }", ""}},
			[]edge{{"example.com/fixture/shapes.Celsius", "fmt.Stringer", false}}, nil, nil},
		{"renamed type", nil, []fileEdit{
			{shapesGo, "type Celsius float64\n\nfunc (c Celsius)", "type Temp float64\n\nfunc (c Temp)"},
			{appGo, "shapes.Celsius(3)", "shapes.Temp(3)"}},
			[]edge{{"example.com/fixture/shapes.Temp", "fmt.Stringer", true}}, nil, nil},
		{"changed struct field", nil, []fileEdit{{shapesGo, "Side float64 // length of a side", "Side  float64 // length of a side\n\tColor string"}}, nil, nil, nil},
		{"interface implemented in a package that does not import it", nil, []fileEdit{{appGo, "// Logger logs.",
			"// Areaer has an area.\ntype Areaer interface{ Area() float64 }\n\n// Logger logs."}},
			[]edge{{"example.com/fixture/shapes.Square", "example.com/fixture/app.Areaer", true},
				{"example.com/fixture/shapes.fakeShape", "example.com/fixture/app.Areaer", true}},
			[]string{shapesGo, "shapes/shapes_test.go"}, nil},
		{"interface losing its implementers", []fileEdit{{appGo, "// Hello has a value receiver.",
			"// Name names it.\nfunc (b Base) Name() string { return \"base\" }\n\n// Hello has a value receiver."}}, []fileEdit{{shapesGo, "type Named interface {\n\tName() string\n}",
			"type Named interface {\n\tName() string\n\tLog(msg string)\n}"}, {shapesGo, "func (s Square) Name() string { return \"square\" }",
			"func (s Square) Name() string { return \"square\" }\n\nfunc (s Square) Log(string) {}"}, {shapesGo, "func (c *Circle) Name() string { return \"circle\" }",
			"func (c *Circle) Name() string { return \"circle\" }\n\nfunc (c *Circle) Log(string) {}"},
			{"shapes/shapes_test.go", "func (fakeShape) Name() string  { return \"fake\" }", "func (fakeShape) Name() string  { return \"fake\" }\nfunc (fakeShape) Log(string)    {}"}},
			[]edge{{"example.com/fixture/app.Base", "example.com/fixture/shapes.Named", false}}, nil, nil},
		// container's export data leaves out sizer, which nothing exported reaches:
		// container is checked from source for the pair.
		{"unexported interface of a package out of reach", []fileEdit{{"container/container.go", "// Map applies f",
			"type sizer interface{ Area() float64 }\n\n// Map applies f"}},
			[]fileEdit{{shapesGo, "// Sq is an alias.", "// Extra is new.\ntype Extra struct{}\n\nfunc (Extra) Area() float64 { return 1 }\n\n// Sq is an alias."}},
			[]edge{{"example.com/fixture/shapes.Extra", "example.com/fixture/container.sizer", true}}, []string{shapesGo}, []string{"container/container.go"}},
		// holder's method mentions container's own Box: container is checked
		// again with the edited package, in one universe.
		{"unexported interface mentioning its package's types", []fileEdit{{"container/container.go", "// Map applies f",
			"// Box is boxed.\ntype Box struct{}\n\ntype holder interface{ Get() Box }\n\n// Map applies f"}},
			[]fileEdit{{shapesGo, "\"strings\"\n", "\"strings\"\n\n\t\"example.com/fixture/container\"\n"},
				{shapesGo, "// Sq is an alias.", "// Extra is new.\ntype Extra struct{}\n\nfunc (Extra) Get() container.Box { return container.Box{} }\n\n// Sq is an alias."}},
			[]edge{{"example.com/fixture/shapes.Extra", "example.com/fixture/container.holder", true}}, []string{shapesGo}, []string{"container/container.go"}},
		{"new import of a module package", nil, []fileEdit{{shapesGo, "\"strings\"\n", "\"strings\"\n\n\t\"example.com/fixture/container\"\n"},
			{shapesGo, "// Upper shouts the name.", "// Total adds.\nfunc Total() float64 { return container.Sum(Pi, Pi) }\n\n// Upper shouts the name."}}, nil, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t)
			for _, e := range tc.pre {
				edit(t, root, e.rel, e.old, e.new)
			}
			before := extractFixtureCopy(t, root)
			var rels []string
			for _, e := range tc.edits {
				edit(t, root, e.rel, e.old, e.new)
				rels = append(rels, e.rel)
			}
			opts := surfaceUpdateOpts(t.TempDir())
			up, err := Update(context.Background(), root, before.Snapshot, rels, opts)
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			if !up.Implements || up.Snapshot == nil {
				t.Fatalf("Update = %+v, want a surface update with a new snapshot", up)
			}
			full := extractFixtureCopy(t, root)
			checkAsFullLoad(t, before.Files, up, full)
			t.Logf("re-checked %d variants", up.Rechecked)
			if tc.name == "changed signature" && up.Rechecked != 4 {
				t.Errorf("re-checked %d variants, want shapes, its two test variants and app", up.Rechecked)
			}
			for _, rel := range tc.redone {
				if _, ok := factsOf(up.Files, rel); !ok {
					t.Errorf("%s was not returned", rel)
				}
			}
			for _, rel := range tc.kept {
				if _, ok := factsOf(up.Files, rel); ok {
					t.Errorf("%s was returned: its facts did not change", rel)
				}
			}
			for _, e := range tc.edges {
				if hasEdge(full.Files, graph.EdgeImplements, e.from, e.to) != e.present {
					t.Errorf("full load: implements %s -> %s present = %v, the case expects %v", e.from, e.to, !e.present, e.present)
				}
			}

			// The next update reads the export data this one wrote.
			edit(t, root, appGo, "func hello() {}", "func hello() { _ = shapes.Pi }")
			next, err := Update(context.Background(), root, up.Snapshot, []string{appGo}, opts)
			if err != nil {
				t.Fatalf("second Update: %v", err)
			}
			full = extractFixtureCopy(t, root)
			got, _ := factsOf(next.Files, appGo)
			want, _ := factsOf(full.Files, appGo)
			if !reflect.DeepEqual(withoutImplements(got), withoutImplements(want)) {
				t.Errorf("second update differs from a full load\n got: %+v\nwant: %+v", got, want)
			}
		})
	}
}

// What a surface update cannot do still takes a full load, with the reason.
func TestUpdateSurfaceRefusals(t *testing.T) {
	cases := []struct{ name, rel, old, new, reason string }{
		{"importer no longer type-checks", "shapes/shapes.go", "func Describe(", "func describe(", "example.com/fixture/app does not type-check"},
		{"import unknown to the last load", "shapes/shapes.go", "\"strings\"\n", "\"strings\"\n\t\"os\"\n", "imports os, unknown to the last load"},
		{"build constraint", "shapes/shapes.go", "// Package shapes", "//go:build linux\n\n// Package shapes", "build constraints"},
		{"test variant the last load did not make", "shapes/example_test.go", "\"fmt\"\n", "\"fmt\"\n\n\t\"example.com/fixture/app\"\n", "would need packages recompiled"},
		{"import cycle", "container/container.go", "package container\n", "package container\n\nimport \"example.com/fixture/app\"\n\nvar _ = app.New\n", "import cycle"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t)
			before := extractFixtureCopy(t, root)
			edit(t, root, tc.rel, tc.old, tc.new)
			_, err := Update(context.Background(), root, before.Snapshot, []string{tc.rel}, surfaceUpdateOpts(t.TempDir()))
			reason, ok := IsFullLoadNeeded(err)
			if !ok || !strings.Contains(reason, tc.reason) {
				t.Fatalf("Update = %v, want FullLoadNeeded mentioning %q", err, tc.reason)
			}
		})
	}
}

// CleanExports keeps the export data the snapshot names and nothing else.
func TestCleanExports(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"kept.gox", "stale.gox", "tmp-123", "other.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap := &Snapshot{Variants: map[string]*Variant{"p": {Export: filepath.Join(dir, "kept.gox")}}}
	CleanExports(dir, snap)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"kept.gox", "other.txt"}) {
		t.Errorf("left %v", names)
	}
}
