package main

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// The yardstick must not be the thing it measures: nothing of the engine may be
// linked in, directly or through a dependency.
func TestImportsNothingOfTheEngine(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const self = "github.com/etalab-ia/albert-code/"
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, self) && !strings.HasPrefix(p, self+"bench/graphacc/") {
			t.Errorf("gt-go depends on %s: only bench/graphacc packages are allowed", p)
		}
	}
}

// fixture extracts the harness's test corpus once for every test that reads it.
var fixture = sync.OnceValues(func() (*truth.File, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return Extract(ctx, "../testdata")
})

// view names the ground truth's keys by qualified name, without the module path.
type view struct {
	f    *truth.File
	name map[string]string
}

func load(t *testing.T) view {
	t.Helper()
	f, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	v := view{f: f, name: map[string]string{}}
	for _, d := range f.Definitions {
		q := strings.TrimPrefix(d.Qualified, "example.com/accfixture/")
		if prev, ok := v.name[d.Key]; ok {
			q = prev + "|" + q
		}
		v.name[d.Key] = q
	}
	return v
}

func (v view) n(key string) string {
	if s, ok := v.name[key]; ok {
		return s
	}
	return key
}

func (v view) calls() []string {
	var out []string
	for _, c := range v.f.Calls {
		out = append(out, v.n(c.From)+" -> "+v.n(c.To)+" "+c.Dispatch)
	}
	return out
}

func (v view) refs() []string {
	var out []string
	for _, r := range v.f.References {
		out = append(out, v.n(r.From)+" -> "+v.n(r.To))
	}
	return out
}

func TestCalls(t *testing.T) {
	t.Parallel()
	v := load(t)
	calls := v.calls()
	for _, want := range []string{
		"geom.CountBig -> geom.Shape.Area interface",            // in a closure, folded; through an interface
		"geom.CountBig -> geom.Walk static",                     // the call that takes the closure
		"geom.SumNamed -> geom.Total static",                    // in an immediately invoked literal
		"geom.perimeterOf -> geom.Circle.Perimeter static",      // a method expression
		"geom.StackShapes -> geom.(*Stack).Push static",         // a generic type's method, instantiated
		"geom.StackShapes -> geom.NewStack static",              // an explicit instantiation
		"geom.CircleAreas -> geom.Largest static",               // F[T](x)
		"geom.Square.Diagonal -> geom.(*Rect).Perimeter static", // promoted through *Rect
		"geom_test.ExampleNewSquare -> geom.(*Rect).Area static",
		"geom.Largest -> geom.Shape.Area interface", // through a type parameter's constraint
		"store.(*Cache).Get -> store.Store.Get interface",
		"cmd/report.main -> store.Store.Put interface", // promoted from an embedded interface
		"geom.TestTotal -> geom.check static",          // from an in-package test
	} {
		if !slices.Contains(calls, want) {
			t.Errorf("missing call %s", want)
		}
	}
	for _, c := range calls {
		for _, banned := range []string{
			"geom.Describe -> geom.Shape.Area",     // a method value is taken, not called
			"geom.CircleAreas -> geom.Circle.Area", // passed as a value
			"geom.Lookup -> geom.unitCircle",       // called through a map of functions
			"geom/registry.go -> ",                 // package-level initialisers call for nobody
		} {
			if strings.HasPrefix(c, banned) {
				t.Errorf("call %s should not be there", c)
			}
		}
	}
}

func TestUnresolvableCalls(t *testing.T) {
	t.Parallel()
	v := load(t)
	var got []string
	for _, u := range v.f.Unresolvable {
		got = append(got, v.n(u.From)+" "+u.Name)
	}
	want := []string{
		"cmd/report.main hits",    // a method value called later
		"geom.Describe area",      // the same
		"geom.describeName Color", // a method of an anonymous interface
		"geom.Lookup f",           // a function from a map
		"geom.MapAreas f",         // a function parameter
		"geom.Walk visit",         // the same
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("unresolvable calls:\n got %q\nwant %q", got, want)
	}
}

