package resolve_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// repo copies testdata/<name> to a temporary folder (the tests edit it) and opens
// a fresh store for it.
func repo(t *testing.T, name string) (string, *store.Store) {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return write(root, rel, string(b))
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return root, st
}

func write(root, rel, content string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

func index1(t *testing.T, root string, st *store.Store) *resolve.Counts {
	t.Helper()
	rep, err := index.Run(context.Background(), root, st, index.Options{Extract: treesitter.Extractor{}.Extract})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resolve == nil {
		t.Fatal("the report has no resolution counts")
	}
	return rep.Resolve
}

// related asks a question and returns "qname@site_line [resolution]" per item.
func related(t *testing.T, st *store.Store, kind, symbol string) []string {
	t.Helper()
	a, err := query.Ask(context.Background(), st, kind, symbol)
	if err != nil {
		t.Fatalf("%s %s: %v", kind, symbol, err)
	}
	var out []string
	for _, it := range a.Items {
		out = append(out, it.QName+"@"+strconv.Itoa(it.SiteLine)+" ["+it.Resolution+"]")
	}
	slices.Sort(out)
	return out
}

func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// unresolvedReasons maps each still unresolved site of src to its reason.
func unresolvedReasons(t *testing.T, st *store.Store, src string) map[string]string {
	t.Helper()
	us, err := st.Unresolved(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, u := range us {
		out[u.Name] = u.Reason
	}
	return out
}

func TestPythonAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "python")
	c := index1(t, root, st)
	if !c.Full || c.Files != 8 {
		t.Errorf("first pass = %+v, want a full pass over the 8 files", c)
	}
	const run = "app/service.py::Service::run"

	expect(t, "callers of load (relative import; re-export through app/__init__.py)",
		related(t, st, "callers", "app/util.py::load"),
		run+"@12 [import]", "main.py::main@5 [import]")
	expect(t, "callers of parse (same file; submodule import; alias)",
		related(t, st, "callers", "app/util.py::parse"),
		"app/util.py::load@2 [name]", run+"@13 [import]", run+"@14 [import]")
	expect(t, "callers of Base.save (base in the same file; base through a star import)",
		related(t, st, "callers", "app/models.py::Base::save"),
		"app/models.py::Audited::audit@8 [import]", run+"@15 [import]")
	expect(t, "callers of helper (import app.util, called as app.util.helper)",
		related(t, st, "callers", "app/util.py::helper"), run+"@16 [import]")
	expect(t, "callers of only_here (the only definition of its name)",
		related(t, st, "callers", "app/lonely.py::only_here"), run+"@19 [name]")
	expect(t, "bases of Service (through the star import)",
		edgeEnds(t, st, "app/service.py::Service", graph.EdgeExtends), "app/models.py::Audited [import]")

	reasons := unresolvedReasons(t, st, run)
	if reasons["close"] != "ambiguous: more than one definition" || reasons["os.path.join"] != "external module os" || len(reasons) != 2 {
		t.Errorf("unresolved in run = %q", reasons)
	}
	a, err := query.Ask(context.Background(), st, "callees", run)
	if err != nil {
		t.Fatal(err)
	}
	if a.Certainty != query.LowerBound || !strings.Contains(a.Why, "2 call site(s) could not be resolved") {
		t.Errorf("callees of run: %s, %q", a.Certainty, a.Why)
	}
	edges, err := st.Edges(context.Background(), "app/service.py", graph.EdgeImports, store.Out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range edges {
		if e.Confidence == 1 {
			files = append(files, e.To)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	expect(t, "imports resolved to files (the written targets stay too)", files,
		"app/__init__.py", "app/models.py", "app/util.py")
	if c.ImportsExternal != 1 || c.ImportsMissing != 0 {
		t.Errorf("imports: %+v, want os external and none missing", c)
	}

	// An edit inside a body leaves util.py's shape (definitions, imports, bases)
	// as it was: its importers are not redone, and their edges stay.
	if err := write(root, "app/util.py", strings.Replace(readFile(t, root, "app/util.py"), "text.strip()", "text.strip().lower()", 1)); err != nil {
		t.Fatal(err)
	}
	if c = index1(t, root, st); c.Files != 1 {
		t.Errorf("after a body edit in util.py, pass = %+v; want that file only", c)
	}
	expect(t, "callers of load after the body edit", related(t, st, "callers", "app/util.py::load"),
		run+"@12 [import]", "main.py::main@5 [import]")

	// Rename load: its callers' edges go and their sites are unresolved again,
	// although service.py and main.py did not change.
	if err := write(root, "app/util.py", strings.Replace(readFile(t, root, "app/util.py"), "def load(", "def load2(", 1)); err != nil {
		t.Fatal(err)
	}
	c = index1(t, root, st)
	// util.py changed; __init__.py, service.py and main.py read it. Nothing else.
	if c.Full || c.Files != 4 {
		t.Errorf("after the rename, pass = %+v; want 4 files re-resolved", c)
	}
	expect(t, "callers of load2", related(t, st, "callers", "app/util.py::load2"))
	if r := unresolvedReasons(t, st, run)["load"]; r != "not found: load in app/util.py" {
		t.Errorf("load in run after the rename: %q", r)
	}
	if r := unresolvedReasons(t, st, "main.py::main")["load"]; r != "not found: load in app/util.py" {
		t.Errorf("load in main after the rename: %q", r)
	}

	// Put it back: the edges come back.
	if err := write(root, "app/util.py", strings.Replace(readFile(t, root, "app/util.py"), "def load2(", "def load(", 1)); err != nil {
		t.Fatal(err)
	}
	index1(t, root, st)
	expect(t, "callers of load, restored", related(t, st, "callers", "app/util.py::load"),
		run+"@12 [import]", "main.py::main@5 [import]")
	if _, ok := unresolvedReasons(t, st, run)["load"]; ok {
		t.Error("load is still unresolved in run after the restore")
	}

	// A second definition of only_here makes the name ambiguous: the edge matched
	// by name goes, though service.py and lonely.py did not change.
	if err := write(root, "app/again.py", "def only_here():\n    pass\n"); err != nil {
		t.Fatal(err)
	}
	c = index1(t, root, st)
	// again.py is new; service.py counted the definitions of only_here; main.py
	// imports the package again.py appeared in (`from app import load`).
	if c.Files != 3 {
		t.Errorf("after adding again.py, pass = %+v; want again.py, service.py and main.py", c)
	}
	expect(t, "callers of only_here once ambiguous", related(t, st, "callers", "app/lonely.py::only_here"))
	if r := unresolvedReasons(t, st, run)["only_here"]; r != "ambiguous: more than one definition" {
		t.Errorf("only_here after the second definition: %q", r)
	}
}

// edgeEnds lists "dst [resolution]" of the edges of kind leaving src.
func edgeEnds(t *testing.T, st *store.Store, src string, kind graph.EdgeKind) []string {
	t.Helper()
	edges, err := st.Edges(context.Background(), src, kind, store.Out)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range edges {
		out = append(out, e.To+" ["+string(e.Resolution)+"]")
	}
	slices.Sort(out)
	return out
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTypeScriptAcrossFiles(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "ts")
	c := index1(t, root, st)
	const run = "src/service.ts::Service::run"

	expect(t, "callers of load (named import)", related(t, st, "callers", "src/lib/util.ts::load"), run+"@11 [import]")
	expect(t, "callers of parse (same file; namespace import; alias through tsconfig paths)",
		related(t, st, "callers", "src/lib/util.ts::parse"),
		"src/lib/util.ts::load@2 [name]", run+"@12 [import]", run+"@13 [import]")
	expect(t, "callers of format (default import)", related(t, st, "callers", "src/lib/util.ts::format"), run+"@14 [import]")
	expect(t, "callers of Base.save (this.save() inherited from an imported class)",
		related(t, st, "callers", "src/lib/base.ts::Base::save"), run+"@15 [import]")
	expect(t, "bases of Service", edgeEnds(t, st, "src/service.ts::Service", graph.EdgeExtends), "src/lib/base.ts::Base [import]")
	reasons := unresolvedReasons(t, st, run)
	want := map[string]string{
		"React":               "external module react", // the head of React.createElement() is a use
		"React.createElement": "external module react",
		"close":               "ambiguous: more than one definition",
		"later":               "not found: module ./later",
	}
	if len(reasons) != len(want) {
		t.Errorf("unresolved in run = %q, want %q", reasons, want)
	}
	for name, r := range want {
		if reasons[name] != r {
			t.Errorf("unresolved %s: reason %q, want %q", name, reasons[name], r)
		}
	}
	if c.ImportsExternal != 1 || c.ImportsMissing != 1 {
		t.Errorf("imports: %+v, want react external and ./later missing", c)
	}
	// A site the pass resolved no longer makes callers a lower bound for that
	// reason; one it left unresolved still does.
	for symbol, open := range map[string]bool{"src/lib/util.ts::load": false, "src/first.ts::close": true} {
		a, err := query.Ask(context.Background(), st, "callers", symbol)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(a.Why, "could not be resolved"); got != open || a.Certainty != query.LowerBound {
			t.Errorf("callers of %s: %s, %q", symbol, a.Certainty, a.Why)
		}
	}

	// A file an import was waiting for appears: only it and its importer are redone.
	if err := write(root, "src/later.ts", "export function later(): void {}\n"); err != nil {
		t.Fatal(err)
	}
	c = index1(t, root, st)
	if c.Full || c.Files != 2 {
		t.Errorf("after adding later.ts, pass = %+v; want later.ts and service.ts", c)
	}
	expect(t, "callers of later", related(t, st, "callers", "src/later.ts::later"), run+"@18 [import]")

	// Editing a file nothing imports redoes that file alone.
	if err := write(root, "src/first.ts", "export function close(): void {\n  return;\n}\n"); err != nil {
		t.Fatal(err)
	}
	if c = index1(t, root, st); c.Files != 1 {
		t.Errorf("after editing first.ts, pass = %+v; want that file only", c)
	}

	// Removing the base class's file unresolves the inherited call and the base.
	if err := os.Remove(filepath.Join(root, "src/lib/base.ts")); err != nil {
		t.Fatal(err)
	}
	index1(t, root, st)
	if r := unresolvedReasons(t, st, run)["this.save"]; r != "not found" {
		t.Errorf("this.save once base.ts is gone: %q", r)
	}
	if r := unresolvedReasons(t, st, "src/service.ts::Service")["Base"]; r != "not found: module ./lib/base" {
		t.Errorf("base Base once base.ts is gone: %q", r)
	}
}

func TestNothingChangedWritesNothing(t *testing.T) {
	t.Parallel()
	root, st := repo(t, "ts")
	index1(t, root, st)
	c := index1(t, root, st)
	if c.Full || c.Files != 0 {
		t.Errorf("a run without changes resolved %+v", c)
	}
	pending, err := st.PendingFiles(context.Background())
	if err != nil || len(pending) != 0 {
		t.Errorf("pending after the pass = %v, %v", pending, err)
	}
	// A configuration change resolves everything again.
	if err := write(root, "tsconfig.json", `{"compilerOptions": {}}`); err != nil {
		t.Fatal(err)
	}
	if c = index1(t, root, st); !c.Full {
		t.Errorf("after a tsconfig.json change, pass = %+v; want full", c)
	}
	if r := unresolvedReasons(t, st, "src/service.ts::Service::run")["p"]; r != "external module @lib/util" {
		t.Errorf("p without tsconfig paths: %q", r)
	}
}
