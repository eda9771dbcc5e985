package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// graph query --detail ids and --format tabular print the compact JSON the MCP
// tools give; a bad value is a usage error naming it.
func TestGraphQueryCompact(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	if r := h.run("graph", "index", repo); r.code != ExitOK {
		t.Fatalf("index: %s", r.stderr)
	}
	r := h.run("graph", "--repo", repo, "query", "callers", "example.com/fixture/shapes.Register", "--detail", "ids")
	var ids struct {
		Items     []string `json:"items"`
		Certainty string   `json:"certainty"`
	}
	if r.code != ExitOK || json.Unmarshal([]byte(r.stdout), &ids) != nil || len(ids.Items) == 0 ||
		!strings.HasPrefix(ids.Items[0], "example.com/fixture/shapes.init") || ids.Certainty == "" {
		t.Fatalf("--detail ids: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "--repo", repo, "query", "callers", "example.com/fixture/shapes.Register", "--format", "tabular")
	var tab struct {
		Items string `json:"items"`
	}
	if r.code != ExitOK || json.Unmarshal([]byte(r.stdout), &tab) != nil || !strings.HasPrefix(tab.Items, "qualified_name\tkind\tfile\tline") {
		t.Fatalf("--format tabular: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "query", "callers", "Register", "--detail", "names"); r.code != ExitUsage || !strings.Contains(r.stderr, `detail "names"`) {
		t.Fatalf("--detail names: exit %d\n%s", r.code, r.stderr)
	}
}
