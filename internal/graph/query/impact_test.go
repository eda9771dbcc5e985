package query

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// chain: F → A → B → C → D, E → C (a branch), and Job.Run → D, reached by Start and
// Main through the Runner interface.
const chain = `package chain

// D is where the chain ends. Its doc comment is long enough for a small budget to
// have to cut it: it says what D does, why, and for whom, in many more words than
// anybody needs to read to understand that it returns one.
func D() int { return 1 }

func C() int { return D() }

func B() int { return C() }

func A() int { return B() }

func E() int { return C() }

func F() int { return A() }

// Runner runs.
type Runner interface{ Run() int }

// Job is a Runner.
type Job struct{ N int }

func (Job) Run() int { return D() }

// Big embeds Job.
type Big struct{ Job }

func Start(r Runner) int { return r.Run() }

func Main() int { return Start(Job{}) }
`

const chainPkg = "example.com/c/chain."

func indexedChain(t *testing.T) *store.Store {
	t.Helper()
	return indexModule(t, "example.com/c", "chain/chain.go", chain)
}

// hops renders items as "hop:name" in answer order, the chain prefix trimmed.
func hops(items []Item) string {
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprintf("%d:%s", it.Hop, strings.TrimPrefix(it.QName, chainPkg)))
	}
	return strings.Join(out, ",")
}

func find(items []Item, name string) *Item {
	for i := range items {
		if strings.TrimPrefix(items[i].QName, chainPkg) == name {
			return &items[i]
		}
	}
	return nil
}

func TestImpact(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	ctx := context.Background()
	tests := []struct {
		name      string
		symbol    string
		opt       Options
		want      string
		certainty string
		why       string
		total     int
		next      int
	}{
		{"default depth stops with callers left", "D", Options{},
			"1:C,1:Job.Run,2:B,2:E,2:Start,3:A,3:Main", LowerBound, "stopped at depth 3; 1 node(s) at the frontier still have callers", 7, 0},
		{"deep enough is exact", "D", Options{Depth: 10},
			"1:C,1:Job.Run,2:B,2:E,2:Start,3:A,3:Main,4:F", Exact, "interface dispatch", 8, 0},
		{"one hop", "D", Options{Depth: 1}, "1:C,1:Job.Run", LowerBound, "stopped at depth 1; 2 node(s)", 2, 0},
		{"a page of hops", "D", Options{Depth: 10, FromHop: 2, ToHop: 2}, "2:B,2:E,2:Start", Exact, "", 8, 3},
		{"node cap", "D", Options{MaxNodes: 3}, "1:C,1:Job.Run,2:B", LowerBound, "stopped at the cap of 3 nodes while walking hop 2", 3, 0},
		// Big implements Runner through its embedded Job; Job.Run uses Job as its
		// receiver, Big.Job as its type.
		{"an interface reaches its implementations and users", "Runner", Options{Depth: 10},
			"1:Job,1:Big,1:Start,2:Job.Run,2:Big.Job,2:Main", Exact, "", 6, 0},
	}
	for _, tt := range tests {
		a, err := AskWith(ctx, st, "impact", tt.symbol, tt.opt)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := hops(a.Items); got != tt.want || a.Certainty != tt.certainty || !strings.Contains(a.Why, tt.why) ||
			a.TotalCount != tt.total || a.NextHop != tt.next {
			t.Errorf("%s: [%s] %s (%s) total %d next %d\nwant [%s] %s containing %q, total %d next %d",
				tt.name, got, a.Certainty, a.Why, a.TotalCount, a.NextHop, tt.want, tt.certainty, tt.why, tt.total, tt.next)
		}
	}
}

