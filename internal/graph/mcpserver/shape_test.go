package mcpserver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every hint names a tool the profile lists, with arguments that tool accepts:
// following the first hint of find_callers answers without error.
func TestNextStepsAreCallsTheProfileServes(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	for _, profile := range []Profile{Full, Core} {
		cs, _ := connect(t, Config{Root: root, Profile: profile})
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, tl := range tools.Tools {
			listed[tl.Name] = true
		}
		ask := "find_callers"
		if profile == Core {
			ask = "get_symbol"
		}
		var out struct {
			NextSteps []NextStep `json:"next_steps"`
		}
		call(t, cs, ask, map[string]any{"symbol": "example.com/fixture/shapes.Register"}, &out)
		if len(out.NextSteps) == 0 || len(out.NextSteps) > maxNextSteps {
			t.Fatalf("%s %s: next_steps = %+v", profile, ask, out.NextSteps)
		}
		for _, st := range out.NextSteps {
			if !listed[st.Tool] || st.Why == "" {
				t.Errorf("%s: hint %+v names a tool the profile does not list", profile, st)
			}
		}
		first := out.NextSteps[0]
		if first.Tool != "get_impact" || first.Arguments["symbol"] != "example.com/fixture/shapes.Register" {
			t.Errorf("%s: first hint = %+v, want get_impact on Register", profile, first)
		}
		if res := call(t, cs, first.Tool, first.Arguments, nil); res.IsError {
			t.Errorf("%s: following %+v: %s", profile, first, resultText(res))
		}
	}
}

// A truncated page hints at the next one, with the same question.
func TestNextStepsPage(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: indexedFixture(t), Profile: Full})
	var out struct {
		NextSteps []NextStep `json:"next_steps"`
	}
	call(t, cs, "find_implementations", map[string]any{"symbol": "example.com/fixture/shapes.Shape", "limit": 1}, &out)
	i := slices.IndexFunc(out.NextSteps, func(s NextStep) bool { return s.Tool == "find_implementations" })
	if i < 0 || out.NextSteps[i].Arguments["offset"] != float64(1) || out.NextSteps[i].Arguments["symbol"] != "example.com/fixture/shapes.Shape" {
		t.Fatalf("next_steps = %+v, want the next page", out.NextSteps)
	}
}

// detail ids and format tabular keep the same items, certainty and page, in
// fewer characters; the test logs the sizes (docs/graph.md quotes them).
func TestCompactModes(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: indexedFixture(t), Profile: Full})
	args := func(extra map[string]any) map[string]any {
		m := map[string]any{"symbol": "example.com/fixture/shapes.Shape"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	var full AnswerOut
	fullText := resultText(call(t, cs, "find_references", args(nil), &full))
	var ids struct {
		Certainty string   `json:"certainty"`
		Items     []string `json:"items"`
		Targets   []string `json:"targets"`
		Page
		Freshness map[string]any `json:"freshness"`
	}
	idsText := resultText(call(t, cs, "find_references", args(map[string]any{"detail": "ids"}), &ids))
	var tab struct {
		Certainty string `json:"certainty"`
		Items     string `json:"items"`
	}
	tabText := resultText(call(t, cs, "find_references", args(map[string]any{"format": "tabular"}), &tab))
	var both struct {
		Items string `json:"items"`
	}
	call(t, cs, "find_references", args(map[string]any{"format": "tabular", "detail": "ids"}), &both)

	if len(full.Items) < 3 {
		t.Fatalf("find_references returned %d items: the fixture changed", len(full.Items))
	}
	var names []string
	for _, it := range full.Items {
		names = append(names, it.QName)
	}
	if !slices.Equal(ids.Items, names) || ids.Certainty != full.Certainty || ids.TotalCount != full.TotalCount ||
		len(ids.Targets) != 1 || len(ids.Freshness) != 2 {
		t.Errorf("ids = %s\nfull = %s", idsText, fullText)
	}
	lines := strings.Split(tab.Items, "\n")
	if len(lines) != len(full.Items)+1 || !strings.HasPrefix(lines[0], "qualified_name\tkind\tfile\tline") ||
		!strings.HasPrefix(lines[1], full.Items[0].QName+"\t"+full.Items[0].Kind+"\t"+full.Items[0].File+"\t") ||
		tab.Certainty != full.Certainty {
		t.Errorf("tabular = %s", tabText)
	}
	if both.Items != "qualified_name\n"+strings.Join(names, "\n") {
		t.Errorf("ids as tabular = %q", both.Items)
	}
	if !(len(idsText) < len(tabText) && len(tabText) < len(fullText)) {
		t.Errorf("sizes: full %d, tabular %d, ids %d: compact modes must be smaller", len(fullText), len(tabText), len(idsText))
	}
	logSizes(t, "find_references "+full.Symbol, len(full.Items), fullText, tabText, idsText)
	// A longer answer: every dependent of the Shape interface, 10 hops deep.
	impact := map[string]any{"symbol": "example.com/fixture/shapes.Shape", "depth": 10}
	var imp ImpactOut
	impFull := resultText(call(t, cs, "get_impact", impact, &imp))
	impact["format"] = "tabular"
	impTab := resultText(call(t, cs, "get_impact", impact, nil))
	impact["detail"], impact["format"] = "ids", "json"
	impIDs := resultText(call(t, cs, "get_impact", impact, nil))
	if !(len(impIDs) < len(impTab) && len(impTab) < len(impFull)) {
		t.Errorf("get_impact sizes: full %d, tabular %d, ids %d", len(impFull), len(impTab), len(impIDs))
	}
	logSizes(t, "get_impact "+imp.Symbol+" depth 10", len(imp.Items), impFull, impTab, impIDs)

	var sql struct {
		Rows    string   `json:"rows"`
		Columns []string `json:"columns"`
	}
	call(t, cs, "query_graph", map[string]any{"sql": "SELECT qname, kind FROM nodes WHERE kind = 'interface' ORDER BY qname", "format": "tabular", "detail": "ids"}, &sql)
	if !strings.HasPrefix(sql.Rows, "qname\nexample.com/fixture/") || strings.Contains(sql.Rows, "\t") || sql.Columns != nil {
		t.Errorf("query_graph ids tabular = %+v", sql)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "find_references", Arguments: args(map[string]any{"detail": "names"})})
	if err == nil && !res.IsError {
		t.Fatal("detail names was accepted")
	}
	if err == nil && !strings.Contains(resultText(res), `detail "names": want full or ids`) {
		t.Errorf("bad detail = %s", resultText(res))
	}
}

