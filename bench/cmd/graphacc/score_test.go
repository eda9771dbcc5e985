package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// tiny is a ground truth small enough to reason about by hand.
func tiny() *truth.File {
	return &truth.File{
		Language: "go",
		Files:    []string{"a.go", "b.go", "gen.go"},
		Definitions: []truth.Definition{
			{Key: "a.go:3", Name: "Run", Kind: truth.KindFunction},
			{Key: "a.go:9", Name: "helper", Kind: truth.KindFunction},
			{Key: "b.go:2", Name: "Shape", Kind: truth.KindInterface},
			{Key: "b.go:3", Name: "Area", Kind: truth.KindMethod, Abstract: true},
			{Key: "b.go:6", Name: "Box", Kind: truth.KindStruct},
			{Key: "b.go:7", Name: "Area", Kind: truth.KindMethod},
			{Key: "b.go:10", Name: "x", Kind: truth.KindField},
			{Key: "b.go:10", Name: "y", Kind: truth.KindField},
			{Key: "gen.go:4", Name: "Gen", Kind: truth.KindFunction, Generated: true},
		},
		Calls: []truth.Call{
			{From: "a.go:3", To: "a.go:9", Dispatch: truth.DispatchStatic},
			{From: "a.go:3", To: "b.go:3", Dispatch: truth.DispatchInterface},
			{From: "gen.go:4", To: "a.go:9", Dispatch: truth.DispatchStatic},
		},
		Unresolvable: []truth.Unresolvable{{From: "a.go:3", Site: "a.go:5", Name: "cb"}, {From: "a.go:9", Site: "a.go:11"}},
		References: []truth.Reference{
			{From: "a.go:3", To: "a.go:9"},
			{From: "b.go", To: "a.go:9"},
		},
		Implementations: []truth.Implementation{{Type: "b.go:6", Interface: "b.go:2"}},
	}
}

func TestPRFConventions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		tp, fp, fn int
		p, r, f1   float64
	}{
		{"empty answer to empty truth is perfect", 0, 0, 0, 1, 1, 1},
		{"anything answered to an empty truth is wrong", 0, 2, 0, 0, 1, 0},
		{"nothing answered to a non-empty truth misses it", 0, 0, 3, 1, 0, 0},
		{"half right", 1, 1, 1, 0.5, 0.5, 0.5},
	} {
		p, r, f1 := prf(c.tp, c.fp, c.fn)
		if p != c.p || r != c.r || f1 != c.f1 {
			t.Errorf("%s: prf(%d,%d,%d) = %v %v %v, want %v %v %v", c.name, c.tp, c.fp, c.fn, p, r, f1, c.p, c.r, c.f1)
		}
	}
}

func TestScoreDropsWhatTheTruthCannotJudge(t *testing.T) {
	t.Parallel()
	ix := newIndex(tiny())
	q := Question{Kind: Callers, About: ix.defs["a.go:9"][0], Truth: ix.truthFor(Callers, "a.go:9")}
	items := []Item{
		{QName: "m.Run", Kind: "function", File: "a.go", Line: 3},
		{QName: "m.Run", Kind: "function", File: "a.go", Line: 3, SiteLine: 7}, // a second site: one answer
		{QName: "fmt.Println", Kind: "external"},
		{QName: "m.win", Kind: "function", File: "b_windows.go", Line: 4},
		{QName: "m", Kind: "package", File: "a.go", Line: 1, SiteFile: "b.go", SiteLine: 1},
	}
	s := ix.score(q, items, "")
	if !slices.Equal(s.TP, []string{"a.go:3"}) || len(s.FP) != 0 {
		t.Errorf("TP %v FP %v, want only a.go:3 (gen.go:4 is in the truth)", s.TP, s.FP)
	}
	if !slices.Equal(s.FN, []string{"gen.go:4"}) {
		t.Errorf("FN = %v, want gen.go:4", s.FN)
	}
	want := map[string]int{"external": 1, "unanalysed": 1, "top-level": 1}
	for k, v := range want {
		if s.Dropped[k] != v {
			t.Errorf("dropped %s = %d, want %d (all: %v)", k, s.Dropped[k], v, s.Dropped)
		}
	}
}

