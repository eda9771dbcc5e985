package index

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
)

// A module that does not load says why, in the report and in the store (the
// answers drawn from the fallback cite it), and the reason goes once it loads.
func TestGoLoadErrorIsReportedAndKept(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/late\n\ngo 1.999\n",
		"a.go":   "package late\n\nfunc A() {}\n",
	})
	st := openStore(t)
	ctx := context.Background()
	opts := Options{Go: golang.Options{Env: []string{"GOPROXY=off"}}}
	rep, err := Run(ctx, root, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.GoTypes || !strings.Contains(rep.GoLoadError, "1.999") || strings.Contains(rep.GoLoadError, root) {
		t.Errorf("report: go_types %v, go_load_error %q; want the go command's reason, relative to the root", rep.GoTypes, rep.GoLoadError)
	}
	if v, _, err := st.Meta(ctx, golang.MetaLoadError); err != nil || v != rep.GoLoadError {
		t.Errorf("meta %s = %q, %v; want the report's reason", golang.MetaLoadError, v, err)
	}
	writeFile(t, root, "go.mod", "module example.com/late\n\ngo 1.26\n")
	rep, err = Run(ctx, root, st, opts)
	if err != nil || !rep.GoTypes || rep.GoLoadError != "" {
		t.Fatalf("run after the fix = %+v, %v", rep, err)
	}
	if v, _, err := st.Meta(ctx, golang.MetaLoadError); err != nil || v != "" {
		t.Errorf("meta %s = %q, %v after the module loaded; want empty", golang.MetaLoadError, v, err)
	}
}

// The Go extractor's errors are parse errors in what is left out: the file's
// facts are partial, not unreadable.
func TestGoErrorsArePartialFacts(t *testing.T) {
	t.Parallel()
	for _, reason := range []string{"type error: 3:13: undefined: x", "load error: 3:8: could not import example.com/x", "3:10: expected ')', found '{'"} {
		if got := WhyOf(reason); got != WhyParseError {
			t.Errorf("WhyOf(%q) = %q, want %q", reason, got, WhyParseError)
		}
	}
}
