package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// graphRepo copies the Go extractor's fixture module into a fresh directory.
func graphRepo(t *testing.T, h *harness) string {
	t.Helper()
	dst := filepath.Join(h.work, "repo")
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "graph", "golang", "testdata", "fixture"), dst).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v\n%s", err, out)
	}
	return dst
}

func TestGraphIndexQuerySQL(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	r := h.run("graph", "index", repo, "--json")
	if r.code != ExitOK {
		t.Fatalf("index: exit %d stderr %s", r.code, r.stderr)
	}
	var rep struct {
		Files     int    `json:"files"`
		GoTypes   bool   `json:"go_types"`
		Extracted int    `json:"extracted"`
		Index     string `json:"index"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Files == 0 || !rep.GoTypes || rep.Extracted != rep.Files {
		t.Fatalf("report = %+v, %v\n%s", rep, err, r.stdout)
	}
	if rep.Index != filepath.Join(repo, ".albert-code", "graph", "graph.db") {
		t.Fatalf("index at %s", rep.Index)
	}

	r = h.run("graph", "--repo", repo, "query", "implementations", "Shape", "--json")
	var ans struct {
		Certainty string `json:"certainty"`
		Items     []struct {
			QName string `json:"qualified_name"`
			File  string `json:"file"`
			Line  int    `json:"line"`
		} `json:"items"`
		Freshness struct {
			Status string `json:"status"`
		} `json:"freshness"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || r.code != ExitOK {
		t.Fatalf("query: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if ans.Certainty != "exact" || len(ans.Items) < 2 || ans.Items[0].QName != "example.com/fixture/shapes.Square" ||
		ans.Items[0].File != "shapes/shapes.go" || ans.Items[0].Line == 0 || ans.Freshness.Status == "" {
		t.Fatalf("answer = %+v", ans)
	}

	// A second index run redoes nothing; an edit makes answers say the index is stale.
	r = h.run("graph", "index", repo, "--json")
	if !strings.Contains(r.stdout, `"extracted": 0`) {
		t.Fatalf("second index re-extracted:\n%s", r.stdout)
	}
	f, err := os.OpenFile(filepath.Join(repo, "shapes", "shapes.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nfunc Extra() {}\n")
	f.Close()
	if r = h.run("graph", "--repo", repo, "query", "definition", "Describe"); !strings.Contains(r.stdout, "stale") {
		t.Fatalf("no staleness warning:\n%s", r.stdout)
	}

	if r = h.run("graph", "--repo", repo, "query", "callers", "Descrbe"); r.code != ExitError || !strings.Contains(r.stderr, "Descrbe") {
		t.Fatalf("unknown symbol: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "sql", "SELECT count(*) AS n FROM nodes WHERE kind = 'interface'"); r.code != ExitOK || !strings.Contains(r.stdout, "n") {
		t.Fatalf("sql: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Rows of a megabyte without end: the byte cap cuts the answer and says where.
	huge := "WITH RECURSIVE c(x, s) AS (SELECT 1, printf('%.*c', 1000000, 'x') UNION ALL SELECT x+1, s FROM c) SELECT x, s FROM c"
	if r = h.run("graph", "--repo", repo, "sql", "--max-bytes", "2500000", huge); r.code != ExitOK ||
		!strings.Contains(r.stderr, "cut at 2000016 bytes (--max-bytes), after 2 rows") || len(r.stdout) > 2100000 {
		t.Fatalf("huge rows: exit %d, %d bytes out, stderr %s", r.code, len(r.stdout), r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "sql", "ATTACH DATABASE 'x.db' AS x"); r.code == ExitOK || !strings.Contains(r.stderr, "read-only") {
		t.Fatalf("hostile sql: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "entrypoints"); r.code != ExitOK || !strings.Contains(r.stdout, "program entry (main)") {
		t.Fatalf("entrypoints: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "communities"); r.code != ExitOK || !strings.Contains(r.stdout, "modularity") || !strings.Contains(r.stdout, "#0") {
		t.Fatalf("communities: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "communities", "Descrbe"); r.code != ExitError || !strings.Contains(r.stderr, "did you mean") {
		t.Fatalf("communities of an unknown symbol: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "schema"); !strings.Contains(r.stdout, "CREATE TABLE") {
		t.Fatalf("schema:\n%s", r.stdout)
	}
	if r = h.run("graph", "--repo", h.work, "query", "callers", "X"); r.code != ExitUsage || !strings.Contains(r.stderr, "graph index") {
		t.Fatalf("query without an index: exit %d stderr %s", r.code, r.stderr)
	}

	// A corrupt index is reported with the way out, and --rebuild takes it.
	if err := os.WriteFile(rep.Index, []byte(strings.Repeat("garbage!", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r = h.run("graph", "--repo", repo, "query", "callers", "Describe"); r.code == ExitOK || !strings.Contains(r.stderr, "--rebuild") {
		t.Fatalf("corrupt index: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "index", "--rebuild", repo); r.code != ExitOK {
		t.Fatalf("rebuild: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "query", "definition", "Describe"); r.code != ExitOK {
		t.Fatalf("after rebuild: exit %d stderr %s", r.code, r.stderr)
	}
	// Plain `graph index` rebuilds a corrupt index itself, and says so.
	if err := os.WriteFile(rep.Index, []byte(strings.Repeat("garbage!", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r = h.run("graph", "index", repo); r.code != ExitOK || !strings.Contains(r.stderr, "building the index") || !strings.Contains(r.stderr, "it was corrupt") {
		t.Fatalf("index over a corrupt index: exit %d stderr %s", r.code, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "query", "definition", "Describe"); r.code != ExitOK {
		t.Fatalf("after the automatic rebuild: exit %d stderr %s", r.code, r.stderr)
	}
}

func TestGraphTreeSitterLanguages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := filepath.Join(h.work, "py")
	h.writeUnder(repo, "app/server.py", `class Server:
    """Serves requests."""

    def handle(self, req):
        return self.parse(req)

    def parse(self, req):
        return req


def main():
    Server().handle("x")
`)
	h.writeUnder(repo, "lib/mod.rs", "pub fn helper() -> u32 { 1 }\n\nfn main() { helper(); }\n")
	// A syntax error gives partial facts, reported, never a silent drop.
	h.writeUnder(repo, "lib/broken.rs", "fn ok() {}\nfn broken( {\n")
	r := h.run("graph", "index", repo)
	if r.code != ExitOK || !strings.Contains(r.stdout, "partial: 1") || !strings.Contains(r.stdout, "lib/broken.rs") {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = h.run("graph", "--repo", repo, "query", "callers", "helper"); r.code != ExitOK || !strings.Contains(r.stdout, "lib/mod.rs::main") {
		t.Fatalf("callers of the Rust helper: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "--repo", repo, "query", "callers", "parse")
	if r.code != ExitOK || !strings.Contains(r.stdout, "app/server.py::Server::handle") || !strings.Contains(r.stdout, "lower-bound") {
		t.Fatalf("callers of parse: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestGraphChanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := graphRepo(t, h)
	if r := h.run("graph", "--repo", repo, "changes"); r.code != ExitUsage {
		t.Fatalf("changes without an index: exit %d stderr %s", r.code, r.stderr)
	}
	if r := h.run("graph", "index", repo); r.code != ExitOK {
		t.Fatalf("index: %s", r.stderr)
	}
	if r := h.run("graph", "--repo", repo, "changes"); r.code != ExitUsage || !strings.Contains(r.stderr, "git diff") {
		t.Fatalf("changes outside git: exit %d stderr %s", r.code, r.stderr)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	path := filepath.Join(repo, "shapes", "registry.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), "func Register(s Shape) {", "func Register(s Shape) {\n\t_ = s", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.run("graph", "--repo", repo, "changes")
	if r.code != ExitOK || !strings.Contains(r.stdout, "example.com/fixture/shapes.Register") || !strings.Contains(r.stdout, "heuristic") ||
		!regexp.MustCompile(`risk 0\.\d\d \((low|medium|high)\)`).MatchString(r.stdout) ||
		!strings.Contains(r.stdout, "community ") || !strings.Contains(r.stdout, "process example.com/fixture/shapes.init@registry.go (package initialisation (init)) reaches example.com/fixture/shapes.Register") {
		t.Fatalf("changes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "--repo", repo, "cochange", "shapes/registry.go")
	if r.code != ExitOK || !strings.Contains(r.stdout, "shapes/registry.go changed in 1 of the last 1 commits") {
		t.Fatalf("cochange: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
