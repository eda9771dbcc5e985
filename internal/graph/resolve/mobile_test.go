package resolve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// lowerBound requires the callees of src to be a lower bound that names an
// ambiguous site, and the site written name to be left with that reason.
func lowerBound(t *testing.T, st *store.Store, src, name string) {
	t.Helper()
	if r := unresolvedReasons(t, st, src)[name]; r != "ambiguous: more than one definition" {
		t.Errorf("unresolved %s in %s: reason %q, want ambiguous (all: %q)", name, src, r, unresolvedReasons(t, st, src))
	}
	a, err := query.Ask(context.Background(), st, "callees", src)
	if err != nil {
		t.Fatal(err)
	}
	if a.Certainty != query.LowerBound || !strings.Contains(a.Why, "could not be resolved") {
		t.Errorf("callees of %s: %s, %q; want a lower bound", src, a.Certainty, a.Why)
	}
}

// TestKotlinAcrossFiles: imports by name and by star, a package's other file
// without an import, receivers typed by a parameter and by a constructor, a
// Java class of an imported package; a receiver of unknown type with a name two
// classes define stays unresolved.
func TestKotlinAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "kotlin")
	index1(t, root, st)
	const geo, app = "app/src/main/kotlin/com/example/geo/", "app/src/main/kotlin/com/example/app/"
	const main = app + "Main.kt::main"
	expect(t, "callers of helper (import of a top-level function)",
		related(t, st, "callers", geo+"Shapes.kt::helper"), main+"@9 [import]")
	expect(t, "callers of Circle.area (parameter c: Circle)",
		related(t, st, "callers", geo+"Shapes.kt::Circle::area"), main+"@10 [import]")
	expect(t, "callers of Square.area (val s = Square(), Square through import geo.*)",
		related(t, st, "callers", geo+"Square.kt::Square::area"), main+"@11 [import]")
	expect(t, "callers of Circle.draw (unknown.draw is not one)",
		related(t, st, "callers", geo+"Shapes.kt::Circle::draw"), main+"@12 [import]")
	expect(t, "callers of Square.draw", related(t, st, "callers", geo+"Square.kt::Square::draw"))
	expect(t, "callers of local (same package, no import)",
		related(t, st, "callers", app+"Util.kt::local"), main+"@14 [import]")
	expect(t, "callers of Circle.only (receiver unknown, the only method of that name)",
		related(t, st, "callers", geo+"Shapes.kt::Circle::only"), main+"@16 [name]")
	lowerBound(t, st, main, "Any.draw")
	expect(t, "callers of a Java class's method (val l = Legacy(), Legacy.java through import geo.*)",
		related(t, st, "callers", "app/src/main/java/com/example/geo/Legacy.java::Legacy::old"), app+"Main.kt::legacy@21 [import]")
	// import geo.* brings geo's names, not those geo's files import with extra.*:
	// extraOnly is matched by its name only, and says so.
	expect(t, "callers of extraOnly (not through geo's own star import)",
		related(t, st, "callers", "app/src/main/kotlin/com/example/extra/Extra.kt::extraOnly"), app+"Main.kt::viaStar@25 [name]")
}

