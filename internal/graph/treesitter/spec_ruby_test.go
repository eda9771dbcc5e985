package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func TestRubyRequire(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{`require 'json'`, []string{"json"}},
		{`require "net/http"`, []string{"net/http"}},
		{`require_relative 'lib/x'`, []string{"./lib/x"}},
		{`require_relative "../x"`, []string{"../x"}},
		{`load 'tasks/build.rake'`, []string{"tasks/build.rake"}},
		{`autoload :Color, 'shapes/color'`, []string{"shapes/color::Color"}},
		{"require \"#{dir}/x\"", nil}, // interpolated: no target
		{`Kernel.require 'x'`, nil},   // a receiver: some other require
	}
	for _, c := range cases {
		ff, err := Extract(context.Background(), "r.rb", "ruby", []byte(c.src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ff.Edges {
			if e.Kind == graph.EdgeImports {
				got = append(got, e.To)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: imports %q, want %q", c.src, got, c.want)
		}
		if c.want == nil && len(ff.Unresolved) == 0 {
			t.Errorf("%s: a require that names no file is still a call", c.src)
		}
	}
}

func TestRubySyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := `class A
  def ok; end
  def broken(a b c)
    ok
  end
  def after
    ok
  end
end
`
	expectPartial(t, "e.rb", "ruby", src, "3", "e.rb::A", "e.rb::A::ok", "e.rb::A::after")
}

func TestRubyAttributesAreFields(t *testing.T) {
	t.Parallel()
	src := "class A\n  attr_accessor :a, :b\n  attr_writer :c\n  self.attr_reader :d\n  def m; attr_reader :e; end\nend\n"
	ff, err := Extract(context.Background(), "a.rb", "ruby", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, n := range ff.Nodes {
		if n.Kind == graph.KindField {
			fields = append(fields, n.QName)
		}
	}
	// d has a receiver; e is declared in a method, where nothing is a field.
	if want := []string{"a.rb::A::a", "a.rb::A::b", "a.rb::A::c"}; !slices.Equal(fields, want) {
		t.Errorf("fields = %q, want %q", fields, want)
	}
}