func TestImpactItems(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	a, err := AskWith(context.Background(), st, "impact", "D", Options{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(a.ByHop); got != "[{1 2} {2 3} {3 2} {4 1}]" {
		t.Errorf("by_hop = %s", got)
	}
	start := find(a.Items, "Start")
	if start == nil || start.Via != chainPkg+"Job.Run" || start.Relation != "calls" ||
		!strings.Contains(start.Why, "Runner.Run, which can dispatch to "+chainPkg+"Job.Run") {
		t.Errorf("Start = %+v, want reached from Job.Run through Runner.Run", start)
	}
	if b := find(a.Items, "B"); b == nil || b.Via != chainPkg+"C" || b.Why != "" || b.Confidence != 1 || b.SiteLine == 0 {
		t.Errorf("B = %+v, want reached from C by a call site with confidence 1", b)
	}
	if a.Truncated {
		t.Error("a complete walk says truncated")
	}
	capped, err := AskWith(context.Background(), st, "impact", "D", Options{MaxNodes: 3})
	if err != nil || !capped.Truncated {
		t.Errorf("capped walk = %+v, %v: want truncated", capped, err)
	}
}

func TestImpactRefusesBadOptions(t *testing.T) {
	t.Parallel()
	st := indexedChain(t)
	for _, opt := range []Options{{Depth: MaxDepth + 1}, {Depth: -1}, {FromHop: 3, ToHop: 2}, {MaxNodes: -1}} {
		if _, err := AskWith(context.Background(), st, "impact", "D", opt); err == nil {
			t.Errorf("%+v was accepted", opt)
		}
	}
}

func TestImpactUsedAsValue(t *testing.T) {
	t.Parallel()
	st := indexed(t) // shapes: Use passes Double to Apply
	a, err := Ask(context.Background(), st, "impact", "Double")
	if err != nil {
		t.Fatal(err)
	}
	if a.Certainty != LowerBound || !strings.Contains(a.Why, "used as values (example.com/q/shapes.Double)") {
		t.Errorf("impact of Double = %s (%s), want a lower bound naming the function value", a.Certainty, a.Why)
	}
}

// TestImpactConfidenceProduct walks a hand-built store of name-resolved edges:
//
//	a → t (0.9), b → t (0.5), b → a (0.9), c → a (0.9), c → b (1.0)
//
// b is reached at hop 1 by its direct edge, however weak; c at hop 2 by its best path
// (c → a → t: 0.81, not c → b → t: 0.5).
func TestImpactConfidenceProduct(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	node := func(name string, line int) graph.Node {
		return graph.Node{QName: "m." + name, Kind: graph.KindFunction, Name: name, Line: line, Language: "go"}
	}
	edge := func(from, to string, conf float64, line int) graph.Edge {
		return graph.Edge{From: "m." + from, To: "m." + to, Kind: graph.EdgeCalls, Confidence: conf,
			Resolution: graph.ResolvedName, Line: line}
	}
	facts := []graph.FileFacts{{Path: "m.go", Language: "go", Hash: "x",
		Nodes: []graph.Node{node("t", 1), node("a", 2), node("b", 3), node("c", 4)},
		Edges: []graph.Edge{edge("a", "t", 0.9, 2), edge("b", "t", 0.5, 3), edge("b", "a", 0.9, 3),
			edge("c", "a", 0.9, 4), edge("c", "b", 1.0, 4)},
	}}
	if err := st.ReplaceFiles(context.Background(), facts, nil); err != nil {
		t.Fatal(err)
	}
	a, err := Ask(context.Background(), st, "impact", "m.t")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		hop  int
		conf float64
		via  string
	}{"m.a": {1, 0.9, "m.t"}, "m.b": {1, 0.5, "m.t"}, "m.c": {2, 0.81, "m.a"}}
	if len(a.Items) != len(want) {
		t.Fatalf("items = %+v, want %d", a.Items, len(want))
	}
	for _, it := range a.Items {
		w := want[it.QName]
		if it.Hop != w.hop || math.Abs(it.Confidence-w.conf) > 1e-9 || it.Via != w.via || it.Resolution != "name" {
			t.Errorf("%s: hop %d confidence %v via %s (%s), want hop %d confidence %v via %s",
				it.QName, it.Hop, it.Confidence, it.Via, it.Resolution, w.hop, w.conf, w.via)
		}
	}
	if a.Certainty != LowerBound || !strings.Contains(a.Why, "matched by name") {
		t.Errorf("certainty %s (%s), want a lower bound for name-resolved edges", a.Certainty, a.Why)
	}
}
