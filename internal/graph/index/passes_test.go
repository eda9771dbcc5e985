package index

import (
	"context"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// twoFileModule is a module whose caller of B sits in another file: the first
// pass cannot vouch for it, the type checker can.
var twoFileModule = map[string]string{
	"go.mod": "module example.com/two\n\ngo 1.21\n",
	"a.go":   "package two\n\nfunc A() { B() }\n",
	"b.go":   "package two\n\nfunc B() {}\n",
}

func passOptions() Options {
	return Options{Go: golang.Options{Env: []string{"GOPROXY=off"}}, Extract: treesitter.Extract}
}

// askCallers asks who calls B and fails the test on an error.
func askCallers(t *testing.T, st *store.Store) *query.Answer {
	t.Helper()
	a, err := query.Ask(context.Background(), st, "callers", "example.com/two.B")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func wantPending(t *testing.T, a *query.Answer) {
	t.Helper()
	if a.Certainty != query.LowerBound || !strings.Contains(a.Why, golang.TypesPending) {
		t.Errorf("callers during the first pass: %s, %q; want %s citing %q", a.Certainty, a.Why, query.LowerBound, golang.TypesPending)
	}
}

func wantExactCaller(t *testing.T, a *query.Answer) {
	t.Helper()
	if a.Certainty != query.Exact || len(a.Items) != 1 || a.Items[0].QName != "example.com/two.A" {
		t.Errorf("callers after the typed pass: %s (%q), %+v; want exactly example.com/two.A", a.Certainty, a.Why, a.Items)
	}
}

// A question asked while the background typed pass is held back gets the
// first pass's lower bound with its reason; once the pass lands, the exact
// answer, without the question having waited for the type checker.
func TestLiveLandsTheTypedPassInTheBackground(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root, db, opts := firstPassOnly(ctx, t)

	l, err := OpenLive(root, db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	release := make(chan struct{})
	l.holdTypes = release
	st, _, err := l.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantPending(t, askCallers(t, st))
	if s := l.Stats(); !s.TypesPending || s.TypedPasses != 0 {
		t.Errorf("stats while held back: %+v; want pending, no pass landed", s)
	}

	close(release)
	if err := l.WaitTypes(ctx); err != nil {
		t.Fatal(err)
	}
	st, _, err = l.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantExactCaller(t, askCallers(t, st))
	if s := l.Stats(); s.TypesPending || s.TypedPasses != 1 || s.TypesError != "" {
		t.Errorf("stats after the pass: %+v; want one pass landed, nothing pending", s)
	}
	if v, _, err := st.Meta(ctx, golang.MetaTypesPending); err != nil || v != "" {
		t.Errorf("meta %s = %q, %v after the pass; want empty", golang.MetaTypesPending, v, err)
	}
}

// A load made from other Go files than the index holds (one edited while the
// module loaded) is not written: the pass loads again.
func TestLiveTypedPassRefusesALoadOfOtherGoFiles(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root, db, opts := firstPassOnly(ctx, t)
	l, err := OpenLive(root, db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	l.holdTypes = make(chan struct{}) // never released: only the stale load is offered
	stale := &typedLoad{res: &golang.Result{}, hashes: map[string]string{"a.go": "old"}}
	if _, _, err := l.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if landed, err := l.landTypes(ctx, stale); err != nil || landed {
		t.Fatalf("landing a load of other Go files: %v, %v; want it refused", landed, err)
	}
	if !l.Stats().TypesPending {
		t.Error("a refused load cleared the pending pass")
	}
}

// graph index's two passes: the first report comes while the module loads and
// its answers are lower bounds that say why; the second is the typed index.
func TestRunInPassesAnswersFirstThenExactly(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	files := map[string]string{"tool.py": "def tool():\n    pass\n"} // extracted once, by the first pass
	maps.Copy(files, twoFileModule)
	root := writeTree(t, files)
	st := openStore(t)
	var firstRep *Report
	rep, err := RunInPasses(ctx, root, st, passOptions(), func(r *Report) {
		firstRep = r
		wantPending(t, askCallers(t, st))
	})
	if err != nil {
		t.Fatal(err)
	}
	if firstRep == nil || !firstRep.TypesPending {
		t.Fatalf("first report: %+v; want one, with Go pending", firstRep)
	}
	if !rep.GoTypes || rep.TypesPending || rep.GoFullReason != "the type checker's pass after the first answers" {
		t.Errorf("typed report: go_types %v, pending %v, reason %q", rep.GoTypes, rep.TypesPending, rep.GoFullReason)
	}
	if rep.Extracted != firstRep.Extracted || rep.Extracted == 0 || rep.Duration < firstRep.Duration {
		t.Errorf("typed report: %d extracted in %v; want the whole build's (first pass: %d in %v)",
			rep.Extracted, rep.Duration, firstRep.Extracted, firstRep.Duration)
	}
	wantExactCaller(t, askCallers(t, st))

	// An index that exists is brought up to date in one pass.
	called := false
	if _, err := RunInPasses(ctx, root, st, passOptions(), func(*Report) { called = true }); err != nil || called {
		t.Errorf("second RunInPasses: first pass heard %v, %v; want one pass", called, err)
	}
}

// firstPassOnly indexes twoFileModule with the first pass alone, as a new index
// is before its typed pass lands, and returns the tree, the index and the
// options of the typed pass.
func firstPassOnly(ctx context.Context, t *testing.T) (root, db string, opts Options) {
	t.Helper()
	root = writeTree(t, twoFileModule)
	db = filepath.Join(t.TempDir(), "graph.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opts = passOptions()
	first := opts
	first.FirstPass = true
	rep, err := Run(ctx, root, st, first)
	if err != nil || !rep.TypesPending || rep.GoTypes {
		t.Fatalf("first pass: %+v, %v; want Go pending, not typed", rep, err)
	}
	return root, db, opts
}
