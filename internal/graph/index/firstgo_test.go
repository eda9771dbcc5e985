package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// declarations is a module with every kind of Go definition the type
// checker's pass names: generic types and receivers, aliases, embedded and
// grouped fields, interface methods and embedded interfaces, grouped and
// single constants and variables, two init functions, a package documented
// in a file that is not its first, an external test package, a subpackage,
// files build constraints leave out, and types defined as other types.
var declarations = map[string]string{
	"go.mod": "module example.com/decl\n\ngo 1.22\n",
	"a.go": `package decl

import (
	"fmt"
	"io"
)

// Stack is a stack.
type Stack[T any] struct {
	items []T // the items
	io.Reader
	*fmt.Formatter
	a, b int
}

// Push pushes.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (Stack[T]) Len() int { return 0 }

type Shape interface {
	io.Closer
	// Area is the area.
	Area() float64
}

type Celsius float64

type Alias = Stack[int]

func init() {}

func init() { _ = fmt.Sprint() }

var _ = 1

func _() {}
`,
	"doc.go": "// Package decl declares.\npackage decl\n",
	"values.go": `package decl

const (
	// Pi is pi.
	Pi = 3.14
	E, Phi = 2.71, 1.61
)

// Default is the default.
var Default Shape

var x, y = f()

func f() (int, int) { return 1, 2 }

func init() {}
`,
	// Out of the build: a generator (first by name, so not the package's
	// home) whose f is not the package's, and another platform's plat.
	"0gen.go":         "//go:build ignore\n\n// Gen generates.\npackage main\n\nfunc f() {}\n",
	"plat_other.go":   "//go:build !windows\n\npackage decl\n\nfunc plat() {}\n",
	"plat_windows.go": "package decl\n\nfunc plat() {}\n",
	"kinds.go":        "package decl\n\ntype Any any\n\ntype Err error\n\ntype Box Celsius\n\ntype Frame Stack2\n\ntype Stack2 Stack[int]\n\ntype Named Shape\n",
	"a_test.go":       "package decl\n\nfunc helper() {}\n",
	"ext_test.go":     "package decl_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
	"sub/sub.go":      "package sub\n\n// Run runs.\nfunc Run() {}\n",
	"sub/sub_doc.go":  "// Package sub is below.\npackage sub\n",
}

// nodeRow is what a definition answer shows of a node.
type nodeRow struct {
	QName, Kind, Name, File string
	Line, Col, EndLine      int64
	Doc                     string
	Exported                bool
}

// goNodes reads every Go node of st.
func goNodes(t *testing.T, st *store.Store) []nodeRow {
	t.Helper()
	_, rows, _, err := st.Query(context.Background(),
		`SELECT qname, kind, name, file, line, col, end_line, doc, exported FROM nodes WHERE language = 'go' ORDER BY qname`, 10000, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var out []nodeRow
	for _, r := range rows {
		n := nodeRow{}
		n.QName, _ = r[0].(string)
		n.Kind, _ = r[1].(string)
		n.Name, _ = r[2].(string)
		n.File, _ = r[3].(string)
		n.Line, _ = r[4].(int64)
		n.Col, _ = r[5].(int64)
		n.EndLine, _ = r[6].(int64)
		n.Doc, _ = r[7].(string)
		exported, _ := r[8].(int64)
		n.Exported = exported != 0
		out = append(out, n)
	}
	return out
}

// The first pass reads Go for its definitions only, and they are the type
// checker's pass's: the same names, kinds, places and docs, so that a
// definition or a search is answered alike before and after the typed pass
// lands.
func TestFirstPassDefinitionsAreTheTypedPasses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := writeTree(t, declarations)
	st := openStore(t)
	opts := passOptions()
	opts.Go.Tests = true // every file of the build is the type checker's
	rep, err := FirstPass(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.TypesPending || len(rep.Partial) != 0 {
		t.Fatalf("first pass: pending %v, partial %v; want pending, nothing partial", rep.TypesPending, rep.Partial)
	}
	first := goNodes(t, st)
	typed, err := Run(ctx, root, st, opts)
	if err != nil || !typed.GoTypes {
		t.Fatalf("typed pass: %+v, %v", typed, err)
	}
	want := goNodes(t, st)
	if len(want) < 30 {
		t.Fatalf("the typed pass named %d Go definitions; the fixture has more", len(want))
	}
	if d := diffRows(first, want); d != "" {
		t.Errorf("first pass's definitions differ from the typed pass's:\n%s", d)
	}
}

func diffRows(got, want []nodeRow) string {
	var b strings.Builder
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "  typed only: %+v\n", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "  first only: %+v\n", g)
		}
	}
	return b.String()
}

