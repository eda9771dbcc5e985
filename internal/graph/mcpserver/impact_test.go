package mcpserver

import (
	"strings"
	"testing"
)

// get_impact takes a depth and a hop range, and reports every hop's count so an
// agent can ask for the hops it needs.
func TestImpactDepthAndHops(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	cs, _ := connect(t, Config{Root: root})
	const sym = "example.com/fixture/shapes.Square.Area"

	var deep ImpactOut
	if res := call(t, cs, "get_impact", map[string]any{"symbol": sym, "depth": 4}, &deep); res.IsError {
		t.Fatalf("get_impact = %s", resultText(res))
	}
	if deep.Depth != 4 || len(deep.ByHop) < 2 || deep.Reached != len(deep.Items) {
		t.Fatalf("depth 4: depth %d, by_hop %v, reached %d, %d items", deep.Depth, deep.ByHop, deep.Reached, len(deep.Items))
	}
	for _, it := range deep.Items {
		if it.Hop < 1 || it.Hop > 4 || (it.Hop > 1 && it.Via == "") {
			t.Errorf("item %+v: want a hop in 1..4 and, past the first, the node it came through", it)
		}
	}

	var shallow ImpactOut
	call(t, cs, "get_impact", map[string]any{"symbol": sym, "depth": 1}, &shallow)
	if shallow.Depth != 1 || len(shallow.ByHop) != 1 || shallow.Reached != deep.ByHop[0].Count {
		t.Errorf("depth 1: %+v, want only the first hop (%d nodes)", shallow.ByHop, deep.ByHop[0].Count)
	}

	second := deep.ByHop[1].Hop
	var page ImpactOut
	call(t, cs, "get_impact", map[string]any{"symbol": sym, "depth": 4, "from_hop": second, "to_hop": second}, &page)
	if len(page.Items) != deep.ByHop[1].Count || page.FromHop != second || page.ToHop != second {
		t.Fatalf("hop %d only: %d items (want %d), from %d to %d", second, len(page.Items), deep.ByHop[1].Count, page.FromHop, page.ToHop)
	}
	for _, it := range page.Items {
		if it.Hop != second {
			t.Errorf("hop filter leaked %+v", it)
		}
	}

	res := call(t, cs, "get_impact", map[string]any{"symbol": sym, "depth": 11}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "depth 11") {
		t.Errorf("depth 11 = %s, want an error naming the bound", resultText(res))
	}
}

func TestCommunitiesTool(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	cs, _ := connect(t, Config{Root: root})
	var all CommunitiesOut
	res := call(t, cs, "get_communities", map[string]any{"limit": 1}, &all)
	if res.IsError || all.Count < 2 || len(all.Communities) != 1 || !all.Truncated || all.NextOffset == nil ||
		all.TotalCount != all.Count || !strings.Contains(all.Why, "heuristic") || all.Freshness == nil {
		t.Fatalf("get_communities = %s", resultText(res))
	}
	var one CommunitiesOut
	res = call(t, cs, "get_communities", map[string]any{"symbol": "example.com/fixture/shapes.Square"}, &one)
	if res.IsError || len(one.Communities) != 1 || !strings.Contains(resultText(res), `"qualified_name":"example.com/fixture/shapes.Square"`) {
		t.Fatalf("get_communities(Square) = %s", resultText(res))
	}
	res = call(t, cs, "get_communities", map[string]any{"symbol": "Squar"}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "did_you_mean") {
		t.Errorf("unknown symbol = %s", resultText(res))
	}
}

// A bare name naming several definitions gets the candidates, short, unless
// all_definitions asks for every answer at once; items leave out what repeats
// the item or the answer.
func TestAmbiguousNameAndCompactItems(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	cs, _ := connect(t, Config{Root: root})
	var amb AmbiguousOut
	res := call(t, cs, "find_callers", map[string]any{"symbol": "Area"}, &amb)
	if res.IsError || !amb.Ambiguous || len(amb.Targets) < 3 || !strings.Contains(amb.Why, "qualified_name") {
		t.Fatalf("find_callers(Area) = %s", resultText(res))
	}
	for _, tg := range amb.Targets {
		if tg.File == "" || tg.Line == 0 || !strings.HasSuffix(tg.QName, ".Area") {
			t.Errorf("target %+v", tg)
		}
	}
	var all AnswerOut
	res = call(t, cs, "find_callers", map[string]any{"symbol": "Area", "all_definitions": true}, &all)
	if res.IsError || len(all.Targets) != len(amb.Targets) || len(all.Items) == 0 {
		t.Fatalf("all_definitions = %s", resultText(res))
	}
	res = call(t, cs, "get_impact", map[string]any{"symbol": "Area"}, &amb)
	if res.IsError || !amb.Ambiguous {
		t.Fatalf("get_impact(Area) = %s", resultText(res))
	}

	var one AnswerOut
	res = call(t, cs, "find_callers", map[string]any{"symbol": "example.com/fixture/shapes.Describe"}, &one)
	text := resultText(res)
	if res.IsError || len(one.Items) == 0 || strings.Contains(text, `"site_file"`) || strings.Contains(text, `"resolution"`) {
		t.Fatalf("callers items should omit the site's file (the caller's own) and exact resolutions: %s", text)
	}
	for _, it := range one.Items {
		if it.File == "" || it.Line == 0 || it.SiteLine == 0 {
			t.Errorf("item %+v lacks its place", it)
		}
	}
}
