package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// A module this Go cannot load: graph index and graph status say why, in the
// go command's words, and a Go answer is a lower bound that cites it.
func TestGraphSaysWhyGoDidNotLoad(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env = append(h.env, "GOPROXY=off")
	h.writeFile("repo/go.mod", "module example.com/m\n\ngo 1.999\n")
	h.writeFile("repo/.git/HEAD", "ref: refs/heads/main\n")
	h.writeFile("repo/lib/lib.go", "package lib\n\nfunc F() int { return G() }\n\nfunc G() int { return 1 }\n")
	repo := h.work + "/repo"
	r := h.run("graph", "index", repo)
	if r.code != ExitOK || !strings.Contains(r.stdout, "Go: not type-checked") || !strings.Contains(r.stdout, "go.mod requires go >= 1.999") {
		t.Fatalf("graph index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "status", "--json", "--repo", repo)
	var st struct {
		GoLoadError string `json:"go_load_error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || !strings.Contains(st.GoLoadError, "1.999") {
		t.Fatalf("graph status --json (%v): %s%s", err, r.stdout, r.stderr)
	}
	r = h.run("graph", "query", "callees", "example.com/m/lib.F", "--json", "--repo", repo)
	var a struct {
		Certainty string `json:"certainty"`
		Why       string `json:"why"`
		Items     []struct {
			QName string `json:"qualified_name"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil || a.Certainty != "lower-bound" ||
		!strings.Contains(a.Why, "go.mod requires go >= 1.999") || len(a.Items) != 1 || a.Items[0].QName != "example.com/m/lib.G" {
		t.Fatalf("graph query callees (%v): %s%s", err, r.stdout, r.stderr)
	}
}
