package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// TestCSharp reads a namespace with every kind of C# definition, and a file-scoped
// namespace with top-level generic calls.
func TestCSharp(t *testing.T) {
	t.Parallel()
	t.Run("block namespace", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "src/geo.cs", "csharp", `using System;
using static System.Math;
using Json = System.Text.Json.JsonSerializer;
global using System.Linq;

namespace Acme.Geometry
{
    /// <summary>A shape.</summary>
    public interface IShape : IComparable<IShape>
    {
        double Area();
        string Name { get; }
    }

    public enum Color : byte { Red, Green = 2 }

    public delegate void Changed(IShape s);

    // Circles.
    [Serializable]
    public sealed class Circle : Shape, IShape, IDisposable
    {
        public const double Tau = 6.28;
        private readonly double radius;
        protected event Changed OnChange;
        public string Name => "circle";

        public Circle(double r) : base(r) { radius = r; }

        public double Area()
        {
            Log("area");
            var s = Scale(2);
            this.Validate();
            Console.WriteLine(Json.Serialize(this));
            return s?.Area() ?? Pow(radius, 2) * Tau / 2;
        }

        private Circle Scale(double k) => new Circle(radius * k);
        void Validate() { double Half(double x) => x / 2; Half(radius); }
        static void Log(string m) { }
        public void Dispose() { }
        internal struct Point : IEquatable<Point> { public int X, Y; }
    }

    record Square(double Side) : Shape(Side);
}
`, []string{
			`edge calls src/geo.cs::Acme.Geometry::Circle::Area -> src/geo.cs::Acme.Geometry::Circle::Log 0.9 name @32`,
			`edge calls src/geo.cs::Acme.Geometry::Circle::Area -> src/geo.cs::Acme.Geometry::Circle::Scale 0.9 name @33`,
			`edge calls src/geo.cs::Acme.Geometry::Circle::Area -> src/geo.cs::Acme.Geometry::Circle::Validate 0.9 name @34`,
			`edge calls src/geo.cs::Acme.Geometry::Circle::Scale -> src/geo.cs::Acme.Geometry::Circle 0.9 name @39`,
			`edge calls src/geo.cs::Acme.Geometry::Circle::Validate -> src/geo.cs::Acme.Geometry::Circle::Validate::Half 0.9 name @40`,
			`edge contains src/geo.cs -> src/geo.cs::Acme.Geometry 1 name @6`,
			`edge contains src/geo.cs::Acme.Geometry -> src/geo.cs::Acme.Geometry::Changed 1 name @17`,
			`edge contains src/geo.cs::Acme.Geometry -> src/geo.cs::Acme.Geometry::Circle 1 name @21`,
			`edge contains src/geo.cs::Acme.Geometry -> src/geo.cs::Acme.Geometry::Color 1 name @15`,
			`edge contains src/geo.cs::Acme.Geometry -> src/geo.cs::Acme.Geometry::IShape 1 name @9`,
			`edge contains src/geo.cs::Acme.Geometry -> src/geo.cs::Acme.Geometry::Square 1 name @46`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Area 1 name @30`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Circle 1 name @28`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Dispose 1 name @42`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Log 1 name @41`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Name 1 name @26`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::OnChange 1 name @25`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Point 1 name @43`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Scale 1 name @39`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Tau 1 name @23`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::Validate 1 name @40`,
			`edge contains src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::Circle::radius 1 name @24`,
			`edge contains src/geo.cs::Acme.Geometry::Circle::Point -> src/geo.cs::Acme.Geometry::Circle::Point::X 1 name @43`,
			`edge contains src/geo.cs::Acme.Geometry::Circle::Point -> src/geo.cs::Acme.Geometry::Circle::Point::Y 1 name @43`,
			`edge contains src/geo.cs::Acme.Geometry::Circle::Validate -> src/geo.cs::Acme.Geometry::Circle::Validate::Half 1 name @40`,
			`edge contains src/geo.cs::Acme.Geometry::Color -> src/geo.cs::Acme.Geometry::Color::Green 1 name @15`,
			`edge contains src/geo.cs::Acme.Geometry::Color -> src/geo.cs::Acme.Geometry::Color::Red 1 name @15`,
			`edge contains src/geo.cs::Acme.Geometry::IShape -> src/geo.cs::Acme.Geometry::IShape::Area 1 name @11`,
			`edge contains src/geo.cs::Acme.Geometry::IShape -> src/geo.cs::Acme.Geometry::IShape::Name 1 name @12`,
			`edge implements src/geo.cs::Acme.Geometry::Circle -> src/geo.cs::Acme.Geometry::IShape 0.9 name @21`,
			`edge imports src/geo.cs -> System 0.5 import @1`,
			`edge imports src/geo.cs -> System.Linq 0.5 import @4`,
			`edge imports src/geo.cs -> System.Math::* 0.5 import @2`,
			`edge imports src/geo.cs -> System.Text.Json.JsonSerializer as Json 0.5 import @3`,
			`node class src/geo.cs::Acme.Geometry::Circle 21:25-44 sig="[Serializable] public sealed class Circle : Shape, IShape, IDisposable" doc="Circles." exported`,
			`node class src/geo.cs::Acme.Geometry::Square 46:12-46 sig="record Square(double Side) : Shape(Side)"`,
			`node constant src/geo.cs::Acme.Geometry::Circle::Tau 23:29-23 sig="Tau = 6.28" exported`,
			`node enum src/geo.cs::Acme.Geometry::Color 15:17-15 sig="public enum Color : byte" exported`,
			`node field src/geo.cs::Acme.Geometry::Circle::Name 26:23-26 sig="public string Name => \"circle\"" exported`,
			`node field src/geo.cs::Acme.Geometry::Circle::OnChange 25:33-25 sig="OnChange" exported`,
			`node field src/geo.cs::Acme.Geometry::Circle::Point::X 43:64-43 sig="X" exported`,
			`node field src/geo.cs::Acme.Geometry::Circle::Point::Y 43:67-43 sig="Y" exported`,
			`node field src/geo.cs::Acme.Geometry::Circle::radius 24:33-24 sig="radius"`,
			`node field src/geo.cs::Acme.Geometry::IShape::Name 12:16-12 sig="string Name" exported`,
			`node file src/geo.cs 1:0-48`,
			`node function src/geo.cs::Acme.Geometry::Circle::Validate::Half 40:34-40 sig="double Half(double x)"`,
			`node interface src/geo.cs::Acme.Geometry::IShape 9:22-13 sig="public interface IShape : IComparable<IShape>" doc="<summary>A shape.</summary>" exported`,
			`node method src/geo.cs::Acme.Geometry::Circle::Area 30:23-37 sig="public double Area()" exported`,
			`node method src/geo.cs::Acme.Geometry::Circle::Circle 28:16-28 sig="public Circle(double r) : base(r)" exported`,
			`node method src/geo.cs::Acme.Geometry::Circle::Dispose 42:21-42 sig="public void Dispose()" exported`,
			`node method src/geo.cs::Acme.Geometry::Circle::Log 41:21-41 sig="static void Log(string m)"`,
			`node method src/geo.cs::Acme.Geometry::Circle::Scale 39:24-39 sig="private Circle Scale(double k)"`,
			`node method src/geo.cs::Acme.Geometry::Circle::Validate 40:14-40 sig="void Validate()"`,
			`node method src/geo.cs::Acme.Geometry::IShape::Area 11:16-11 sig="double Area()" exported`,
			`node namespace src/geo.cs::Acme.Geometry 6:11-47 sig="namespace Acme.Geometry" exported`,
			`node struct src/geo.cs::Acme.Geometry::Circle::Point 43:25-43 sig="internal struct Point : IEquatable<Point>"`,
			`node type src/geo.cs::Acme.Geometry::Changed 17:26-17 sig="public delegate void Changed(IShape s)" exported`,
			`node variant src/geo.cs::Acme.Geometry::Color::Green 15:37-15 sig="Green = 2" exported`,
			`node variant src/geo.cs::Acme.Geometry::Color::Red 15:32-15 sig="Red" exported`,
			`unresolved calls src/geo.cs::Acme.Geometry::Circle::Area -> Console.WriteLine @35:13`,
			`unresolved calls src/geo.cs::Acme.Geometry::Circle::Area -> Json.Serialize @35:31`,
			`unresolved calls src/geo.cs::Acme.Geometry::Circle::Area -> Pow @36:33`,
			`unresolved calls src/geo.cs::Acme.Geometry::Circle::Area -> s.Area @36:20`,
			`unresolved extends src/geo.cs::Acme.Geometry::Circle -> Shape @21:34`,
			`unresolved extends src/geo.cs::Acme.Geometry::IShape -> IComparable @9:31`,
			`unresolved extends src/geo.cs::Acme.Geometry::Square -> Shape @46:34`,
			`unresolved implements src/geo.cs::Acme.Geometry::Circle -> IDisposable @21:49`,
			`unresolved implements src/geo.cs::Acme.Geometry::Circle::Point -> IEquatable @43:33`,
		})
	})
	t.Run("file-scoped namespace", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "Tools/Program.cs", "csharp", `namespace Acme.Tools;

public record struct Version(int Major) : IComparable<Version>;

public static class Program
{
    public static void Main() => Run<int>(Parse());
    static void Run<T>(T x) { }
    static int Parse() => 0;
}
`, []string{
			`edge calls Tools/Program.cs::Acme.Tools::Program::Main -> Tools/Program.cs::Acme.Tools::Program::Parse 0.9 name @7`,
			`edge calls Tools/Program.cs::Acme.Tools::Program::Main -> Tools/Program.cs::Acme.Tools::Program::Run 0.9 name @7`,
			`edge contains Tools/Program.cs -> Tools/Program.cs::Acme.Tools 1 name @1`,
			`edge contains Tools/Program.cs::Acme.Tools -> Tools/Program.cs::Acme.Tools::Program 1 name @5`,
			`edge contains Tools/Program.cs::Acme.Tools -> Tools/Program.cs::Acme.Tools::Version 1 name @3`,
			`edge contains Tools/Program.cs::Acme.Tools::Program -> Tools/Program.cs::Acme.Tools::Program::Main 1 name @7`,
			`edge contains Tools/Program.cs::Acme.Tools::Program -> Tools/Program.cs::Acme.Tools::Program::Parse 1 name @9`,
			`edge contains Tools/Program.cs::Acme.Tools::Program -> Tools/Program.cs::Acme.Tools::Program::Run 1 name @8`,
			`node class Tools/Program.cs::Acme.Tools::Program 5:21-10 sig="public static class Program" exported`,
			`node file Tools/Program.cs 1:0-11`,
			`node method Tools/Program.cs::Acme.Tools::Program::Main 7:24-7 sig="public static void Main()" exported`,
			`node method Tools/Program.cs::Acme.Tools::Program::Parse 9:16-9 sig="static int Parse()"`,
			`node method Tools/Program.cs::Acme.Tools::Program::Run 8:17-8 sig="static void Run<T>(T x)"`,
			`node namespace Tools/Program.cs::Acme.Tools 1:11-1 sig="namespace Acme.Tools" exported`,
			`node struct Tools/Program.cs::Acme.Tools::Version 3:22-3 sig="public record struct Version(int Major) : IComparable<Version>" exported`,
			`unresolved implements Tools/Program.cs::Acme.Tools::Version -> IComparable @3:43`,
		})
	})
}

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
