package golang

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

const (
	honest   = "example.com/honest/"
	wire     = honest + "wire"
	protocol = honest + "protocol"
)

func honestFixture(t *testing.T) *index {
	t.Helper()
	res, err := Extract(context.Background(), filepath.Join("testdata", "honest"), Options{Tests: true, Env: offline})
	if err != nil {
		t.Fatalf("Extract(honest): %v", err)
	}
	if len(res.Errors) != 0 {
		t.Fatalf("the honest fixture has errors: %v", res.Errors)
	}
	return indexOf(res)
}

// A type alias names its target with an extends edge (whatever package the
// target is in, generic aliases too) and has no members or implements of its own.
func TestAliasNamesItsTarget(t *testing.T) {
	t.Parallel()
	ix := honestFixture(t)
	for _, tc := range []struct{ alias, target string }{
		{wire + ".Bytes", protocol + ".Bytes"},
		{wire + ".Marshaler", "encoding.TextMarshaler"},
		{wire + ".List", protocol + ".Stack"},
		{wire + ".Local", wire + ".Frame"},
	} {
		if n := ix.nodes[tc.alias]; n.Kind != graph.KindTypeAlias {
			t.Errorf("%s: kind %q, want type_alias", tc.alias, n.Kind)
		}
		es := ix.edges[edgeKey{graph.EdgeExtends, tc.alias, tc.target}]
		if len(es) != 1 || es[0].Resolution != graph.ResolvedTypes || es[0].Line == 0 {
			t.Errorf("%s → %s extends edges = %+v, want one, by the type checker", tc.alias, tc.target, es)
		}
	}
	if _, ok := ix.edges[edgeKey{graph.EdgeImplements, wire + ".Frame", protocol + ".Bytes"}]; !ok {
		t.Error("Frame does not implement protocol.Bytes")
	}
	for k := range ix.edges {
		if k.kind == graph.EdgeImplements && (k.to == wire+".Bytes" || k.from == wire+".Local") {
			t.Errorf("an alias has implements edges of its own: %s → %s", k.from, k.to)
		}
	}
	// Calls through the aliases reach the target's methods.
	if _, ok := ix.edges[edgeKey{graph.EdgeCalls, wire + ".Use", protocol + ".Bytes.Bytes"}]; !ok {
		t.Error("Use → protocol.Bytes.Bytes missing")
	}
	if _, ok := ix.edges[edgeKey{graph.EdgeCalls, wire + ".Push", protocol + ".Stack.Push"}]; !ok {
		t.Error("Push → protocol.Stack.Push missing")
	}
}

// Each init function has its own name: init@<file>, then #2, #3 in the file.
func TestInitNames(t *testing.T) {
	t.Parallel()
	ix := honestFixture(t)
	for _, tc := range []struct{ init, callee string }{
		{wire + ".init@a.go", wire + ".g"},
		{wire + ".init@a.go#2", wire + ".h"},
		{wire + ".init@b.go", wire + ".pair"},
	} {
		if n := ix.nodes[tc.init]; n.Kind != graph.KindFunction || n.Name != "init" {
			t.Errorf("%s = %+v, want an init function", tc.init, n)
		}
		if _, ok := ix.edges[edgeKey{graph.EdgeCalls, tc.init, tc.callee}]; !ok {
			t.Errorf("%s → %s missing", tc.init, tc.callee)
		}
	}
}

// A call in a package-level initialiser belongs to the variable it initialises.
func TestInitialiserCallsBelongToTheVariable(t *testing.T) {
	t.Parallel()
	ix := honestFixture(t)
	for _, tc := range []struct {
		name, from, to string
		want           bool
	}{
		{"first of a pair", wire + ".a", wire + ".g", true},
		{"second of a pair", wire + ".b", wire + ".h", true},
		{"not the other of the pair", wire + ".a", wire + ".h", false},
		{"a tuple: the first name", wire + ".c", wire + ".pair", true},
		{"a tuple: once", wire + ".d", wire + ".pair", false},
		{"a single variable", wire + ".single", wire + ".g", true},
		{"a blank variable: the package", wire, wire + ".h", true},
		{"never the package otherwise", wire, wire + ".g", false},
	} {
		if _, got := ix.edges[edgeKey{graph.EdgeCalls, tc.from, tc.to}]; got != tc.want {
			t.Errorf("%s: %s → %s present = %v, want %v", tc.name, tc.from, tc.to, got, tc.want)
		}
	}
}

// A file with a type error, or an import that did not load, says so in its
// ParseError: its facts are partial.
func TestTypeErrorMarksTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/typeerr\n\ngo 1.26\n")
	write(t, dir, "ok.go", "package typeerr\n\nfunc Good() int { return 1 }\n")
	write(t, dir, "bad.go", "package typeerr\n\nfunc Bad() int { return missing() }\n")
	write(t, dir, "imp/imp.go", "package imp\n\nimport \"example.com/absent/x\"\n\nfunc Imp() { x.F() }\n")
	res, err := Extract(context.Background(), dir, Options{Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	ix := indexOf(res)
	if pe := ix.files["bad.go"].ParseError; !strings.HasPrefix(pe, "type error: 3:") || !strings.Contains(pe, "missing") {
		t.Errorf("bad.go ParseError = %q, want the type error with its position", pe)
	}
	if pe := ix.files["imp/imp.go"].ParseError; !strings.Contains(pe, "example.com/absent/x") {
		t.Errorf("imp/imp.go ParseError = %q, want the import that did not load", pe)
	}
	if pe := ix.files["ok.go"].ParseError; pe != "" {
		t.Errorf("ok.go ParseError = %q, want none", pe)
	}
}

func TestStandardInterfaces(t *testing.T) {
	t.Parallel()
	got := strings.Join(StandardInterfaces(), " ")
	if !strings.HasPrefix(got, "error fmt.Stringer io.Reader") || !strings.Contains(got, "net/http.Handler") {
		t.Errorf("StandardInterfaces() = %s", got)
	}
}

// Why a module did not load keeps the go command's words and file:line,
// relative to the root.
func TestLoadErrorText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/broken\n\ngo 1.26\nfrobnicate x\n")
	write(t, dir, "a.go", "package broken\n")
	_, err := Extract(context.Background(), dir, Options{Env: offline})
	if err == nil {
		t.Fatal("a go.mod with an unknown directive loaded")
	}
	got := LoadErrorText(dir, err)
	if !strings.HasPrefix(got, "go: ") || !strings.Contains(got, "go.mod:4") || !strings.Contains(got, "frobnicate") || strings.Contains(got, dir) {
		t.Errorf("LoadErrorText = %q, want go.mod:4 and the directive, relative to the root", got)
	}
	if got := LoadErrorText(dir, ErrNoModule); got != "no go.mod at the root" {
		t.Errorf("LoadErrorText(ErrNoModule) = %q", got)
	}
}