func TestReferences(t *testing.T) {
	t.Parallel()
	v := load(t)
	refs := v.refs()
	for _, want := range []string{
		"geom.registry -> geom.unitCircle",       // a variable's initialiser
		"geom.defaultShape -> geom.NewRect",      // a call at package level is a reference
		"geom.Describe -> geom.Shape.Area",       // a method value
		"geom.CircleAreas -> geom.Circle.Area",   // a method expression passed as a value
		"geom.Square.Rect -> geom.Rect",          // an embedded field names its type
		"geom.Sized -> geom.Shape",               // an embedded interface: the type's use
		"geom.Circle.Area -> geom.Circle",        // the receiver's type
		"geom.TestTotal -> geom.Total",           // calls are references too
		"store.(*Cache).Get -> store.Cache.hits", // a field through the receiver
	} {
		if !slices.Contains(refs, want) {
			t.Errorf("missing reference %s", want)
		}
	}
}

func TestImplementations(t *testing.T) {
	t.Parallel()
	v := load(t)
	var got []string
	for _, i := range v.f.Implementations {
		got = append(got, v.n(i.Type)+" : "+v.n(i.Interface))
	}
	want := []string{
		"geom.Circle : geom.Named", "geom.Circle : geom.Shape", "geom.Circle : geom.Sized", // value receivers
		"geom.Rect : geom.Named", "geom.Rect : geom.Shape", "geom.Rect : geom.Sized", // pointer receivers
		"geom.Square : geom.Named", "geom.Square : geom.Shape", "geom.Square : geom.Sized", // promoted through *Rect
		"geom.fakeShape|geom.fakeShape.area : geom.Shape", // a test type; its field shares its line
		"store.Cache : store.Store",                       // through the embedded interface
		"store.memStore : store.Store",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("implementations:\n got %q\nwant %q", got, want)
	}
}

func TestUniverseAndDefinitions(t *testing.T) {
	t.Parallel()
	v := load(t)
	if slices.Contains(v.f.Files, "store/store_windows.go") {
		t.Error("store_windows.go is excluded by its build tag on linux, yet in the file universe")
	}
	for _, f := range []string{"geom/shape_test.go", "geom/example_test.go", "geom/zz_generated.go"} {
		if !slices.Contains(v.f.Files, f) {
			t.Errorf("%s is missing from the file universe", f)
		}
	}
	byName := map[string]truth.Definition{}
	for _, d := range v.f.Definitions {
		byName[strings.TrimPrefix(d.Qualified, "example.com/accfixture/")] = d
	}
	for q, want := range map[string]truth.Definition{
		"geom.generatedArea":     {Key: "geom/zz_generated.go:5", Kind: truth.KindFunction, Generated: true},
		"geom.Shape.Area":        {Key: "geom/shape.go:9", Kind: truth.KindMethod, Abstract: true},
		"geom.(*Stack).Push":     {Key: "geom/stack.go:10", Kind: truth.KindMethod},
		"geom.Stack":             {Key: "geom/stack.go:4", Kind: truth.KindStruct},
		"geom.point.y":           {Key: "geom/rect.go:18", Kind: truth.KindField},
		"geom.Square.Rect":       {Key: "geom/square.go:5", Kind: truth.KindField},
		"geom.registry":          {Key: "geom/registry.go:4", Kind: truth.KindVariable},
		"store.Store":            {Key: "store/store.go:6", Kind: truth.KindInterface},
		"geom_test.TestCountBig": {Key: "geom/example_test.go:10", Kind: truth.KindFunction},
	} {
		got, ok := byName[q]
		if !ok {
			t.Errorf("no definition %s", q)
			continue
		}
		if got.Key != want.Key || got.Kind != want.Kind || got.Generated != want.Generated || got.Abstract != want.Abstract {
			t.Errorf("%s = %+v, want key %s kind %s generated %v abstract %v", q, got, want.Key, want.Kind, want.Generated, want.Abstract)
		}
	}
}

// Two runs write the same bytes (codegraph-eval §5.5: determinism).
func TestDeterministic(t *testing.T) {
	t.Parallel()
	first, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	second, err := Extract(ctx, "../testdata")
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := first.Write(&a); err != nil {
		t.Fatal(err)
	}
	if err := second.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two extractions of the same module differ")
	}
}