// During the first pass a definition is answered exactly, a search finds it
// by its words, and callers are a lower bound saying that only definitions
// have been read.
func TestFirstPassAnswersDefinitionsAndSaysCallersWait(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := writeTree(t, twoFileModule)
	st := openStore(t)
	if _, err := FirstPass(ctx, root, st, passOptions()); err != nil {
		t.Fatal(err)
	}
	def, err := query.Ask(ctx, st, "definition", "example.com/two.B")
	if err != nil {
		t.Fatal(err)
	}
	if def.Certainty != query.Exact || len(def.Items) != 1 || def.Items[0].File != "b.go" || def.Items[0].Line != 3 {
		t.Errorf("definition of B during the first pass: %s, %+v; want exactly b.go:3", def.Certainty, def.Items)
	}
	hits, err := st.Search(ctx, "B", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(hits, func(h store.Hit) bool { return h.QName == "example.com/two.B" }) {
		t.Errorf("search for B during the first pass: %+v; want example.com/two.B", hits)
	}
	callers := askCallers(t, st)
	wantPending(t, callers)
	if !strings.Contains(callers.Why, "definitions only") {
		t.Errorf("callers' reason during the first pass: %q; want it to say the Go facts are definitions only", callers.Why)
	}
	if v, _, err := st.Meta(ctx, golang.MetaTypesPending); err != nil || v != golang.TypesPending {
		t.Errorf("meta %s = %q, %v; want %q", golang.MetaTypesPending, v, err, golang.TypesPending)
	}
}

// The typed pass reads again every Go file the first pass read for its
// definitions only and the type checker does not cover: all of them when the
// module does not load, those out of the build when it does. Their calls are
// then in the index, as tree-sitter finds them.
func TestTypedPassReadsWhatTheTypeCheckerLeavesOut(t *testing.T) {
	t.Parallel()
	const lib = "package lib\n\nfunc F() int { return G() }\n\nfunc G() int { return 1 }\n"
	const gen = "//go:build ignore\n\npackage main\n\nfunc main() { helper() }\n\nfunc helper() {}\n"
	for _, c := range []struct {
		name, goMod, file string
	}{
		{"module does not load", "module example.com/m\n\ngo 1.999\n", "lib/lib.go"},
		{"file out of the build", "module example.com/m\n\ngo 1.22\n", "lib/gen.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			root := writeTree(t, map[string]string{"go.mod": c.goMod, "lib/lib.go": lib, "lib/gen.go": gen})
			st := openStore(t)
			opts := passOptions()
			opts.Go.Env = append(opts.Go.Env, "GOTOOLCHAIN=local")
			if _, err := RunInPasses(ctx, root, st, opts, nil); err != nil {
				t.Fatal(err)
			}
			_, rows, _, err := st.Query(ctx, "SELECT count(*) FROM edges WHERE kind = 'calls' AND file = '"+c.file+"'", 1, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := rows[0][0].(int64); n == 0 {
				t.Errorf("%s has no calls in the index after the typed pass; want tree-sitter's", c.file)
			}
		})
	}
}
