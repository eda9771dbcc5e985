package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// bins holds the engine and gt-go, built once for the package's tests.
var bins struct{ engine, gtGo string }

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "graphacc-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bins.engine, bins.gtGo = filepath.Join(dir, "albert-code"), filepath.Join(dir, "gt-go")
	for _, b := range [][2]string{{bins.engine, "github.com/etalab-ia/albert-code/cmd/albert-code"},
		{bins.gtGo, "github.com/etalab-ia/albert-code/bench/graphacc/gt-go"}} {
		build := exec.Command("go", "build", "-o", b[0], b[1])
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build", b[1], "for the accuracy tests:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// goFixture copies bench/graphacc/testdata (indexing writes into the corpus) and
// writes its ground truth with gt-go.
func goFixture(t *testing.T, ctx context.Context) *truth.File {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "accfixture")
	if err := copyTree("../../graphacc/testdata", dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "truth.json")
	if b, err := exec.CommandContext(ctx, bins.gtGo, "-o", out, dir).CombinedOutput(); err != nil {
		t.Fatalf("gt-go: %v\n%s", err, b)
	}
	f, err := truth.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// minGoF1 is the goal for type-checked Go, per kind (issue 3, "Measure").
const minGoF1 = 0.95

// The engine answers every kind of question about type-checked Go with a macro F1
// of at least 0.95 against the compiler's ground truth; through MCP it gives the
// answers it gives on the command line; the baseline's characters and F1 are
// measured on the same questions.
func TestGoAccuracy(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	f := goFixture(t, ctx)
	run, err := measure(ctx, "accfixture", f, ModeEngine, Settings{Engine: bins.engine, N: 60, ZeroShare: 0.1, Seed: "graphacc-v1", Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	if run.Index["go_types"] != true {
		t.Fatalf("the engine did not type-check the fixture: %v", run.Index)
	}
	for _, s := range run.Kinds {
		if s.Questions == 0 {
			t.Errorf("%s: no question sampled", s.Kind)
		}
		if s.MacroF1 < minGoF1 {
			var b strings.Builder
			writeExamples(&b, []*Run{run}, 5)
			t.Errorf("%s: F1 %.3f < %.2f over %d questions\n%s", s.Kind, s.MacroF1, minGoF1, s.Questions, b.String())
		}
	}
	if len(run.Tokens) != len(Kinds) {
		t.Fatalf("token summaries for %d kinds, want %d", len(run.Tokens), len(Kinds))
	}
	for i, tok := range run.Tokens {
		if cliF1 := run.Kinds[i].MacroF1; tok.Kind != run.Kinds[i].Kind || tok.EngineF1 != cliF1 {
			t.Errorf("%s: F1 through MCP %.3f, through the command line %.3f", tok.Kind, tok.EngineF1, cliF1)
		}
		if tok.EngineChars == 0 || tok.BaselineChars == 0 || tok.EngineCalls < tok.Questions {
			t.Errorf("%s: %d MCP characters in %d calls, %d baseline characters for %d questions", tok.Kind,
				tok.EngineChars, tok.EngineCalls, tok.BaselineChars, tok.Questions)
		}
		if tok.BaselineF1 <= 0 || tok.BaselineF1 > 1 {
			t.Errorf("%s: baseline F1 %.3f out of (0, 1]", tok.Kind, tok.BaselineF1)
		}
	}
}

// The harness reads the TypeScript and Python ground truth the same way: the
// golden files of gt-ts and gt-py (their own tests check they are what the
// programs write) over their tiny corpora. The engine must find a definition at
// nearly every sampled key — the ground truth and the engine agree on where a
// name is — and answer through MCP as on the command line. Their F1 goals (0.85,
// 0.80) are reported here, not enforced: docs/benchmarks/graph-accuracy.md has the figures.
func TestOtherLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, dir string
		goal      float64
	}{
		{"typescript", "../../graphacc/gt-ts/testdata", 0.85},
		{"python", "../../graphacc/gt-py/testdata", 0.80},
	} {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			f, err := truth.Read(filepath.Join(c.dir, "tiny.want.json"))
			if err != nil {
				t.Fatal(err)
			}
			if f.Language != c.lang {
				t.Fatalf("language %q, want %q", f.Language, c.lang)
			}
			if f.Root, err = filepath.Abs(filepath.Join(c.dir, "tiny")); err != nil {
				t.Fatal(err)
			}
			run, err := measure(ctx, "tiny", f, ModeEngine, Settings{Engine: bins.engine, N: 60, ZeroShare: 0.1, Seed: "graphacc-v1", Tokens: true})
			if err != nil {
				t.Fatal(err)
			}
			asked, noDef := 0, 0
			for _, s := range run.Kinds {
				asked += s.Questions
				noDef += s.NoDef
				if tok, ok := tokensFor(run, s.Kind); s.Questions > 0 && (!ok || tok.EngineF1 != s.MacroF1) {
					t.Errorf("%s: F1 through MCP %.3f, through the command line %.3f", s.Kind, tok.EngineF1, s.MacroF1)
				}
				t.Logf("%s: F1 %.3f over %d questions (goal %.2f)", s.Kind, s.MacroF1, s.Questions, c.goal)
			}
			if asked == 0 || noDef*10 > asked {
				var b strings.Builder
				writeExamples(&b, []*Run{run}, 3)
				t.Errorf("the engine has no definition at %d of %d sampled keys\n%s", noDef, asked, b.String())
			}
		})
	}
}

func tokensFor(r *Run, kind string) (TokenSummary, bool) {
	for _, s := range r.Tokens {
		if s.Kind == kind {
			return s, true
		}
	}
	return TokenSummary{}, false
}
