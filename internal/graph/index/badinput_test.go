package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// TestBadInputIsIndexedAsFarAsItCanBe: a repository with a broken Go build, a
// 50 MB generated file, a minified bundle, a binary file with a source
// extension, a symlink loop, a Latin-1 file and a file no extractor reads.
// The run ends well within its time bound; what can be read is indexed; every
// file left out is listed with its reason, and the list is kept for status
// answers.
func TestBadInputIsIndexedAsFarAsItCanBe(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"go.mod":          "module example.com/broken\n\ngo 1.26\n",
		"ok.go":           "package broken\n\n// Fine type-checks.\nfunc Fine() int { return 1 }\n",
		"bad.go":          "package broken\n\nfunc Bad() int { return undefinedName }\n",
		"app/main.py":     "def main():\n    helper()\n\ndef helper():\n    pass\n",
		"notes.txt":       "not code\n",
		"vendor.min.js":   "var a=1;" + strings.Repeat("function f(){return 1};", 4000) + "\n",
		"blob.c":          "int x;\x00\x01\x02 binary\n",
		"legacy/latin.py": "# caf\xe9 cr\xe8me\ndef na\xefve():\n    pass\n",
		"Dockerfile":      "FROM golang:1.22 AS build\nFROM alpine\nCOPY --from=build /a /a\n",
		"README.md":       "# Readme\n\nSee [main](app/main.py).\n",
	})
	big, err := os.Create(filepath.Join(root, "gen", "huge.js"))
	if os.IsNotExist(err) {
		if err = os.MkdirAll(filepath.Join(root, "gen"), 0o755); err == nil {
			big, err = os.Create(filepath.Join(root, "gen", "huge.js"))
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(50 << 20); err != nil { // sparse: 50 MB without writing them
		t.Fatal(err)
	}
	big.Close()
	for link, target := range map[string]string{"loop/a": "b", "loop/b": "a"} {
		if err := os.MkdirAll(filepath.Join(root, "loop"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	st := openStore(t)
	start := time.Now()
	rep, err := Run(ctx, root, st, Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract})
	if err != nil {
		t.Fatalf("run: %v (after %v)", err, time.Since(start))
	}
	if rep.GoErrors == 0 {
		t.Errorf("the broken Go build reports no error: %+v", rep)
	}
	for _, q := range []string{"app/main.py::helper", "legacy/latin.py::na\u00efve", "Dockerfile::build", "README.md::#readme"} {
		if _, err := st.Node(ctx, q); err != nil {
			t.Errorf("%s is not indexed: %v", q, err)
		}
	}
	want := map[string]string{
		"gen/huge.js":     WhyTooLarge,
		"vendor.min.js":   WhyGenerated,
		"blob.c":          WhyBinary,
		"loop/a":          WhySymlinkLoop,
		"loop/b":          WhySymlinkLoop,
		"legacy/latin.py": WhyNotUTF8,
		"notes.txt":       WhyUnknownLanguage,
		"go.mod":          WhyUnknownLanguage,
	}
	lo := rep.LeftOut
	if lo == nil {
		t.Fatal("no left_out in the report")
	}
	listed := map[string]LeftOutFile{}
	for _, f := range lo.Files {
		listed[f.Path] = f
	}
	for p, why := range want {
		if listed[p].Why != why {
			t.Errorf("%s: listed as %+v, want reason %q", p, listed[p], why)
		}
	}
	if !listed["legacy/latin.py"].Partial || listed["gen/huge.js"].Partial {
		t.Errorf("partial marks: latin.py %+v, huge.js %+v; want only the indexed one partial", listed["legacy/latin.py"], listed["gen/huge.js"])
	}
	if lo.ByReason[WhySymlinkLoop] != 2 || lo.ByReason[WhyUnknownLanguage] != 2 || lo.Count != len(lo.Files) {
		t.Errorf("counts = %+v (count %d, %d listed)", lo.ByReason, lo.Count, len(lo.Files))
	}
	for _, s := range rep.Skipped {
		if WhyOf(s.Reason) == WhyUnknownLanguage {
			t.Errorf("Skipped lists %s of an unknown language; LeftOut counts those", s.Rel)
		}
	}
	saved, err := ReadLeftOut(ctx, st)
	if err != nil || saved == nil || saved.Count != lo.Count || len(saved.Files) != len(lo.Files) {
		t.Errorf("saved left_out = %+v, %v; want the report's", saved, err)
	}
}

// TestLeftOutListIsBounded: the list stops at MaxLeftOutListed, the counts do
// not, and the rare reasons come before the many unknown-language files.
func TestLeftOutListIsBounded(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.py": "def f(:\n", "blob.c": "\x00"}
	for i := range MaxLeftOutListed + 20 {
		files[filepath.Join("data", strings.Repeat("x", 1+i%7)+string(rune('a'+i%26))+"-"+time.Duration(i).String()+".txt")] = "x"
	}
	root := writeTree(t, files)
	st := openStore(t)
	rep, err := Run(context.Background(), root, st, Options{Extract: treesitter.Extractor{}.Extract})
	if err != nil {
		t.Fatal(err)
	}
	lo := rep.LeftOut
	if len(lo.Files) != MaxLeftOutListed || !lo.Truncated || lo.Count != MaxLeftOutListed+22 {
		t.Fatalf("listed %d of %d, truncated %v", len(lo.Files), lo.Count, lo.Truncated)
	}
	if lo.Files[0].Path != "a.py" || lo.Files[0].Why != WhyParseError || lo.Files[1].Why != WhyBinary {
		t.Errorf("first listed = %+v, %+v; want the parse error, then the binary file", lo.Files[0], lo.Files[1])
	}
	if lo.ByReason[WhyUnknownLanguage] != MaxLeftOutListed+20 {
		t.Errorf("by reason = %v", lo.ByReason)
	}
}

func TestWhyOfClassifiesEveryReason(t *testing.T) {
	t.Parallel()
	for reason, want := range map[string]string{
		reasonUnknownLanguage:                   WhyUnknownLanguage,
		"no extractor for python in this build": WhyUnknownLanguage,
		`extract a.x: language "x": no tree-sitter extraction spec for this language`: WhyUnknownLanguage,
		"syntax error at line 3; facts are partial":                                   WhyParseError,
		"tree-sitter parse exceeded the 5s budget":                                    WhyParseError,
		"not UTF-8: read as Latin-1; syntax error at line 2":                          WhyNotUTF8,
		"symbolic link loop (-> a)":                                                   WhySymlinkLoop,
		"symbolic link, not followed (-> a.go)":                                       WhySymlink,
		"not a regular file (p---------)":                                             WhyNotRegular,
		"directory nested deeper than the walk's limit":                               WhyTooDeep,
		"read: open a.py: permission denied":                                          WhyUnreadable,
		"open x: permission denied":                                                   WhyUnreadable,
		because(WhyTooLarge, "5 bytes"):                                               WhyTooLarge,
	} {
		if got := WhyOf(reason); got != want {
			t.Errorf("WhyOf(%q) = %q, want %q", reason, got, want)
		}
	}
}
