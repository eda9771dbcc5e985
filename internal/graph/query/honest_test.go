package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// indexGo writes files (go.mod included) and indexes them as graph index does:
// the type checker, and tree-sitter for what it does not load.
func indexGo(t *testing.T, files map[string]string) *store.Store {
	t.Helper()
	root := t.TempDir()
	for rel, src := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := index.Options{Go: golang.Options{Tests: true, Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}}, Extract: treesitter.Extract}
	if _, err := index.Run(context.Background(), root, st, opts); err != nil {
		t.Fatal(err)
	}
	return st
}

const honestMod = "module example.com/h\n\ngo 1.26\n"

var honestFiles = map[string]string{
	"go.mod": honestMod,
	"protocol/protocol.go": `package protocol

type Bytes interface{ Bytes() []byte }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
`,
	"wire/wire.go": `package wire

import (
	"encoding"

	"example.com/h/protocol"
)

type Bytes = protocol.Bytes

type Marshaler = encoding.TextMarshaler

type List[T any] = protocol.Stack[T]

type Local = Frame

type Frame struct{ data []byte }

func (f Frame) Bytes() []byte { return f.data }

func Use(b Bytes) []byte { return b.Bytes() }

func Push(l *List[int]) { l.Push(1) }

var a, b = g(), h()

var single = g()

func g() int { return 1 }

func h() int { return 2 }

func pair() (int, int) { return 1, 2 }
`,
	"wire/a.go": "package wire\n\nfunc init() { g() }\n\nfunc init() { h() }\n",
	"wire/b.go": "package wire\n\nfunc init() { pair() }\n",
}

const (
	hp = "example.com/h/protocol."
	hw = "example.com/h/wire."
)

func TestHonestAnswers(t *testing.T) {
	t.Parallel()
	st := indexGo(t, honestFiles)
	ctx := context.Background()
	for _, tc := range []struct {
		kind, symbol string
		want         string // item qualified names, sorted by file and line
		certainty    string
		why          string
	}{
		{"implementations", hw + "Bytes", hw + "Frame", Exact, "alias of " + hp + "Bytes"},
		{"implementations", hw + "Local", hp + "Bytes", Exact, "alias of " + hw + "Frame"},
		{"implementations", hw + "Marshaler", "", LowerBound, "encoding.TextMarshaler is defined outside the repository"},
		{"callers", hw + "Bytes", "", Exact, "alias of"},
		{"references", hw + "List", hp + "Stack.Push," + hw + "List," + hw + "Push", Exact, "alias of " + hp + "Stack"},
		{"definition", hw + "List", hw + "List", Exact, ""},
		{"callers", hp + "Bytes.Bytes", hw + "Use", Exact, ""},
		{"references", hp + "Bytes", hw + "Bytes," + hw + "Use", Exact, ""},
		{"callees", hw + "init", hw + "g," + hw + "h," + hw + "pair", Exact, "3 init functions"},
		{"callees", hw + "init@a.go#2", hw + "h", Exact, ""},
		{"callers", hw + "g", hw + "init@a.go," + hw + "a," + hw + "single", Exact, ""},
		{"callers", hw + "h", hw + "init@a.go#2," + hw + "b", Exact, ""},
	} {
		a, err := Ask(ctx, st, tc.kind, tc.symbol)
		if err != nil {
			t.Errorf("%s %s: %v", tc.kind, tc.symbol, err)
			continue
		}
		var got []string
		for _, it := range a.Items {
			got = append(got, it.QName)
		}
		if g := strings.Join(got, ","); g != tc.want || a.Certainty != tc.certainty || !strings.Contains(a.Why, tc.why) {
			t.Errorf("%s %s = [%s] %s (%s)\nwant [%s] %s containing %q", tc.kind, tc.symbol, g, a.Certainty, a.Why, tc.want, tc.certainty, tc.why)
		}
	}
}

