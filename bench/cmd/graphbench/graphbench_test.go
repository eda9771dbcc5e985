package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/app"
)

// TestMain lets the test binary play every process the pipeline starts: the
// launcher and the floor (as graphbench does), and albert-code itself, so the
// test needs no binary built beforehand.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "albert-code" {
		os.Exit(app.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if code, ok := runRole(os.Args[1:]); ok {
		os.Exit(code)
	}
	// A race-enabled binary sleeps 1 s at exit by default (to let other
	// goroutines report); the pipeline starts dozens of them.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	os.Exit(m.Run())
}

func testConfig(t *testing.T, ctags string, phases ...string) config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config{
		Albert: []string{exe, "albert-code"}, Self: exe, Ctags: ctags,
		N: 1, Warmup: 0, Changes: 1, Queries: 1, Seed: 1, Phases: phases,
		Timeout: 2 * time.Minute, Work: t.TempDir(), Log: testLog{t},
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// The whole pipeline on a tiny generated Go module and Python package: every
// phase reports every leg, change kind and question, with plausible figures.
func TestPipelineOnTinyCorpora(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := testConfig(t, "ctags", phaseIndex, phaseIncremental, phaseQuery)
	cfg.Sources = generatedSources(8, 2)
	rep, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, _, ctagsStatus := findCtags(ctx, "ctags")
	if len(rep.Corpora) != 2 {
		t.Fatalf("%d corpora reported, want 2", len(rep.Corpora))
	}
	for _, c := range rep.Corpora {
		t.Run(c.Name, func(t *testing.T) {
			if c.Files != 8 || c.Lines < 8*10 || len(c.Languages) != 1 || !c.Generated {
				t.Errorf("corpus = %d files, %d lines, languages %v, generated %v; want 8 files of 10+ lines in one language",
					c.Files, c.Lines, c.Languages, c.Generated)
			}
			if c.Languages["go"] > 0 && (!c.GoTypes || c.GoErrors != 0) {
				t.Errorf("generated Go module: type-checked %v with %d errors, want a module that type-checks", c.GoTypes, c.GoErrors)
			}
			checkIndexLegs(t, c.Index, ctagsStatus)
			checkIncremental(t, c.Incremental, cfg.Changes)
			checkQueries(t, c.Queries)
		})
	}
	var md bytes.Buffer
	printMarkdown(&md, rep)
	for _, want := range []string{"| corpus | albert-code wall (ms)", "| gen-go-8 | function body |", "| gen-py-8 | impact |", "- goal query p95 < 50 ms in-process"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q:\n%s", want, md.String())
		}
	}
}

func checkIndexLegs(t *testing.T, legs []legStats, ctagsStatus string) {
	t.Helper()
	if len(legs) != 3 || legs[0].Name != legAlbert || legs[1].Name != legCtags || legs[2].Name != legFloor {
		t.Fatalf("index legs = %+v, want albert-code, ctags, floor", legs)
	}
	for _, l := range legs {
		if l.Name == legCtags && ctagsStatus != "ok" {
			if !strings.HasPrefix(l.Status, "not installed") || l.Runs != 0 {
				t.Errorf("ctags leg without universal-ctags = %+v, want status \"not installed…\" and no run", l)
			}
			continue
		}
		// A process cannot start, run and exit in under 0.1 ms, nor fit in 1 MiB.
		if l.Status != "ok" || l.Runs != 1 || l.WallMedianMs < 0.1 || l.WallP90Ms < l.WallMedianMs ||
			l.RSSMedianMiB < 1 || l.RSSMedianMiB > 4096 || l.Output == "" {
			t.Errorf("leg %s = %+v, want one run with a plausible wall time, RSS and output", l.Name, l)
		}
	}
}

func checkIncremental(t *testing.T, changes []changeStats, n int) {
	t.Helper()
	if len(changes) != 3 || changes[0].Kind != changeNone || changes[1].Kind != changeBody || changes[2].Kind != changeAdd {
		t.Fatalf("incremental kinds = %+v, want no change, function body, new function", changes)
	}
	for _, s := range changes {
		if s.Changes != n || s.Verified != n || s.WallMedianMs < 0.1 || s.WallP95Ms < s.WallMedianMs || s.RSSMedianMiB < 1 {
			t.Errorf("%s = %+v, want %d verified changes with plausible times", s.Kind, s, n)
		}
		if got, edits := s.ExtractedMedian, s.Kind != changeNone; edits != (got >= 1) {
			t.Errorf("%s: %v files re-extracted (median), want at least 1 exactly when a file changed", s.Kind, got)
		}
	}
}

