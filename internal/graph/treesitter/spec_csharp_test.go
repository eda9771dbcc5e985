package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func TestCSharpClassBase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		i    int
		name string
		want graph.EdgeKind
	}{
		{0, "Shape", graph.EdgeExtends},
		{0, "IShape", graph.EdgeImplements},
		{0, "System.IDisposable", graph.EdgeImplements},
		{0, "Ice", graph.EdgeExtends}, // I and a lower case letter: a class
		{0, "I", graph.EdgeExtends},
		{1, "Base", graph.EdgeImplements}, // only the first base can be a class
	}
	for _, c := range cases {
		if got := csharpClassBase(c.i, c.name); got != c.want {
			t.Errorf("csharpClassBase(%d, %q) = %s, want %s", c.i, c.name, got, c.want)
		}
	}
}

func TestCSharpUsing(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{"using System;", "System"},
		{"using System.Collections.Generic;", "System.Collections.Generic"},
		{"global using System.Linq;", "System.Linq"},
		{"using static System.Math;", "System.Math::*"},
		{"global using static System.Console;", "System.Console::*"},
		{"using SB = System.Text.StringBuilder;", "System.Text.StringBuilder as SB"},
		{"using Map = System.Collections.Generic.Dictionary<string, int>;", "System.Collections.Generic.Dictionary<string,int> as Map"},
	}
	for _, c := range cases {
		ff, err := Extract(context.Background(), "u.cs", "csharp", []byte(c.src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ff.Edges {
			if e.Kind == graph.EdgeImports {
				got = append(got, e.To)
			}
		}
		if !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s: imports %q, want %q", c.src, got, c.want)
		}
	}
}

func TestCSharpSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := `namespace N {
class A {
    void Ok() { }
    void Broken( { }
    void After() { Ok(); }
}
}
`
	expectPartial(t, "e.cs", "csharp", src, "4", "e.cs::N::A", "e.cs::N::A::Ok", "e.cs::N::A::After")
}
