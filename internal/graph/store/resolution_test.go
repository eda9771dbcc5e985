package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func pendingPaths(t *testing.T, s *Store) []string {
	t.Helper()
	ps, err := s.PendingFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

func TestReplaceFilesKeepsSitesAndMarksPending(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	if n := count(t, s, `SELECT count(*) FROM sites`); n != 2 {
		t.Errorf("sites = %d, want the 2 unresolved sites as written", n)
	}
	if got := pendingPaths(t, s); !slices.Equal(got, []string{"a.go", "other.go"}) {
		t.Errorf("pending = %v", got)
	}
	sites, err := s.Sites(ctx, "a.go")
	if err != nil || len(sites) != 1 || sites[0].Name != "x.Do" || sites[0].Reason != "no type" {
		t.Errorf("sites of a.go = %+v, %v", sites, err)
	}
	replace(t, s, nil, "other.go")
	if n := count(t, s, `SELECT count(*) FROM sites WHERE file = 'other.go'`); n != 0 {
		t.Errorf("a removed file's sites survived: %d", n)
	}
	if got := pendingPaths(t, s); !slices.Equal(got, []string{"a.go", "other.go"}) {
		t.Errorf("a removed file must stay pending for the pass, got %v", got)
	}
}

func TestApplyResolution(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	pending, err := s.PendingFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pending {
		pending[i].Shape = "shape of " + pending[i].Path
	}
	res := FileResolution{
		Path: "a.go",
		Edges: []graph.Edge{{From: "p.A", To: "p.C", Kind: graph.EdgeCalls, Confidence: 1,
			Resolution: graph.ResolvedImport, Line: 6}},
		Deps: []Dep{{Kind: DepFile, Key: "other.go"}, {Kind: DepName, Key: "Do", Filter: "go:method", Seen: 2}},
	}
	if err := s.ApplyResolution(ctx, []FileResolution{res}, pending, "cfg1"); err != nil {
		t.Fatal(err)
	}
	if callers, _ := s.Edges(ctx, "p.C", graph.EdgeCalls, In); len(callers) != 1 || callers[0].File != "a.go" {
		t.Errorf("derived callers of C = %+v", callers)
	}
	if u, _ := s.Unresolved(ctx, "p.A"); len(u) != 0 {
		t.Errorf("the resolved site is still unresolved: %+v", u)
	}
	if u, _ := s.Unresolved(ctx, "p.C"); len(u) != 1 {
		t.Errorf("other.go's site, not in the results, must stay: %+v", u)
	}
	if got := pendingPaths(t, s); len(got) != 0 {
		t.Errorf("pending after the pass = %v", got)
	}
	if v, _, _ := s.Meta(ctx, MetaResolveConfig); v != "cfg1" {
		t.Errorf("config = %q", v)
	}
	names, err := s.NamesBefore(ctx, []string{"a.go"})
	if slices.Sort(names); err != nil || !slices.Equal(names, []string{"A", "B"}) {
		t.Errorf("names recorded for a.go = %v, %v", names, err)
	}
	shapes, err := s.ShapesBefore(ctx, []string{"a.go", "other.go", "new.go"})
	if err != nil || !reflect.DeepEqual(shapes, map[string]string{"a.go": "shape of a.go", "other.go": "shape of other.go"}) {
		t.Errorf("shapes = %v, %v", shapes, err)
	}
	seen, err := s.SeenBefore(ctx, []string{"a.go", "new.go"})
	if err != nil || !slices.Equal(seen, []string{"a.go"}) {
		t.Errorf("seen before = %v, %v", seen, err)
	}
	deps, err := s.Dependents(ctx, DepFile, []string{"other.go"})
	if err != nil || len(deps) != 1 || deps[0].File != "a.go" {
		t.Errorf("dependents of other.go = %+v, %v", deps, err)
	}
	deps, err = s.Dependents(ctx, DepName, []string{"Do", "Nothing"})
	if err != nil || len(deps) != 1 || deps[0].Seen != 2 || deps[0].Filter != "go:method" {
		t.Errorf("name dependents of Do = %+v, %v", deps, err)
	}

	// Re-extracting a.go drops the pass's edge with the rest of its facts, and its
	// site is unresolved again until the next pass.
	stale, _ := s.PendingFiles(ctx)
	replace(t, s, twoFiles()[:1])
	if n := count(t, s, `SELECT count(*) FROM edges WHERE derived`); n != 0 {
		t.Errorf("derived edges after re-extraction = %d", n)
	}
	if u, _ := s.Unresolved(ctx, "p.A"); len(u) != 1 {
		t.Errorf("unresolved in A after re-extraction = %+v", u)
	}
	// A pass that read the pending list before this replacement does not clear it.
	if err := s.ApplyResolution(ctx, nil, stale, "cfg1"); err != nil {
		t.Fatal(err)
	}
	if got := pendingPaths(t, s); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("a replacement after the pass read the list must stay pending, got %v", got)
	}

	// A removed file's records go.
	replace(t, s, nil, "a.go")
	pending, _ = s.PendingFiles(ctx)
	if err := s.ApplyResolution(ctx, nil, pending, "cfg1"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `SELECT count(*) FROM resolve_deps WHERE file = 'a.go'`) +
		count(t, s, `SELECT count(*) FROM resolve_names WHERE file = 'a.go'`) +
		count(t, s, `SELECT count(*) FROM resolve_shapes WHERE file = 'a.go'`); n != 0 {
		t.Errorf("records of the removed a.go: %d", n)
	}
}

