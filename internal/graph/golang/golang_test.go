package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

var update = flag.Bool("update", false, "rewrite testdata/fixture.golden.json")

// offline proves the fixture needs nothing from the network: it requires no module.
var offline = []string{"GOPROXY=off", "GOFLAGS=-mod=readonly"}

var fixture = sync.OnceValues(func() (*Result, error) {
	return Extract(context.Background(), filepath.Join("testdata", "fixture"), Options{Tests: true, Env: offline})
})

func mustFixture(t *testing.T) *Result {
	t.Helper()
	res, err := fixture()
	if err != nil {
		t.Fatalf("Extract(fixture): %v", err)
	}
	return res
}

func TestGolden(t *testing.T) {
	t.Parallel()
	res := mustFixture(t)
	got, err := json.MarshalIndent(struct {
		Files  []graph.FileFacts `json:"files"`
		Errors []Error           `json:"errors"`
	}{res.Files, res.Errors}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "fixture.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("facts differ from %s; run go test -run TestGolden -update and review the diff", golden)
	}
}

// index is the fixture's facts, flattened for assertions.
type index struct {
	nodes      map[string]graph.Node
	nodeCount  map[string]int
	edges      map[edgeKey][]graph.Edge
	unresolved []graph.Unresolved
	files      map[string]graph.FileFacts
}

type edgeKey struct {
	kind     graph.EdgeKind
	from, to string
}

func indexOf(res *Result) *index {
	ix := &index{nodes: map[string]graph.Node{}, nodeCount: map[string]int{}, edges: map[edgeKey][]graph.Edge{}, files: map[string]graph.FileFacts{}}
	for _, f := range res.Files {
		ix.files[f.Path] = f
		for _, n := range f.Nodes {
			ix.nodes[n.QName] = n
			ix.nodeCount[n.QName]++
		}
		for _, e := range f.Edges {
			k := edgeKey{e.Kind, e.From, e.To}
			ix.edges[k] = append(ix.edges[k], e)
		}
		ix.unresolved = append(ix.unresolved, f.Unresolved...)
	}
	return ix
}

const (
	fx     = "example.com/fixture/"
	shapes = fx + "shapes"
	app    = fx + "app"
	contnr = fx + "container"
)

func TestNodes(t *testing.T) {
	t.Parallel()
	ix := indexOf(mustFixture(t))
	tests := []struct {
		qname string
		kind  graph.NodeKind
		file  string
		line  int
		col   int
		sig   string
	}{
		{shapes, graph.KindPackage, "shapes/registry.go", 1, 9, "package shapes"},
		{shapes + "_test", graph.KindPackage, "shapes/example_test.go", 1, 9, "package shapes_test"},
		{"shapes/shapes.go", graph.KindFile, "shapes/shapes.go", 1, 0, ""},
		{shapes + ".Shape", graph.KindInterface, "shapes/shapes.go", 16, 6, "type Shape interface"},
		{shapes + ".Shape.Area", graph.KindMethod, "shapes/shapes.go", 18, 2, "func (Shape) Area() float64"},
		{shapes + ".Square", graph.KindStruct, "shapes/shapes.go", 22, 6, "type Square struct"},
		{shapes + ".Square.Side", graph.KindField, "shapes/shapes.go", 23, 2, "field Side float64"},
		{shapes + ".Circle.Area", graph.KindMethod, "shapes/shapes.go", 37, 18, "func (c *Circle) Area() float64"},
		{shapes + ".Celsius", graph.KindType, "shapes/shapes.go", 42, 6, "type Celsius float64"},
		{shapes + ".Sq", graph.KindTypeAlias, "shapes/shapes.go", 47, 6, "type Sq = Square"},
		{shapes + ".Pi", graph.KindConstant, "shapes/shapes.go", 50, 7, "const Pi untyped float = 3.14"},
		{shapes + ".Default", graph.KindVariable, "shapes/shapes.go", 53, 5, "var Default Shape"},
		{shapes + ".init@shapes.go", graph.KindFunction, "shapes/shapes.go", 75, 6, "func init()"},
		{shapes + ".init@registry.go", graph.KindFunction, "shapes/registry.go", 3, 6, "func init()"},
		{shapes + ".fakeShape", graph.KindStruct, "shapes/shapes_test.go", 5, 6, "type fakeShape struct"},
		{shapes + ".TestDescribe", graph.KindFunction, "shapes/shapes_test.go", 10, 6, "func TestDescribe(t *testing.T)"},
		{shapes + "_test.ExampleDescribe", graph.KindFunction, "shapes/example_test.go", 9, 6, "func ExampleDescribe()"},
		{contnr + ".Stack", graph.KindStruct, "container/container.go", 5, 6, "type Stack[T any] struct"},
		{contnr + ".Stack.Push", graph.KindMethod, "container/container.go", 10, 20, "func (s *Stack[T]) Push(v T)"},
		{contnr + ".Map", graph.KindFunction, "container/container.go", 29, 6, "func Map[T, U any](xs []T, f func(T) U) []U"},
		{app + ".Widget.Base", graph.KindField, "app/app.go", 31, 2, "field Base Base"},
		{app + ".Widget.OnClick", graph.KindField, "app/app.go", 33, 2, "field OnClick func()"},
		{fx + "cmd/fixture.main", graph.KindFunction, "cmd/fixture/main.go", 6, 6, "func main()"},
	}
	for _, tc := range tests {
		n, ok := ix.nodes[tc.qname]
		if !ok {
			t.Errorf("node %s missing", tc.qname)
			continue
		}
		if n.Kind != tc.kind || n.File != tc.file || n.Line != tc.line || n.Col != tc.col || n.Signature != tc.sig {
			t.Errorf("node %s = %s %s:%d:%d %q; want %s %s:%d:%d %q",
				tc.qname, n.Kind, n.File, n.Line, n.Col, n.Signature, tc.kind, tc.file, tc.line, tc.col, tc.sig)
		}
	}
	for q, c := range ix.nodeCount {
		if c > 1 {
			t.Errorf("node %s emitted %d times", q, c)
		}
		if strings.HasSuffix(q, "._") || strings.Contains(q, "._.") {
			t.Errorf("blank identifier emitted as %s", q)
		}
	}
	if d := ix.nodes[shapes+".Square.Side"].Doc; d != "length of a side" {
		t.Errorf("Square.Side doc = %q", d)
	}
	if d := ix.nodes[shapes].Doc; !strings.HasPrefix(d, "Package shapes is the fixture's") {
		t.Errorf("package doc = %q", d)
	}
	if n := ix.nodes[app+".hello"]; n.Exported || !ix.nodes[app+".New"].Exported {
		t.Errorf("Exported: hello=%v New=%v", n.Exported, ix.nodes[app+".New"].Exported)
	}
	if n := ix.nodes[contnr+".Stack.Pop"]; n.EndLine != 21 {
		t.Errorf("Stack.Pop EndLine = %d, want 21", n.EndLine)
	}
}