// logSizes reports what the compact modes save on one answer, in characters and
// in tokens at 4 characters a token (the budget's own rule, MaxResponseChars).
func logSizes(t *testing.T, what string, items int, full, tab, ids string) {
	t.Logf("%s, %d items: full %d chars (~%d tokens), tabular %d (~%d tokens, %.0f%% less), ids %d (~%d tokens, %.0f%% less)",
		what, items, len(full), len(full)/4, len(tab), len(tab)/4, 100*(1-float64(len(tab))/float64(len(full))),
		len(ids), len(ids)/4, 100*(1-float64(len(ids))/float64(len(full))))
}

// detect_changes scores the risk, lists the communities and processes touched,
// and hints at the riskiest definition's impact.
func TestDetectChangesRiskCommunitiesProcesses(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	path := filepath.Join(root, "shapes", "registry.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), "func Register(s Shape) {", "func Register(s Shape) {\n\t_ = s", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, Config{Root: root, Profile: Full})
	var out struct {
		RiskScore float64 `json:"risk_score"`
		Risk      string  `json:"risk"`
		Changed   []struct {
			QName     string          `json:"qualified_name"`
			RiskScore float64         `json:"risk_score"`
			Factors   json.RawMessage `json:"risk_factors"`
		} `json:"changed"`
		Communities      []struct{ Name string } `json:"communities"`
		CommunitiesCount int                     `json:"communities_count"`
		Processes        []struct {
			Entry   string   `json:"entry"`
			Reaches []string `json:"reaches"`
		} `json:"processes"`
		NextSteps []NextStep `json:"next_steps"`
	}
	res := call(t, cs, "detect_changes", map[string]any{}, &out)
	if res.IsError || len(out.Changed) != 1 || out.RiskScore <= 0 || out.RiskScore != out.Changed[0].RiskScore || out.Risk == "" ||
		!strings.Contains(string(out.Changed[0].Factors), `"public_api":true`) {
		t.Fatalf("detect_changes = %s", resultText(res))
	}
	// Register is called by the shapes package's init: that entry point's flow reaches it.
	initReaches := false
	for _, p := range out.Processes {
		initReaches = initReaches || strings.HasPrefix(p.Entry, "example.com/fixture/shapes.init") && slices.Contains(p.Reaches, "example.com/fixture/shapes.Register")
	}
	if !initReaches || out.CommunitiesCount == 0 || out.Communities[0].Name == "" {
		t.Errorf("communities and processes = %s", resultText(res))
	}
	if len(out.NextSteps) == 0 || out.NextSteps[0].Tool != "get_impact" || out.NextSteps[0].Arguments["symbol"] != "example.com/fixture/shapes.Register" {
		t.Errorf("next_steps = %+v", out.NextSteps)
	}
	var ids struct {
		Changed []string `json:"changed"`
	}
	call(t, cs, "detect_changes", map[string]any{"detail": "ids"}, &ids)
	if !slices.Equal(ids.Changed, []string{"example.com/fixture/shapes.Register"}) {
		t.Errorf("detect_changes ids: changed = %v", ids.Changed)
	}
}
