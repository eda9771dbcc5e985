package treesitter

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func TestSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := "def ok():\n    pass\n\ndef broken(:\n    pass\n\ndef after():\n    ok()\n"
	ff, err := Extract(context.Background(), "b.py", "python", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.Quarantined || !strings.Contains(ff.ParseError, "line 4") {
		t.Errorf("ParseError = %q, Quarantined = %v; want line 4, not quarantined", ff.ParseError, ff.Quarantined)
	}
	var names []string
	for _, n := range ff.Nodes {
		names = append(names, n.QName)
	}
	for _, want := range []string{"b.py::ok", "b.py::after"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("nodes %v lack %s", names, want)
		}
	}
	checkFiles(t, ff)
}

func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	src := []byte("function f\xff\xfe() { g\xc3(\"\xff\"); }\n// doc \xff\nfunction h() {}\n")
	ff, err := Extract(context.Background(), "u.js", "javascript", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Nodes) < 2 {
		t.Errorf("nodes = %+v; want the file and at least h", ff.Nodes)
	}
	for _, n := range ff.Nodes {
		for _, s := range []string{n.QName, n.Name, n.Signature, n.Doc} {
			if !utf8.ValidString(s) {
				t.Errorf("node %q has invalid UTF-8 %q", n.QName, s)
			}
		}
	}
	for _, u := range ff.Unresolved {
		if !utf8.ValidString(u.Name) {
			t.Errorf("unresolved name %q is invalid UTF-8", u.Name)
		}
	}
	checkFiles(t, ff)
}

// minified is a megabyte of JavaScript on one line.
func minified() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString("var a")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("=function(){return b(1)+c.d(2)};")
	}
	return []byte(b.String())
}

func TestMinifiedMegabyteLine(t *testing.T) {
	t.Parallel()
	src := minified()
	start := time.Now()
	// The budget only has to hold on a loaded CI machine under -race (10 s there at
	// load 4, past 30 s at load 60): this test is about the answer, not the speed.
	ff, err := Extractor{Budget: 2 * time.Minute}.Extract(context.Background(), "m.min.js", "javascript", src)
	if err != nil {
		t.Fatal(err)
	}
	if ff.Quarantined {
		t.Fatalf("quarantined: %s", ff.ParseError)
	}
	if len(ff.Nodes) < 2 || len(ff.Unresolved) == 0 {
		t.Errorf("%d nodes, %d unresolved; want the definitions and calls of the line", len(ff.Nodes), len(ff.Unresolved))
	}
	for _, n := range ff.Nodes {
		if len(n.Signature) > maxSignature {
			t.Errorf("signature of %s is %d bytes", n.QName, len(n.Signature))
		}
	}
	t.Logf("1 MiB line: %d nodes, %d edges in %s", len(ff.Nodes), len(ff.Edges), time.Since(start))
}

func TestBudgetQuarantines(t *testing.T) {
	t.Parallel()
	ff, err := Extractor{Budget: time.Microsecond}.Extract(context.Background(), "m.min.js", "javascript", minified())
	if err != nil {
		t.Fatal(err)
	}
	if !ff.Quarantined || !strings.Contains(ff.ParseError, "budget") || len(ff.Nodes) != 0 {
		t.Errorf("Quarantined = %v, ParseError = %q, %d nodes; want quarantined over budget, no nodes",
			ff.Quarantined, ff.ParseError, len(ff.Nodes))
	}
	if ff.Hash == "" || ff.Size != int64(len(minified())) {
		t.Errorf("a quarantined file still has its hash and size: %q %d", ff.Hash, ff.Size)
	}
}

func TestCancelledContextIsAnError(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Extract(ctx, "m.min.js", "javascript", minified())
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
}

func TestDeepNestingIsBounded(t *testing.T) {
	t.Parallel()
	src := "x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\ndef f():\n    pass\n"
	ff, err := Extract(context.Background(), "deep.py", "python", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.Quarantined || !strings.Contains(ff.ParseError, "deeper") {
		t.Errorf("ParseError = %q; want the depth bound named", ff.ParseError)
	}
}

func TestPanicQuarantines(t *testing.T) {
	t.Parallel()
	spec := pythonSpec
	spec.Exported = func(string, *sitter.Node) bool { panic("boom") }
	ff, err := extract(context.Background(), "p.py", "python", []byte("def f(): pass\n"), &spec, grammars["python"], DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	if !ff.Quarantined || !strings.Contains(ff.ParseError, "boom") || len(ff.Nodes)+len(ff.Edges) != 0 {
		t.Errorf("facts = %+v; want quarantined with the panic's reason and nothing else", ff)
	}
	if ff.Path != "p.py" || ff.Hash == "" {
		t.Errorf("a quarantined file keeps its path and hash: %+v", ff)
	}
}

func TestLanguageWithoutSpec(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"fortran", "cobol", ""} {
		ff, err := Extract(context.Background(), "x", lang, []byte("fn main() {}"))
		if !errors.Is(err, ErrNoSpec) || len(ff.Nodes) != 0 {
			t.Errorf("%q: err = %v, %d nodes; want ErrNoSpec and nothing", lang, err, len(ff.Nodes))
		}
	}
}

// TestSpecsNameRealSyntax fails when a table names a node type or field its grammar
// does not have: such a rule would silently match nothing.
func TestSpecsNameRealSyntax(t *testing.T) {
	t.Parallel()
	for lang, spec := range specs {
		g := grammars[lang]
		if g == nil {
			t.Errorf("%s: a spec without a grammar", lang)
			continue
		}
		node := func(kind string) {
			if g.IdForNodeKind(kind, true) == 0 {
				t.Errorf("%s: no node type %q", lang, kind)
			}
		}
		field := func(name string) {
			if name != "" && g.FieldIdForName(name) == 0 {
				t.Errorf("%s: no field %q", lang, name)
			}
		}
		for _, d := range spec.Defs {
			node(d.Node)
			field(d.NameField)
			field(d.KindField)
			field(d.BodyField)
			for _, k := range d.NameTypes {
				node(k)
			}
			for k := range d.KindBy {
				node(k)
			}
			if d.Unnamed.Parent != "" {
				node(d.Unnamed.Parent)
				field(d.Unnamed.Field)
			}
		}
		for k, f := range spec.Unwrap {
			node(k)
			field(f)
		}
		for _, c := range spec.Calls {
			node(c.Node)
			field(c.Field)
			field(c.Receiver)
		}
		for k := range spec.Imports {
			node(k)
		}
		for _, h := range spec.Heritage {
			node(h.Def)
			if h.Clause != "" || h.DefField == "" {
				node(h.Clause)
			}
			field(h.DefField)
			field(h.Field)
			field(h.SkipIfField)
			field(h.InBody)
		}
		for _, m := range spec.Member {
			node(m.Node)
			field(m.Object)
			field(m.Member)
		}
		for _, k := range spec.Refs {
			node(k)
		}
		for _, k := range slices.Concat(spec.Comments, spec.DocWrappers, spec.DocSkip, spec.DocHolders) {
			node(k)
		}
	}
}

func TestImportTargetRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]string{{"os.path", "", ""}, {"numpy", "", "np"}, {".util", "load", "l"}, {"#internal/y", "default", "d"}, {"x", "*", ""},
		{"crate::net", "Client", ""}, {"std", "filesystem", "fs"}, {"a::b", "*", ""}, {`"x.h"`, "", ""}} {
		m, n, a := SplitImportTarget(ImportTarget(c[0], c[1], c[2]))
		if [3]string{m, n, a} != c {
			t.Errorf("round trip of %v = %v", c, [3]string{m, n, a})
		}
	}
}
