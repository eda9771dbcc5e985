package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func getPrompt(t *testing.T, cs *mcp.ClientSession, name string, args map[string]string) string {
	t.Helper()
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("prompts/get %s: %v", name, err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("prompts/get %s: %d messages", name, len(res.Messages))
	}
	return res.Messages[0].Content.(*mcp.TextContent).Text
}

func TestPromptsAreListedWithTheirArguments(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, Config{Root: copyFixture(t), Profile: Core})
	res, err := cs.ListPrompts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, p := range res.Prompts {
		for _, a := range p.Arguments {
			got[p.Name] = append(got[p.Name], a.Name)
		}
		if p.Description == "" {
			t.Errorf("%s has no description", p.Name)
		}
	}
	if len(got) != 2 || !slices.Equal(got["explore_codebase"], []string{"focus"}) || !slices.Equal(got["review_change_impact"], []string{"base"}) {
		t.Fatalf("prompts = %v", got)
	}
	// Without an index, the prompt says what to call first instead of failing.
	if text := getPrompt(t, cs, "explore_codebase", nil); !strings.Contains(text, "`analyze_codebase {}`") {
		t.Errorf("explore_codebase without an index = %s", text)
	}
}

func TestExploreCodebasePrompt(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	full, _ := connect(t, Config{Root: root, Profile: Full})
	text := getPrompt(t, full, "explore_codebase", map[string]string{"focus": "describe"})
	for _, want := range []string{
		"## The index\n", "The index is fresh",
		"`example.com/fixture/cmd/fixture.main` (cmd/fixture/main.go:", // a program entry, listed first
		"## How the code clusters",
		"## Matches for \"describe\"\n- `", "- `example.com/fixture/shapes.Describe` (function, shapes/shapes.go:",
		"`trace_process {\"symbol\":\"example.com/fixture/cmd/fixture.main\"}`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("explore_codebase lacks %q:\n%s", want, text)
		}
	}
	// The suggested path starts from the best match.
	_, after, _ := strings.Cut(text, "## Matches for \"describe\"\n- `")
	best, _, _ := strings.Cut(after, "`")
	if best == "" || !strings.Contains(text, "1. `get_context {\"symbol\":\""+best+"\"}`") {
		t.Errorf("the path does not start from the best match %q:\n%s", best, text)
	}
	// The core profile has no trace_process or get_communities: the prompt does
	// not send the model to them.
	core, _ := connect(t, Config{Root: root, Profile: Core})
	text = getPrompt(t, core, "explore_codebase", nil)
	if strings.Contains(text, "trace_process") || strings.Contains(text, "get_communities") || strings.Contains(text, "## Matches") {
		t.Errorf("core explore_codebase names full-only tools or matches:\n%s", text)
	}
}

func TestReviewChangeImpactPrompt(t *testing.T) {
	t.Parallel()
	root := indexedFixture(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cs, _ := connect(t, Config{Root: root, Profile: Full})
	if text := getPrompt(t, cs, "review_change_impact", nil); !strings.Contains(text, "touches no definition") {
		t.Errorf("review of an empty diff = %s", text)
	}
	path := filepath.Join(root, "shapes", "registry.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), "func Register(s Shape) {", "func Register(s Shape) {\n\t_ = s", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	text := getPrompt(t, cs, "review_change_impact", map[string]string{"base": "HEAD"})
	for _, want := range []string{
		"against HEAD", "Risk score 0.", "risk_score is a heuristic",
		"- `example.com/fixture/shapes.Register` (shapes/registry.go:", "exported",
		"## Communities reached", "## Processes reached", "`example.com/fixture/shapes.init",
		"`get_impact {\"symbol\":\"example.com/fixture/shapes.Register\"}`",
		"`find_callers {\"symbol\":\"example.com/fixture/shapes.Register\"}`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("review_change_impact lacks %q:\n%s", want, text)
		}
	}
	if _, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_change_impact", Arguments: map[string]string{"base": "no-such-rev"}}); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("a bad base: %v", err)
	}
}
