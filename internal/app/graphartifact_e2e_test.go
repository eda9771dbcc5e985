package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A team commits graph export's artifact; a fresh clone's first graph index
// starts from it and parses only what changed; graph import refuses a damaged
// file by name and loads a good one.
func TestGraphExportImportBootstrap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	r := h.run("graph", "--repo", repo, "export", "--json")
	if r.code != ExitOK {
		t.Fatalf("export: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var sum struct {
		Artifact      string `json:"artifact"`
		Bytes         int64  `json:"bytes"`
		IndexBytes    int64  `json:"index_bytes"`
		Files         int    `json:"files"`
		GitAttributes string `json:"gitattributes_added"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sum); err != nil {
		t.Fatalf("export --json: %v\n%s", err, r.stdout)
	}
	art := filepath.Join(repo, ".albert-code", "graph.zst")
	if sum.Artifact != art || sum.Files == 0 || sum.Bytes == 0 || sum.Bytes >= sum.IndexBytes || sum.GitAttributes == "" {
		t.Fatalf("export = %+v", sum)
	}
	if attrs, err := os.ReadFile(filepath.Join(repo, ".gitattributes")); err != nil || !strings.Contains(string(attrs), "/.albert-code/graph.zst binary merge=ours") {
		t.Fatalf(".gitattributes = %q (%v)", attrs, err)
	}

	// The clone has the sources and the artifact, not the ignored index folder.
	clone := filepath.Join(h.work, "clone")
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "graph", "golang", "testdata", "fixture"), clone).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(clone, ".albert-code"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, ".albert-code", "graph.zst"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, "notes.py"), []byte("def note():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = h.run("graph", "index", clone, "--json")
	var rep struct {
		Files, Extracted, Unchanged int
	}
	if r.code != ExitOK || json.Unmarshal([]byte(r.stdout), &rep) != nil {
		t.Fatalf("index of the clone: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "starting from .albert-code/graph.zst") || rep.Extracted != 1 || rep.Unchanged != rep.Files-1 {
		t.Fatalf("the clone's first index did not start from the artifact: %+v\n%s", rep, r.stderr)
	}
	if r = h.run("graph", "--repo", clone, "query", "callers", "example.com/fixture/shapes.Register"); r.code != ExitOK || !strings.Contains(r.stdout, "shapes.init") {
		t.Fatalf("callers in the clone: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	bad := filepath.Join(h.work, "bad.zst")
	if err := os.WriteFile(bad, b[:len(b)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if r = h.run("graph", "--repo", clone, "import", bad); r.code != ExitError || !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "corrupt") {
		t.Fatalf("import of a damaged artifact: exit %d\n%s", r.code, r.stderr)
	}
	r = h.run("graph", "--repo", clone, "import", art)
	if r.code != ExitOK || !strings.Contains(r.stdout, "replacing the index that was there") || !strings.Contains(r.stdout, "1 file(s) changed since") {
		t.Fatalf("import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