// TestSwiftAcrossFiles: a module's files see each other without an import, an
// extension in another file adds to its type, `import Geo` brings the target
// Sources/Geo; receivers typed by a parameter, an initialiser and a stored
// property; a receiver of unknown type with an ambiguous name stays unresolved.
func TestSwiftAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "swift")
	index1(t, root, st)
	const geo = "Sources/Geo/"
	const paint = geo + "Canvas.swift::Canvas::paint"
	const run = "Sources/App/main.swift::run"
	expect(t, "callers of helper (same module; import Geo)",
		related(t, st, "callers", geo+"Square.swift::helper"), paint+"@6 [import]", run+"@7 [import]")
	expect(t, "callers of Circle.area (parameter; let c = Circle() in another module)",
		related(t, st, "callers", geo+"Circle.swift::Circle::area"), paint+"@7 [import]", run+"@6 [import]")
	expect(t, "callers of Circle (the class, not its extension)",
		related(t, st, "callers", geo+"Circle.swift::Circle"), run+"@5 [import]")
	expect(t, "callers of Square.area (let s = Square(), in another file and in its own)",
		related(t, st, "callers", geo+"Square.swift::Square::area"), paint+"@8 [import]", geo+"Square.swift::twice@10 [import]")
	expect(t, "callers of extra (an extension in another file)",
		related(t, st, "callers", geo+"Circle+Extra.swift::Circle::extra"), paint+"@9 [import]")
	expect(t, "callers of Circle.draw (self.shape: Circle; any.draw is not one)",
		related(t, st, "callers", geo+"Circle.swift::Circle::draw"), paint+"@10 [import]")
	expect(t, "callers of Circle.only (receiver unknown, the only method of that name)",
		related(t, st, "callers", geo+"Circle.swift::Circle::only"), paint+"@13 [name]")
	lowerBound(t, st, paint, "Shape.draw")

	// A module-wide lookup depends on the file it matched, not on every file
	// of the module: editing a file nothing names redoes only the files that
	// import its module (as a Go package's importers), not its module's files.
	deps, err := st.Dependents(context.Background(), store.DepFile, []string{geo + "Unused.swift"})
	if err != nil {
		t.Fatal(err)
	}
	if len(deps) != 1 || deps[0].File != "Sources/App/main.swift" {
		t.Errorf("files that depend on Unused.swift: %+v, want main.swift only (its import)", deps)
	}

	// A file added in a subfolder of the module defines what a call named.
	if r := unresolvedReasons(t, st, paint)["late"]; r != "not found" {
		t.Errorf("late before its file: %q", r)
	}
	if err := write(root, geo+"Sub/Late.swift", "func late() {}\n"); err != nil {
		t.Fatal(err)
	}
	if c := index1(t, root, st); c.Full {
		t.Errorf("adding a file resolved every file again: %+v", c)
	}
	expect(t, "callers of late (a new file of the module)",
		related(t, st, "callers", geo+"Sub/Late.swift::late"), paint+"@14 [import]")
}

// TestObjCAcrossFiles: #import of a header, messages named by their full
// selector (scale: and scale:with: are two methods), followed from the
// header's @interface to the @implementation; receivers typed by a parameter
// and a local, and in an @implementation by the properties and the superclass
// its header's @interface declares; a message to `id` with a selector two
// classes define stays unresolved.
func TestObjCAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "objc")
	index1(t, root, st)
	const run = "App/main.m::run"
	expect(t, "callers of Shape.area (Shape *s; [any area] is not one)",
		related(t, st, "callers", "Geo/Shape.m::Shape::area"), run+"@5 [import]")
	expect(t, "callers of scale:", related(t, st, "callers", "Geo/Shape.m::Shape::scale:"),
		run+"@6 [import]", run+"@10 [import]")
	expect(t, "callers of scale:with:", related(t, st, "callers", "Geo/Shape.m::Shape::scale:with:"),
		run+"@7 [import]")
	expect(t, "callers of make ([Shape make])", related(t, st, "callers", "Geo/Shape.m::Shape::make"),
		run+"@9 [import]")
	expect(t, "callers of helper (prototype in the header)",
		related(t, st, "callers", "Geo/Shape.m::helper"), run+"@11 [import]")
	expect(t, "callers of Other.area (self.other, a property the header declares)",
		related(t, st, "callers", "Geo/Other.m::Other::area"), "Geo/Shape.m::Shape::redraw@9 [import]")
	expect(t, "callers of Base.reset (the superclass the header declares)",
		related(t, st, "callers", "Geo/Base.m::Base::reset"), "Geo/Shape.m::Shape::redraw@10 [import]")
	lowerBound(t, st, run, "any.area")
}