func TestApplyResolutionWritesBatches(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	replace(t, s, twoFiles())
	// 150 rows: two full statements of batchRows and a remainder.
	res := FileResolution{Path: "a.go"}
	for i := range 150 {
		res.Edges = append(res.Edges, graph.Edge{From: "p.A", To: fmt.Sprintf("p.T%03d", i), Kind: graph.EdgeCalls,
			Confidence: 0.5, Resolution: graph.ResolvedName, Line: i + 1})
	}
	if err := s.ApplyResolution(ctx, []FileResolution{res}, nil, ""); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `SELECT count(*) FROM edges WHERE derived AND file = 'a.go'`); n != 150 {
		t.Errorf("derived edges = %d, want 150", n)
	}
	if n := count(t, s, `SELECT count(DISTINCT line) FROM edges WHERE derived AND dst LIKE 'p.T%'`); n != 150 {
		t.Errorf("distinct rows = %d, want 150", n)
	}
	// Applying again replaces rather than adds.
	if err := s.ApplyResolution(ctx, []FileResolution{res}, nil, ""); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `SELECT count(*) FROM edges WHERE derived`); n != 150 {
		t.Errorf("derived edges after a second apply = %d, want 150", n)
	}
}

func TestApplyResolutionRefusesRowsOfAnotherFile(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	err := s.ApplyResolution(context.Background(), []FileResolution{{Path: "a.go",
		Edges: []graph.Edge{{From: "p.A", To: "p.C", Kind: graph.EdgeCalls, File: "other.go"}}}}, nil, "")
	if err == nil || !strings.Contains(err.Error(), "another file") {
		t.Errorf("err = %v", err)
	}
}

