package query

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

const shapes = `package shapes

// Shape has an area.
type Shape interface{ Area() float64 }

type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

type Circle struct{ R float64 }

func (c *Circle) Area() float64 { return 3 * c.R * c.R }

func Total(ss []Shape) float64 {
	t := 0.0
	for _, s := range ss {
		t += s.Area()
	}
	return t
}

func Double(x float64) float64 { return 2 * x }

func Apply(f func(float64) float64, x float64) float64 { return f(x) }

func Use() float64 { return Apply(Double, Square{Side: 2}.Area()) + Double(1) }
`

func indexed(t *testing.T) *store.Store {
	t.Helper()
	return indexModule(t, "example.com/q", "shapes/shapes.go", shapes)
}

// indexModule writes a one-file Go module and indexes it into a fresh store.
func indexModule(t *testing.T, module, rel, src string) *store.Store {
	t.Helper()
	root := t.TempDir()
	for rel, content := range map[string]string{"go.mod": "module " + module + "\n\ngo 1.26\n", rel: src} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := index.Run(context.Background(), root, st, index.Options{Go: golang.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	return st
}

func qnames(items []Item) string {
	var out []string
	for _, it := range items {
		out = append(out, strings.TrimPrefix(it.QName, "example.com/q/shapes."))
	}
	return strings.Join(out, ",")
}

func TestAsk(t *testing.T) {
	t.Parallel()
	st := indexed(t)
	ctx := context.Background()
	tests := []struct {
		kind, symbol string
		want         string
		certainty    string
		why          string
	}{
		{"definition", "Total", "Total", Exact, ""},
		{"callers", "example.com/q/shapes.Shape.Area", "Total", Exact, ""},
		{"callers", "example.com/q/shapes.Square.Area", "Use", LowerBound, "Shape.Area"},
		{"callers", "Double", "Use", LowerBound, "used as a value"},
		{"callees", "Apply", "", LowerBound, "f (line"},
		{"callees", "Use", "Square.Area,Double,Apply", Exact, "every call site"},
		{"implementations", "Shape", "Square,Circle", Exact, ""},
		{"implementations", "Circle", "Shape", Exact, ""},
		{"references", "Double", "Use,Use", Exact, ""},
	}
	for _, tt := range tests {
		a, err := Ask(ctx, st, tt.kind, tt.symbol)
		if err != nil {
			t.Errorf("%s %s: %v", tt.kind, tt.symbol, err)
			continue
		}
		got := qnames(a.Items) // sorted by file and line of the definitions
		if got != tt.want || a.Certainty != tt.certainty || !strings.Contains(a.Why, tt.why) {
			t.Errorf("%s %s = [%s] %s (%s), want [%s] %s containing %q", tt.kind, tt.symbol, got, a.Certainty, a.Why, tt.want, tt.certainty, tt.why)
		}
	}
}

func TestUnknownSymbolSuggests(t *testing.T) {
	t.Parallel()
	st := indexed(t)
	_, err := Ask(context.Background(), st, "callers", "Totl")
	var unknown *UnknownSymbolError
	if !errors.As(err, &unknown) || len(unknown.DidYouMean) == 0 || !strings.Contains(unknown.Error(), "Total") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Ask(context.Background(), st, "frobnicate", "Total"); err == nil {
		t.Fatal("an unknown question was accepted")
	}
	a, err := Ask(context.Background(), st, "search", "area")
	if err != nil || len(a.Items) == 0 || a.Certainty != LowerBound {
		t.Fatalf("search = %+v, %v", a, err)
	}
}
