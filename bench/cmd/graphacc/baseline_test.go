package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

func fixtureBaseline(t *testing.T) (*baseline, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	b, err := newBaseline(ctx, "../../graphacc/testdata", "go")
	if err != nil {
		t.Fatal(err) // .ci/run installs ripgrep and universal-ctags
	}
	return b, ctx
}

func keysOf(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Kind == "file" {
			out = append(out, it.SiteFile)
			continue
		}
		out = append(out, truth.Key(it.File, it.Line))
	}
	slices.Sort(out)
	return out
}

func TestBaselineAnswers(t *testing.T) {
	t.Parallel()
	b, ctx := fixtureBaseline(t)
	for _, c := range []struct {
		kind string
		def  truth.Definition
		want []string
	}{
		// Calls of NewRect( in functions; the package-level initialiser is nobody's.
		{Callers, truth.Definition{Key: "geom/rect.go:9", Name: "NewRect"},
			[]string{"geom/example_test.go:10", "geom/shape_test.go:12", "geom/square.go:9"}},
		// Every function named like a call in the body: Walk, and every Area.
		{Callees, truth.Definition{Key: "geom/visit.go:11", Name: "CountBig"},
			[]string{"geom/circle.go:10", "geom/rect.go:11", "geom/shape.go:9", "geom/shape_test.go:8", "geom/visit.go:4"}},
		// Types with methods named like all of Shape's; promotion (Square) is invisible to grep.
		{Implementations, truth.Definition{Key: "geom/shape.go:8", Name: "Shape"},
			[]string{"geom/circle.go:6", "geom/rect.go:4", "geom/shape_test.go:6"}},
		// Interfaces whose methods memStore has.
		{Interfaces, truth.Definition{Key: "store/store.go:11", Name: "memStore"}, []string{"store/store.go:6"}},
		// The enclosing definition of each word hit. ctags gives variables no end
		// line, so a use inside a multi-line initialiser (and in a comment at top
		// level) is credited to the file: the truth says the variable registry.
		{References, truth.Definition{Key: "geom/registry.go:11", Name: "unitCircle"}, []string{"geom/registry.go"}},
		{References, truth.Definition{Key: "geom/circle.go:17", Name: "perimeterOf"}, nil},
	} {
		items, cost, err := b.answer(ctx, c.kind, c.def)
		if err != nil {
			t.Fatal(err)
		}
		if got := keysOf(items); !slices.Equal(got, c.want) {
			t.Errorf("%s of %s = %v, want %v", c.kind, c.def.Name, got, c.want)
		}
		if cost == 0 {
			t.Errorf("%s of %s read nothing", c.kind, c.def.Name)
		}
	}
}

// Every byte the baseline reads counts: the search output, then each enclosing
// definition once however many hits it holds.
func TestBaselineCost(t *testing.T) {
	t.Parallel()
	b, ctx := fixtureBaseline(t)
	_, searched, err := b.rg(ctx, "Total", true)
	if err != nil {
		t.Fatal(err)
	}
	items, cost, err := b.answer(ctx, References, truth.Definition{Key: "geom/total.go:4", Name: "Total"})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, it := range items {
		if it.Kind == "file" {
			continue
		}
		tg, ok := b.tagAt(it.File, it.Line, it.QName[len(it.QName)-len(lastName(it.QName)):])
		if !ok {
			t.Fatalf("no tag for %v", it)
		}
		_, n := b.read(tg.Path, tg.Line, tg.End)
		read += n
	}
	if cost != searched+read {
		t.Errorf("cost %d, want %d searched + %d read once per definition", cost, searched, read)
	}
}

func lastName(q string) string {
	for i := len(q) - 1; i >= 0; i-- {
		if q[i] == '.' {
			return q[i+1:]
		}
	}
	return q
}