func checkQueries(t *testing.T, qs []queryStats) {
	t.Helper()
	if len(qs) != len(questionKinds) {
		t.Fatalf("%d question kinds measured, want %d", len(qs), len(questionKinds))
	}
	for i, q := range qs {
		if q.Kind != questionKinds[i].kind || q.Symbols != 1 || q.InProcessP50Ms <= 0 || q.InProcessP95Ms < q.InProcessP50Ms ||
			q.CLIP50Ms < 0.1 || q.CLIP95Ms < q.CLIP50Ms || q.CLIP50Ms < q.InProcessP50Ms {
			t.Errorf("%s = %+v, want 1 symbol, in-process below CLI latency", questionKinds[i].kind, q)
		}
		if q.Kind == "definition" && q.NonEmpty != q.Symbols {
			t.Errorf("definition answered %d of %d sampled symbols, want all", q.NonEmpty, q.Symbols)
		}
	}
}

// Without universal-ctags the leg says so in the report instead of failing the
// run or vanishing from it.
func TestCtagsLegNotInstalled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := testConfig(t, filepath.Join(t.TempDir(), "no-ctags-here"), phaseIndex)
	cfg.Sources = generatedSources(4, 2)[1:] // Python: no type checker to wait for
	rep, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Ctags, "not installed") {
		t.Errorf("report's ctags = %q, want not installed", rep.Ctags)
	}
	checkIndexLegs(t, rep.Corpora[0].Index, rep.Ctags)
	var md bytes.Buffer
	printMarkdown(&md, rep)
	if !strings.Contains(md.String(), "— (not installed") {
		t.Errorf("Markdown report does not say ctags is not installed:\n%s", md.String())
	}
}

func TestFindCtagsRefusesAnotherCtags(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "ctags")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'Exuberant Ctags 5.8'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path, _, status := findCtags(context.Background(), fake)
	if path != "" || !strings.Contains(status, "is not universal-ctags") {
		t.Errorf("findCtags(exuberant) = %q, %q; want refused", path, status)
	}
}

// The generated Go module type-checks, and each generated interface has
// exactly one implementation: a graph where every type implements every
// interface would measure a shape no real module has.
func TestGeneratedGoModuleShape(t *testing.T) {
	dir := t.TempDir()
	if err := generateGo(dir, 9, 3); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	pkgs := map[string]*types.Package{}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p := pkgs[path]; p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("package %s not checked yet", path)
	})
	var ifaces []*types.Interface
	var boxes []types.Type
	for p := range 3 { // each package imports the one before
		name := fmt.Sprintf("p%02d", p)
		matches, _ := filepath.Glob(filepath.Join(dir, name, "*.go"))
		var files []*ast.File
		for _, m := range matches {
			f, err := parser.ParseFile(fset, m, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		pkg, err := (&types.Config{Importer: imp}).Check(genModulePath+"/"+name, fset, files, nil)
		if err != nil {
			t.Fatalf("generated package %s does not type-check: %v", name, err)
		}
		pkgs[pkg.Path()] = pkg
		for _, n := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(n)
			switch {
			case strings.HasPrefix(n, "Shape"):
				ifaces = append(ifaces, obj.Type().Underlying().(*types.Interface))
			case strings.HasPrefix(n, "Box"):
				boxes = append(boxes, types.NewPointer(obj.Type()))
			}
		}
	}
	if len(ifaces) != 9 || len(boxes) != 9 {
		t.Fatalf("%d interfaces and %d boxes, want 9 of each", len(ifaces), len(boxes))
	}
	for i, iface := range ifaces {
		n := 0
		for _, b := range boxes {
			if types.Implements(b, iface) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("interface %d has %d implementations, want 1", i, n)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// A change kind stops once its re-indexes exceeded the budget, and the report
// says how many ran.
func TestChangeBudgetStopsAKindEarly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := testConfig(t, "ctags", phaseIncremental)
	cfg.Changes, cfg.ChangeBudget = 3, time.Nanosecond
	cfg.Sources = generatedSources(6, 2)[1:]
	rep, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Corpora[0].Incremental {
		if s.Changes != 1 || s.Verified != 1 {
			t.Errorf("%s: %d changes (%d verified) under a 1 ns budget, want 1", s.Kind, s.Changes, s.Verified)
		}
	}
	var md bytes.Buffer
	printMarkdown(&md, rep)
	if !strings.Contains(md.String(), "-change-budget 1ns") || !strings.Contains(md.String(), "| gen-py-6 | new function | 1 |") {
		t.Errorf("Markdown report does not show the budget and the single run:\n%s", md.String())
	}
}