// An answer that may draw on a file the type checker could not check is a
// lower bound naming the file; one that cannot is still exact.
func TestTypeErrorsLowerTheAnswersThatReachThem(t *testing.T) {
	t.Parallel()
	st := indexGo(t, map[string]string{
		"go.mod":       "module example.com/e\n\ngo 1.26\n",
		"lib/lib.go":   "package lib\n\nfunc F() int { return 1 }\n",
		"use/use.go":   "package use\n\nimport \"example.com/e/lib\"\n\nfunc U() int { return lib.F() + missing() }\n",
		"alone/a.go":   "package alone\n\nfunc A() int { return B() }\n\nfunc B() int { return 2 }\n",
		"lib/other.go": "package lib\n\nfunc G() int { return F() }\n",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		kind, symbol, certainty, why string
	}{
		{"callers", "example.com/e/lib.F", LowerBound, "use/use.go (type error: 5:"},
		{"callees", "example.com/e/lib.G", Exact, ""},
		{"callers", "example.com/e/alone.B", Exact, ""},
		{"callees", "example.com/e/use.U", LowerBound, "use/use.go (type error"},
		{"implementations", "example.com/e/lib.G", LowerBound, "1 Go file(s)"},
		{"impact", "example.com/e/lib.F", LowerBound, "use/use.go (type error"},
		{"impact", "example.com/e/alone.B", LowerBound, "use/use.go (type error"},
		{"process", "example.com/e/use.U", LowerBound, "use/use.go (type error"},
		{"process", "example.com/e/lib.G", Exact, ""},
		{"context", "example.com/e/lib.F", LowerBound, "use/use.go (type error"},
		{"context", "example.com/e/alone.A", Exact, ""},
	} {
		a, err := Ask(ctx, st, tc.kind, tc.symbol)
		if err != nil {
			t.Errorf("%s %s: %v", tc.kind, tc.symbol, err)
			continue
		}
		if a.Certainty != tc.certainty || !strings.Contains(a.Why, tc.why) {
			t.Errorf("%s %s: %s (%s), want %s containing %q", tc.kind, tc.symbol, a.Certainty, a.Why, tc.certainty, tc.why)
		}
	}
}

// Go the type checker could not load (tree-sitter's facts) is never exact.
func TestFallbackGoIsALowerBound(t *testing.T) {
	t.Parallel()
	st := indexGo(t, map[string]string{
		"go.mod":     "module example.com/f\n\ngo 1.999\n",
		"lib/lib.go": "package lib\n\nfunc F() int { return G() }\n\nfunc G() int { return 1 }\n",
		"lib/types.go": "package lib\n\ntype Sizer interface{ Size() int }\n\ntype Alias = Sizer\n\ntype Again = Alias\n\n" +
			"type T struct{}\n\nfunc (T) Size() int { return 1 }\n",
	})
	ctx := context.Background()
	a, err := Ask(ctx, st, "callees", "example.com/f/lib.F")
	if err != nil {
		t.Fatal(err)
	}
	if got := qnames(a.Items); got != "example.com/f/lib.G" {
		t.Errorf("callees F = %s, want the type checker's name of G", got)
	}
	if a.Certainty != LowerBound || !strings.Contains(a.Why, "lib/lib.go (no type checker: go: go.mod requires go >= 1.999") {
		t.Errorf("callees F: %s (%s), want a lower bound naming lib/lib.go", a.Certainty, a.Why)
	}
	// An alias is answered for its target from tree-sitter's facts too.
	a, err = Ask(ctx, st, "implementations", "example.com/f/lib.Alias")
	if err != nil {
		t.Fatal(err)
	}
	if got := qnames(a.Items); got != "example.com/f/lib.T" || a.Certainty != LowerBound || !strings.Contains(a.Why, "alias of example.com/f/lib.Sizer") {
		t.Errorf("implementations of Alias = [%s] %s (%s), want T, lower-bound, through the alias", got, a.Certainty, a.Why)
	}
	a, err = Ask(ctx, st, "implementations", "example.com/f/lib.Again")
	if err != nil {
		t.Fatal(err)
	}
	if got := qnames(a.Items); got != "example.com/f/lib.T" || !strings.Contains(a.Why, "alias of example.com/f/lib.Sizer") {
		t.Errorf("implementations of Again (an alias of an alias) = [%s] %s (%s), want T through both", got, a.Certainty, a.Why)
	}
}

// Go under testdata (which the go command leaves out of the module, and the
// index leaves out too) does not make the module's answers lower bounds.
func TestTestdataIsNoGap(t *testing.T) {
	t.Parallel()
	st := indexGo(t, map[string]string{
		"go.mod":                 "module example.com/t\n\ngo 1.26\n",
		"lib/lib.go":             "package lib\n\ntype Sizer interface{ Size() int }\n\ntype T struct{}\n\nfunc (T) Size() int { return F() }\n\nfunc F() int { return 1 }\n",
		"lib/testdata/fix/f.go":  "package fix\n\ntype U struct{}\n\nfunc (U) Size() int { return 2 }\n",
		"lib/testdata/fix/go.go": "package fix\n\nfunc G() int { return 3 }\n",
	})
	ctx := context.Background()
	for _, kind := range []string{"implementations", "callers"} {
		sym := map[string]string{"implementations": "example.com/t/lib.Sizer", "callers": "example.com/t/lib.F"}[kind]
		a, err := Ask(ctx, st, kind, sym)
		if err != nil {
			t.Fatal(err)
		}
		if a.Certainty != Exact {
			t.Errorf("%s %s: %s (%s), want exact: testdata is no part of the module", kind, sym, a.Certainty, a.Why)
		}
	}
	// The fixture is left out of the index (index.WhyTestdata): no answer
	// comes from it.
	if _, err := Ask(ctx, st, "callees", "G"); err == nil {
		t.Error("callees G: answered; want no definition, testdata's Go being left out")
	}
}

// A file another platform builds is left out of the type-checked build: an
// answer it may add to (callers through its imports) is a lower bound naming
// it; implementations, related within this build, stay exact.
func TestOtherPlatformFiles(t *testing.T) {
	t.Parallel()
	st := indexGo(t, map[string]string{
		"go.mod":            "module example.com/p\n\ngo 1.26\n",
		"lib/lib.go":        "package lib\n\ntype Sizer interface{ Size() int }\n\nfunc F() int { return 1 }\n",
		"use/use.go":        "package use\n\ntype T struct{}\n\nfunc (T) Size() int { return 1 }\n",
		"use/use_plan9.go":  "package use\n\nimport \"example.com/p/lib\"\n\nfunc P() int { return lib.F() }\n",
		"other/other.go":    "package other\n\nfunc O() int { return 2 }\n",
		"other/other_js.go": "package other\n\nfunc J() int { return O() }\n",
	})
	ctx := context.Background()
	for _, tc := range []struct{ kind, symbol, certainty, why string }{
		{"implementations", "example.com/p/lib.Sizer", Exact, ""},
		{"callers", "example.com/p/lib.F", LowerBound, "use/use_plan9.go (no type checker: left out of the loaded build"},
		{"callers", "example.com/p/other.O", LowerBound, "other/other_js.go"},
	} {
		a, err := Ask(ctx, st, tc.kind, tc.symbol)
		if err != nil {
			t.Fatal(err)
		}
		if a.Certainty != tc.certainty || !strings.Contains(a.Why, tc.why) {
			t.Errorf("%s %s: %s (%s), want %s containing %q", tc.kind, tc.symbol, a.Certainty, a.Why, tc.certainty, tc.why)
		}
	}
}