func TestEdges(t *testing.T) {
	t.Parallel()
	ix := indexOf(mustFixture(t))
	run := app + ".Widget.Run"
	tests := []struct {
		name string
		kind graph.EdgeKind
		from string
		to   string
		want bool
	}{
		{"promoted method: the declaring type", graph.EdgeCalls, run, app + ".Base.Describe", true},
		{"promoted method: not the embedding type", graph.EdgeCalls, run, app + ".Widget.Describe", false},
		{"promoted field", graph.EdgeReferences, run, app + ".Base.ID", true},
		{"method value is a reference", graph.EdgeReferences, run, app + ".Base.Hello", true},
		{"method value is not a call", graph.EdgeCalls, run, app + ".Base.Hello", false},
		{"closure folds into the method", graph.EdgeCalls, run, shapes + ".Describe", true},
		{"closure's external call", graph.EdgeCalls, run, "fmt.Println", true},
		{"generic method: the origin", graph.EdgeCalls, run, contnr + ".Stack.Push", true},
		{"generic function inferred", graph.EdgeCalls, run, contnr + ".Map", true},
		{"generic function instantiated", graph.EdgeCalls, run, contnr + ".Sum", true},
		{"function passed as a value", graph.EdgeReferences, run, "strconv.Itoa", true},
		{"function passed as a value is not a call", graph.EdgeCalls, run, "strconv.Itoa", false},
		{"method expression is a call", graph.EdgeCalls, run, shapes + ".Square.Area", true},
		{"interface call: the interface method", graph.EdgeCalls, run, shapes + ".Shape.Area", true},
		{"interface call: not an implementation", graph.EdgeCalls, run, shapes + ".Circle.Area", false},
		{"immediately invoked literal's body", graph.EdgeCalls, run, app + ".hello", true},
		{"conversion is not a call", graph.EdgeCalls, run, shapes + ".Celsius", false},
		{"conversion is a reference", graph.EdgeReferences, run, shapes + ".Celsius", true},
		{"func-typed field read", graph.EdgeReferences, run, app + ".Widget.OnClick", true},
		{"embedded interface method call", graph.EdgeCalls, shapes + ".Describe", shapes + ".Named.Name", true},
		{"standard library call", graph.EdgeCalls, shapes + ".Upper", "strings.ToUpper", true},
		{"composite literal key", graph.EdgeReferences, app + ".New", app + ".Widget.OnClick", true},
		{"function as a field value", graph.EdgeReferences, app + ".New", app + ".hello", true},
		{"var initialiser call belongs to the variable", graph.EdgeCalls, shapes + ".total", shapes + ".sum", true},
		{"var initialiser call not to the package", graph.EdgeCalls, shapes, shapes + ".sum", false},
		{"alias names its target", graph.EdgeExtends, shapes + ".Sq", shapes + ".Square", true},
		{"blank var references belong to the package", graph.EdgeReferences, shapes, shapes + ".Circle", true},
		{"field type reference from the field", graph.EdgeReferences, app + ".Widget.shape", shapes + ".Shape", true},
		{"init in another file", graph.EdgeCalls, shapes + ".init@registry.go", shapes + ".Register", true},
		{"test file calls its package", graph.EdgeCalls, shapes + ".TestDescribe", shapes + ".Describe", true},
		{"external test package", graph.EdgeCalls, shapes + "_test.ExampleDescribe", shapes + ".Describe", true},
		{"main calls across packages", graph.EdgeCalls, fx + "cmd/fixture.main", app + ".Widget.Run", true},
		{"value receiver", graph.EdgeImplements, shapes + ".Square", shapes + ".Shape", true},
		{"pointer receiver", graph.EdgeImplements, shapes + ".Circle", shapes + ".Shape", true},
		{"test type", graph.EdgeImplements, shapes + ".fakeShape", shapes + ".Shape", true},
		{"promoted pointer method via *Widget", graph.EdgeImplements, app + ".Widget", app + ".Describer", true},
		{"pointer method of Base", graph.EdgeImplements, app + ".Base", app + ".Describer", true},
		{"no method, no edge", graph.EdgeImplements, shapes + ".Celsius", shapes + ".Shape", false},
		{"interface to interface is extends", graph.EdgeImplements, shapes + ".Shape", shapes + ".Named", false},
		{"alias is not a type of its own", graph.EdgeImplements, shapes + ".Sq", shapes + ".Shape", false},
		{"fmt.Stringer", graph.EdgeImplements, shapes + ".Celsius", "fmt.Stringer", true},
		{"cross-package interface", graph.EdgeImplements, app + ".stdoutLogger", app + ".Logger", true},
		{"interface embedding", graph.EdgeExtends, shapes + ".Shape", shapes + ".Named", true},
		{"standard interface embedding", graph.EdgeExtends, app + ".ReadLogger", "io.Reader", true},
		{"struct embedding", graph.EdgeExtends, app + ".Widget", app + ".Base", true},
		{"package contains function", graph.EdgeContains, shapes, shapes + ".Describe", true},
		{"package does not contain methods", graph.EdgeContains, shapes, shapes + ".Square.Area", false},
		{"type contains method", graph.EdgeContains, shapes + ".Circle", shapes + ".Circle.Area", true},
		{"type contains field", graph.EdgeContains, app + ".Widget", app + ".Widget.OnClick", true},
		{"interface contains method", graph.EdgeContains, shapes + ".Shape", shapes + ".Shape.Area", true},
		{"file imports package", graph.EdgeImports, "app/app.go", shapes, true},
		{"file imports standard package", graph.EdgeImports, "app/app.go", "io", true},
	}
	for _, tc := range tests {
		es, got := ix.edges[edgeKey{tc.kind, tc.from, tc.to}]
		if got != tc.want {
			t.Errorf("%s: edge %s %s → %s present = %v, want %v", tc.name, tc.kind, tc.from, tc.to, got, tc.want)
			continue
		}
		for _, e := range es {
			if e.Resolution != graph.ResolvedTypes || e.Confidence != 1 || e.Line == 0 || e.File == "" {
				t.Errorf("%s: edge %+v: want resolution types, confidence 1, a site", tc.name, e)
			}
		}
	}
	for k := range ix.edges {
		if k.kind == graph.EdgeImplements && k.to == contnr+".Number" {
			t.Errorf("constraint interface got an implementer: %s", k.from)
		}
		if k.kind == graph.EdgeCalls && (k.to == "len" || k.to == "append" || strings.HasSuffix(k.to, ".Celsius")) {
			t.Errorf("builtin or conversion recorded as a call: %s → %s", k.from, k.to)
		}
	}
	// The call sites of Run, line by line: one edge per site.
	if es := ix.edges[edgeKey{graph.EdgeCalls, run, app + ".Base.Describe"}]; len(es) != 1 || es[0].Line != 44 || es[0].File != "app/app.go" {
		t.Errorf("Run → Base.Describe sites = %+v, want one at app/app.go:44", es)
	}
}