func TestPassReads(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	node := func(q, name, file, lang string, kind graph.NodeKind, exported bool) graph.Node {
		return graph.Node{QName: q, Name: name, File: file, Kind: kind, Language: lang, Exported: exported, Line: 1}
	}
	replace(t, s, []graph.FileFacts{
		{Path: "a.py", Language: "python", Nodes: []graph.Node{
			node("a.py::load", "load", "a.py", "python", graph.KindFunction, true),
			node("a.py::_load", "_load", "a.py", "python", graph.KindFunction, false),
			node("a.py::C::load", "load", "a.py", "python", graph.KindMethod, true),
		}, Edges: []graph.Edge{{From: "a.py", To: "os", Kind: graph.EdgeImports, Confidence: 0.5, Resolution: graph.ResolvedImport, Line: 1}}},
		{Path: "b.ts", Language: "typescript", Nodes: []graph.Node{
			node("b.ts::load", "load", "b.ts", "typescript", graph.KindFunction, true),
		}},
		{Path: "c.py", Language: "python", Nodes: []graph.Node{
			node("c.py::load", "load", "c.py", "python", graph.KindFunction, true),
		}},
		{Path: "t.go", Language: "go", Edges: []graph.Edge{call("p.F", "p.G", "t.go", 2)}},
	})
	for _, tc := range []struct {
		langs     []string
		kinds     []graph.NodeKind
		n         int
		firstFile string
	}{
		{[]string{"python"}, []graph.NodeKind{graph.KindFunction}, 2, ""}, // several: no first
		// Three definitions count as two: the count stops there.
		{[]string{"python", "typescript"}, []graph.NodeKind{graph.KindFunction}, 2, ""},
		{[]string{"python"}, []graph.NodeKind{graph.KindMethod}, 1, "a.py"},
		{[]string{"typescript", "javascript"}, []graph.NodeKind{graph.KindFunction, graph.KindClass}, 1, "b.ts"},
		{[]string{"go"}, []graph.NodeKind{graph.KindFunction}, 0, ""},
	} {
		n, first, err := s.CountDefinitions(ctx, "load", tc.langs, tc.kinds)
		if err != nil || n != tc.n || first.File != tc.firstFile {
			t.Errorf("count load in %v %v = %d, %+v, %v; want %d in %s", tc.langs, tc.kinds, n, first, err, tc.n, tc.firstFile)
		}
	}
	files, err := s.PassFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []PassFile{{"a.py", "python", false}, {"b.ts", "typescript", false}, {"c.py", "python", false}, {"t.go", "go", true}}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("pass files = %+v", files)
	}
	if err := s.ApplyResolution(ctx, []FileResolution{{Path: "a.py", Edges: []graph.Edge{
		{From: "a.py", To: "os.py", Kind: graph.EdgeImports, Confidence: 1, Resolution: graph.ResolvedImport, Line: 1}}}}, nil, ""); err != nil {
		t.Fatal(err)
	}
	imports, err := s.ExtractedEdges(ctx, "", graph.EdgeImports)
	if err != nil || len(imports) != 1 || imports[0].To != "os" {
		t.Errorf("extracted imports = %+v, %v (the derived one must not be listed)", imports, err)
	}
	nodes, err := s.PassNodes(ctx)
	if err != nil || len(nodes) != 5 || nodes[0].File != "a.py" || !slices.ContainsFunc(nodes, func(n graph.Node) bool { return n.QName == "b.ts::load" && n.Exported }) {
		t.Errorf("pass nodes = %+v, %v", nodes, err)
	}
	now, err := s.NamesNow(ctx, []string{"a.py", "b.ts"})
	if slices.Sort(now); err != nil || !slices.Equal(now, []string{"_load", "load"}) {
		t.Errorf("names now = %v, %v", now, err)
	}
}

func TestUnresolvedCallsNamed(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	var sites []graph.Unresolved
	for i, name := range []string{"load", "x.load", "a::load", "m.a::load", "reload", "x.load_y", "x.reload", "x_load", "a::b.load"} {
		sites = append(sites, graph.Unresolved{From: "f", Name: name, Kind: graph.EdgeCalls, Line: i + 1})
	}
	sites = append(sites, graph.Unresolved{From: "f", Name: "load", Kind: graph.EdgeExtends, Line: 20})
	replace(t, s, []graph.FileFacts{{Path: "a.py", Unresolved: sites}})
	if n, err := s.UnresolvedCallsNamed(context.Background(), "load"); err != nil || n != 5 {
		t.Errorf("unresolved calls named load = %d, %v; want load, x.load, a::load, m.a::load, a::b.load", n, err)
	}
	// The counts are kept per generation: a new site is counted once the index changes.
	replace(t, s, []graph.FileFacts{{Path: "b.py", Unresolved: []graph.Unresolved{{From: "g", Name: "y.load", Kind: graph.EdgeCalls, Line: 1}}}})
	if n, err := s.UnresolvedCallsNamed(context.Background(), "load"); err != nil || n != 6 {
		t.Errorf("after a new site: %d, %v; want 6", n, err)
	}
	// A qualified name is asked of the database directly.
	if n, err := s.UnresolvedCallsNamed(context.Background(), "b.load"); err != nil || n != 1 {
		t.Errorf("unresolved calls named b.load = %d, %v; want a::b.load", n, err)
	}
}
