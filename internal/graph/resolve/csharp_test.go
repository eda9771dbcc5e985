package resolve_test

import "testing"

// TestCSharpAcrossFiles: `using A.B;` reaches the types of namespace A.B in
// any file (block and file-scoped namespaces), a file sees its own namespace's
// types in other files without a using, a static method is found through its
// class; a receiver of unknown type (C# receivers are not typed yet) is matched
// by name when one method has that name, and left ambiguous otherwise.
func TestCSharpAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "csharp")
	index1(t, root, st)
	const geo = "src/Geometry/"
	const main = "src/App/Program.cs::Acme.App::Program::Main"
	const paint = geo + "Helpers.cs::Acme.Geometry::Helpers::Paint"
	expect(t, "callers of Circle (new Circle() through using Acme.Geometry)",
		related(t, st, "callers", geo+"Circle.cs::Acme.Geometry::Circle"), main+"@10 [import]")
	expect(t, "callers of Helpers.Log (a static method through using)",
		related(t, st, "callers", geo+"Helpers.cs::Acme.Geometry::Helpers::Log"), main+"@11 [import]")
	expect(t, "callers of Square.Unit (using; the same namespace in another file)",
		related(t, st, "callers", geo+"Square.cs::Acme.Geometry::Square::Unit"), main+"@12 [import]", paint+"@6 [import]")
	expect(t, "callers of Circle.Only (receiver not typed, the only method of that name)",
		related(t, st, "callers", geo+"Circle.cs::Acme.Geometry::Circle::Only"), main+"@13 [name]")
	expect(t, "callers of Circle.Draw (any.Draw is ambiguous)",
		related(t, st, "callers", geo+"Circle.cs::Acme.Geometry::Circle::Draw"))
	lowerBound(t, st, paint, "any.Draw")
	if r := unresolvedReasons(t, st, main)["Console.WriteLine"]; r == "" {
		t.Errorf("Console.WriteLine: resolved, want unresolved (System is external)")
	}
}
