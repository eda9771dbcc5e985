package query

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// sections renders items as "section:name" in answer order.
func sections(items []Item) string {
	var out []string
	for _, it := range items {
		out = append(out, it.Section+":"+strings.TrimPrefix(it.QName, chainPkg))
	}
	return strings.Join(out, ",")
}

func TestContext(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	tests := []struct {
		symbol    string
		want      string
		certainty string
		why       string
	}{
		{"D", "definition:D,container:example.com/c/chain,callers:C,callers:Job.Run", Exact, "every section is complete"},
		{chainPkg + "Job", "definition:Job,container:example.com/c/chain,methods:Job.Run,fields:Job.N,implements:Runner," +
			"references:Job.Run,references:Big.Job,references:Main", Exact, ""},
		{"Runner", "definition:Runner,container:example.com/c/chain,methods:Runner.Run,implementations:Job,implementations:Big," +
			"references:Start", Exact, ""},
		// A bare name that means a struct and a field shows the struct, and says so.
		{"Job", "definition:Job,container:example.com/c/chain,methods:Job.Run,fields:Job.N,implements:Runner," +
			"references:Job.Run,references:Big.Job,references:Main", LowerBound, "ask for example.com/c/chain.Big.Job by qualified name"},
		{chainPkg + "Job.Run", "definition:Job.Run,container:Job,callees:D", LowerBound, "callers: interface calls to example.com/c/chain.Runner.Run"},
	}
	for _, tt := range tests {
		a, err := Ask(context.Background(), st, "context", tt.symbol)
		if err != nil {
			t.Errorf("%s: %v", tt.symbol, err)
			continue
		}
		if got := sections(a.Items); got != tt.want || a.Certainty != tt.certainty || !strings.Contains(a.Why, tt.why) {
			t.Errorf("context of %s = [%s] %s (%s)\nwant [%s] %s containing %q", tt.symbol, got, a.Certainty, a.Why, tt.want, tt.certainty, tt.why)
		}
	}
	d, err := Ask(context.Background(), st, "context", "D")
	if err != nil {
		t.Fatal(err)
	}
	if def := d.Items[0]; def.Signature != "func D() int" || !strings.HasPrefix(def.Doc, "D is where the chain ends.") {
		t.Errorf("definition = %+v, want its signature and doc", def)
	}
}

// TestContextBudget checks that the answer fits, and that sections are given up
// least important first: a section loses items only when every less important one
// has lost them all.
func TestContextBudget(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	full, err := Ask(context.Background(), st, "context", chainPkg+"Job")
	if err != nil {
		t.Fatal(err)
	}
	fullSize := jsonSize(t, full)
	for _, budget := range []int{fullSize - 1, 1600, 1300, 900} {
		a, err := AskWith(context.Background(), st, "context", chainPkg+"Job", Options{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if size := jsonSize(t, a); size > budget || a.Truncated {
			t.Errorf("budget %d: %d bytes, truncated %v", budget, size, a.Truncated)
		}
		if a.Certainty != LowerBound || !strings.Contains(a.Why, fmt.Sprintf("left out to fit the budget of %d characters: ", budget)) ||
			!strings.Contains(a.Why, "references (") {
			t.Errorf("budget %d: %s (%s), want a lower bound that says references were left out", budget, a.Certainty, a.Why)
		}
		var lost []string
		for _, s := range a.Sections {
			if s.Shown < s.Total {
				lost = append(lost, s.Name)
			}
		}
		slices.SortFunc(lost, func(x, y string) int { return slices.Index(dropOrder, x) - slices.Index(dropOrder, y) })
		for i, name := range lost[:max(len(lost)-1, 0)] {
			if s := a.Sections[slices.IndexFunc(a.Sections, func(s Section) bool { return s.Name == name })]; s.Shown > 0 {
				t.Errorf("budget %d: %s kept %d item(s) while %s lost some", budget, name, s.Shown, lost[i+1])
			}
		}
		if budget == fullSize-1 && (len(lost) != 1 || a.Sections[len(a.Sections)-1].Shown == 0) {
			t.Errorf("budget one byte short: sections %+v, want only references trimmed, not dropped", a.Sections)
		}
	}

	tiny, err := AskWith(context.Background(), st, "context", "D", Options{Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if def := tiny.Items[0]; len(tiny.Items) != 1 || !tiny.Truncated || !strings.HasSuffix(def.Doc, "…") && def.Doc != "" ||
		!strings.Contains(tiny.Why, "the definition alone exceeds the budget") {
		t.Errorf("budget 300: %+v, want the definition alone, its doc cut, truncated", tiny)
	}
}

// TestContextSectionCap: a section shows sectionCap items and says how many it has.
func TestContextSectionCap(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := graph.FileFacts{Path: "m.go", Language: "go", Hash: "x",
		Nodes: []graph.Node{{QName: "m.t", Kind: graph.KindFunction, Name: "t", Line: 1, Language: "go"}}}
	const callers = sectionCap + 5
	for i := range callers {
		name := fmt.Sprintf("c%02d", i)
		f.Nodes = append(f.Nodes, graph.Node{QName: "m." + name, Kind: graph.KindFunction, Name: name, Line: i + 2, Language: "go"})
		f.Edges = append(f.Edges, graph.Edge{From: "m." + name, To: "m.t", Kind: graph.EdgeCalls, Confidence: 1,
			Resolution: graph.ResolvedTypes, Line: i + 2})
	}
	if err := st.ReplaceFiles(context.Background(), []graph.FileFacts{f}, nil); err != nil {
		t.Fatal(err)
	}
	a, err := AskWith(context.Background(), st, "context", "m.t", Options{Budget: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	want := Section{Name: "callers", Total: callers, Shown: sectionCap}
	if len(a.Sections) != 1 || a.Sections[0] != want || len(a.Items) != 1+sectionCap || a.Certainty != LowerBound ||
		!strings.Contains(a.Why, fmt.Sprintf("callers (%d of %d shown)", sectionCap, callers)) {
		t.Errorf("sections %+v, %d items, %s (%s); want %+v", a.Sections, len(a.Items), a.Certainty, a.Why, want)
	}
}

func jsonSize(t *testing.T, a *Answer) int {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