func TestReferencesAtTopLevelAreTheFiles(t *testing.T) {
	t.Parallel()
	ix := newIndex(tiny())
	q := Question{Kind: References, About: ix.defs["a.go:9"][0], Truth: ix.truthFor(References, "a.go:9")}
	s := ix.score(q, []Item{
		{Kind: "function", File: "a.go", Line: 3},
		{Kind: "package", File: "a.go", Line: 1, SiteFile: "b.go", SiteLine: 12},
	}, "")
	if s.F1 != 1 {
		t.Errorf("F1 = %v (TP %v FP %v FN %v), want 1: a package-level use is the file's", s.F1, s.TP, s.FP, s.FN)
	}
}

func TestUnresolvableCallsAreNeutral(t *testing.T) {
	t.Parallel()
	ix := newIndex(tiny())
	run := ix.defs["a.go:3"][0]
	// The engine guesses that Run's call of cb reaches a function named cb, and
	// that helper's nameless call at a.go:11 reaches Box.Area.
	callees := ix.score(Question{Kind: Callees, About: run, Truth: ix.truthFor(Callees, run.Key)}, []Item{
		{QName: "m.helper", File: "a.go", Line: 9},
		{QName: "m.Shape.Area", File: "b.go", Line: 3},
		{QName: "m.cb", File: "b.go", Line: 20},
	}, "")
	if callees.F1 != 1 || !slices.Equal(callees.Neutral, []string{"b.go:20"}) {
		t.Errorf("callees of Run: F1 %v neutral %v FP %v, want 1 and b.go:20 neutral", callees.F1, callees.Neutral, callees.FP)
	}
	box := ix.defs["b.go:7"][0]
	callers := ix.score(Question{Kind: Callers, About: box, Truth: nil}, []Item{
		{QName: "m.helper", File: "a.go", Line: 9, SiteFile: "a.go", SiteLine: 11},
		{QName: "m.Run", File: "a.go", Line: 3, SiteFile: "a.go", SiteLine: 4},
	}, "")
	if !slices.Equal(callers.Neutral, []string{"a.go:9"}) || !slices.Equal(callers.FP, []string{"a.go:3"}) {
		t.Errorf("callers of Box.Area: neutral %v FP %v, want a.go:9 neutral (same site) and a.go:3 wrong", callers.Neutral, callers.FP)
	}
}

func TestSampling(t *testing.T) {
	t.Parallel()
	ix := newIndex(tiny())
	callers := ix.sample(Callers, 10, 0.5, "s")
	var about []string
	for _, q := range callers {
		about = append(about, q.About.Key)
	}
	slices.Sort(about)
	// Callers: functions and methods, never generated; helper and the abstract
	// Area have callers, Run and Box.Area do not.
	if want := []string{"a.go:3", "a.go:9", "b.go:3", "b.go:7"}; !slices.Equal(about, want) {
		t.Errorf("callers sample = %v, want %v", about, want)
	}
	for _, q := range ix.sample(Callees, 10, 0, "s") {
		if q.About.Abstract {
			t.Errorf("callees sample asks the abstract %s", q.About.Key)
		}
	}
	for _, q := range ix.sample(References, 10, 0.5, "s") {
		if q.About.Key == "b.go:10" {
			t.Error("references sample asks about b.go:10, a line two definitions share")
		}
	}
	one, two := ix.sample(References, 2, 0, "seed"), ix.sample(References, 2, 0, "seed")
	if !slices.EqualFunc(one, two, func(a, b Question) bool { return a.About.Key == b.About.Key }) {
		t.Errorf("the same seed sampled %v then %v", one, two)
	}
	if zeros := ix.sample(Callers, 2, 0.5, "s"); len(zeros) != 2 || len(zeros[0].Truth) == 0 || len(zeros[1].Truth) != 0 {
		t.Errorf("2 questions with a zero share of 0.5 = %+v, want one with an answer and one without", zeros)
	}
}

func TestUnloadableKeepsTheModulePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/x v1.0.0\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.22\nuse .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unloadable(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(mod, "go 1.22", unreleasedGo, 1); string(got) != want {
		t.Errorf("go.mod = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.work")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("go.work is still there: %v", err)
	}
}