func TestUnresolved(t *testing.T) {
	t.Parallel()
	ix := indexOf(mustFixture(t))
	got := map[string]graph.Unresolved{}
	for _, u := range ix.unresolved {
		got[u.From+" "+u.Name] = u
	}
	for _, want := range []struct {
		key  string
		line int
	}{
		{app + ".Widget.Run f", 47},
		{app + ".Widget.Run w.OnClick", 48},
		{app + ".Widget.Run Handlers()[0]", 62},
		{contnr + ".Map f", 32},
	} {
		u, ok := got[want.key]
		if !ok {
			t.Errorf("unresolved %q missing; have %v", want.key, ix.unresolved)
			continue
		}
		if u.Line != want.line || u.Reason != reasonFuncValue || u.Kind != graph.EdgeCalls {
			t.Errorf("unresolved %q = %+v, want line %d, reason %q", want.key, u, want.line, reasonFuncValue)
		}
	}
	if len(ix.unresolved) != 4 {
		t.Errorf("unresolved sites = %d, want 4: %+v", len(ix.unresolved), ix.unresolved)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	res := mustFixture(t)
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
		data, err := os.ReadFile(filepath.Join("testdata", "fixture", filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if f.Size != int64(len(data)) || len(f.Hash) != 64 || f.Language != "go" {
			t.Errorf("%s: size %d hash %q language %q", f.Path, f.Size, f.Hash, f.Language)
		}
	}
	want := "app/app.go cmd/fixture/main.go container/container.go shapes/example_test.go shapes/registry.go shapes/shapes.go shapes/shapes_test.go"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("files = %s\nwant    %s", got, want)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors: %v", res.Errors)
	}
}

func TestWithoutTests(t *testing.T) {
	t.Parallel()
	res, err := Extract(context.Background(), filepath.Join("testdata", "fixture"), Options{Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	ix := indexOf(res)
	if _, ok := ix.files["shapes/shapes_test.go"]; ok {
		t.Error("Tests: false still analysed shapes_test.go")
	}
	if n := ix.nodes[shapes]; n.File != "shapes/registry.go" {
		t.Errorf("package node in %s, want the same file as with tests", n.File)
	}
}

// Dependencies read from export data or type-checked from source name the same
// objects.
func TestFromSource(t *testing.T) {
	t.Parallel()
	res, err := Extract(context.Background(), filepath.Join("testdata", "fixture"), Options{Tests: true, FromSource: true, Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	want := mustFixture(t)
	if !reflect.DeepEqual(res.Files, want.Files) {
		t.Error("facts differ between export data and FromSource")
	}
}

func TestNoModule(t *testing.T) {
	t.Parallel()
	_, err := Extract(context.Background(), t.TempDir(), DefaultOptions())
	if !errors.Is(err, ErrNoModule) {
		t.Errorf("err = %v, want ErrNoModule", err)
	}
}

func TestBrokenModule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/broken\n\ngo 1.26\nrequire (\n")
	write(t, dir, "a.go", "package broken\n")
	_, err := Extract(context.Background(), dir, Options{Env: offline})
	if err == nil || errors.Is(err, ErrNoModule) {
		t.Errorf("err = %v, want a load error", err)
	}
}

func TestBrokenCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/broken\n\ngo 1.26\n")
	write(t, dir, "ok.go", "package broken\n\nfunc Good() int { return helper() }\n\nfunc helper() int { return undefined }\n")
	write(t, dir, "bad.go", "package broken\n\nfunc Bad( {\n")
	write(t, dir, "nested/go.mod", "module example.com/nested\n\ngo 1.26\n")
	write(t, dir, "nested/n.go", "package nested\n\nfunc N() {}\n")
	res, err := Extract(context.Background(), dir, Options{Tests: true, Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	ix := indexOf(res)
	if ix.files["bad.go"].ParseError == "" {
		t.Error("bad.go: no ParseError")
	}
	if _, ok := ix.edges[edgeKey{graph.EdgeCalls, "example.com/broken.Good", "example.com/broken.helper"}]; !ok {
		t.Error("a package with errors lost what go/types resolved")
	}
	var kinds []string
	for _, e := range res.Errors {
		kinds = append(kinds, e.Kind)
	}
	if k := strings.Join(kinds, ","); !strings.Contains(k, "parse") {
		t.Errorf("error kinds = %s, want a parse error", k)
	}
	if _, ok := ix.nodes["example.com/nested.N"]; !ok {
		t.Error("nested module not loaded")
	}
	if len(res.Modules) != 2 || res.Modules[1].Dir != "nested" {
		t.Errorf("modules = %+v", res.Modules)
	}
}

func TestCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, filepath.Join("testdata", "fixture"), Options{Env: offline}); err == nil {
		t.Error("Extract with a cancelled context succeeded")
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
