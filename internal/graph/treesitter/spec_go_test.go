package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// A Go alias that names a type extends it (a site the cross-file pass
// resolves); one to a slice, a map or a function type names none.
func TestGoAliasExtendsItsTarget(t *testing.T) {
	t.Parallel()
	src := "package p\n\nimport \"example.com/m/q\"\n\ntype A = q.Bytes\n\ntype B = Local\n\ntype C = q.Stack[int]\n\n" +
		"type D = []byte\n\ntype E = func()\n\ntype Local struct{}\n"
	ff, err := Extract(context.Background(), "p/p.go", "go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range ff.Unresolved {
		if u.Kind == graph.EdgeExtends {
			got = append(got, u.From+" "+u.Name)
		}
	}
	for _, e := range ff.Edges {
		if e.Kind == graph.EdgeExtends {
			got = append(got, e.From+" "+e.To)
		}
	}
	slices.Sort(got)
	want := []string{"p/p.go::A q.Bytes", "p/p.go::B p/p.go::Local", "p/p.go::C q.Stack"}
	if !slices.Equal(got, want) {
		t.Errorf("alias extends = %q, want %q", got, want)
	}
}
