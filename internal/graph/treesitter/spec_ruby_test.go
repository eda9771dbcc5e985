package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// TestRuby reads a module and a class with Ruby's calls with and without
// receivers, parentheses or arguments, and the bare words that are locals, not calls.
func TestRuby(t *testing.T) {
	t.Parallel()
	t.Run("module and class", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "lib/geometry/circle.rb", "ruby", `require 'json'
require_relative 'shapes/base'
autoload :Color, 'shapes/color'

# Geometry helpers.
module Geometry
  # Semantic version.
  VERSION = '1.0'

  # A circle.
  class Circle < Shapes::Base
    include Comparable
    extend Forwardable

    attr_reader :radius

    def initialize(radius)
      @radius = radius
      validate!
    end

    # The area.
    def area
      scaled = scale(2)
      log "area"
      self.check
      Math::PI * radius**2 + scaled.size
    end

    def self.unit
      new(1).tap { |c| c.check }
    end

    def to_json(*args)
      total = 0
      total
    end

    private

    def scale(k)
      Circle.new(radius * k)
    end

    def validate!
      raise ArgumentError, 'negative' if radius.negative?
      log
    end

    def log(msg = nil); end
    def check; end
  end
end

$registry = {}
`, []string{
			`edge calls lib/geometry/circle.rb::Geometry::Circle::area -> lib/geometry/circle.rb::Geometry::Circle::check 0.9 name @26`,
			`edge calls lib/geometry/circle.rb::Geometry::Circle::area -> lib/geometry/circle.rb::Geometry::Circle::log 0.9 name @25`,
			`edge calls lib/geometry/circle.rb::Geometry::Circle::area -> lib/geometry/circle.rb::Geometry::Circle::scale 0.9 name @24`,
			`edge calls lib/geometry/circle.rb::Geometry::Circle::initialize -> lib/geometry/circle.rb::Geometry::Circle::validate! 0.9 name @19`,
			`edge calls lib/geometry/circle.rb::Geometry::Circle::validate! -> lib/geometry/circle.rb::Geometry::Circle::log 0.9 name @47`,
			`edge contains lib/geometry/circle.rb -> lib/geometry/circle.rb::$registry 1 name @55`,
			`edge contains lib/geometry/circle.rb -> lib/geometry/circle.rb::Geometry 1 name @6`,
			`edge contains lib/geometry/circle.rb::Geometry -> lib/geometry/circle.rb::Geometry::Circle 1 name @11`,
			`edge contains lib/geometry/circle.rb::Geometry -> lib/geometry/circle.rb::Geometry::VERSION 1 name @8`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::area 1 name @23`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::radius 1 name @15`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::check 1 name @51`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::initialize 1 name @17`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::log 1 name @50`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::scale 1 name @41`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::to_json 1 name @34`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::unit 1 name @30`,
			`edge contains lib/geometry/circle.rb::Geometry::Circle -> lib/geometry/circle.rb::Geometry::Circle::validate! 1 name @45`,
			`edge imports lib/geometry/circle.rb -> ./shapes/base 0.5 import @2`,
			`edge imports lib/geometry/circle.rb -> json 0.5 import @1`,
			`edge imports lib/geometry/circle.rb -> shapes/color::Color 0.5 import @3`,
			`node class lib/geometry/circle.rb::Geometry::Circle 11:9-52 sig="class Circle < Shapes::Base" doc="A circle." exported`,
			`node constant lib/geometry/circle.rb::Geometry::VERSION 8:3-8 sig="VERSION = '1.0'" doc="Semantic version." exported`,
			`node file lib/geometry/circle.rb 1:0-56`,
			`node field lib/geometry/circle.rb::Geometry::Circle::radius 15:17-15 sig="attr_reader :radius" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::area 23:9-28 sig="def area" doc="The area." exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::check 51:9-51 sig="def check; end" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::initialize 17:9-20 sig="def initialize(radius)" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::log 50:9-50 sig="def log(msg = nil); end" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::scale 41:9-43 sig="def scale(k)" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::to_json 34:9-37 sig="def to_json(*args)" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::unit 30:14-32 sig="def self.unit" exported`,
			`node method lib/geometry/circle.rb::Geometry::Circle::validate! 45:9-48 sig="def validate!" exported`,
			`node namespace lib/geometry/circle.rb::Geometry 6:8-53 sig="module Geometry" doc="Geometry helpers." exported`,
			`node variable lib/geometry/circle.rb::$registry 55:1-55 sig="$registry = {}" exported`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle -> extend @13:5`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle -> include @12:5`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle -> private @39:5`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::area -> scaled.size @27:30`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::scale -> Circle.new @42:7`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::unit -> new @31:7`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::unit -> <expr>.tap @31:7`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::unit -> c.check @31:24`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::validate! -> radius.negative? @46:42`,
			`unresolved calls lib/geometry/circle.rb::Geometry::Circle::validate! -> raise @46:7`,
			`unresolved extends lib/geometry/circle.rb::Geometry::Circle -> Shapes::Base @11:18`,
			`unresolved implements lib/geometry/circle.rb::Geometry::Circle -> Comparable @12:13`,
			`unresolved implements lib/geometry/circle.rb::Geometry::Circle -> Forwardable @13:12`,
		})
	})
	// A bare word is a call unless it is a parameter or a local read as the
	// block's value; a script's own bare words are not read.
	t.Run("bare words", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "bin/tool", "ruby", `def twice(x)
  x
end

def each_name(items)
  items.each do |item|
    item
  end
  helper
  items
end

def helper; end

helper
`, []string{
			`edge calls bin/tool::each_name -> bin/tool::helper 0.9 name @9`,
			`edge contains bin/tool -> bin/tool::each_name 1 name @5`,
			`edge contains bin/tool -> bin/tool::helper 1 name @13`,
			`edge contains bin/tool -> bin/tool::twice 1 name @1`,
			`node file bin/tool 1:0-16`,
			`node method bin/tool::each_name 5:5-11 sig="def each_name(items)" exported`,
			`node method bin/tool::helper 13:5-13 sig="def helper; end" exported`,
			`node method bin/tool::twice 1:5-3 sig="def twice(x)" exported`,
			`unresolved calls bin/tool::each_name -> items.each @6:3`,
		})
	})
}

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
