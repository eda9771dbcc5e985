package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphReadsInfrastructureTextAndNewLanguages: from the CLI, a workload's
// ConfigMap in another file, a document's links, a script's sourced file and a
// Kotlin call are all answers of `graph query`.
func TestGraphReadsInfrastructureTextAndNewLanguages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := filepath.Join(h.work, "repo")
	for rel, content := range map[string]string{
		"k8s/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\n  namespace: shop\n",
		"k8s/web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  template:\n    spec:\n" +
			"      containers:\n        - image: web:1\n          envFrom:\n            - configMapRef: {name: web-config}\n",
		"docs/setup.md":  "# Setup\n",
		"README.md":      "# App\n\nRead [setup](docs/setup.md).\n",
		"scripts/lib.sh": "greet() { echo hi; }\n",
		"scripts/run.sh": "#!/bin/sh\n. ./lib.sh\nmain() {\n  greet\n  usage\n}\nusage() { :; }\n",
		"app/Main.kt":    "class Main {\n    fun run() {\n        helper()\n    }\n\n    fun helper() {}\n}\n",
		"Dockerfile":     "FROM golang:1.22 AS build\nFROM alpine\nCOPY --from=build /app /app\n",
		"compose.yaml":   "services:\n  web:\n    build: .\n",
		"app/Legacy.m":   "@implementation Legacy\n- (void)a { [self b]; }\n- (void)b {}\n@end\n",
		"app/View.swift": "struct View {\n    func draw() { layout() }\n    func layout() {}\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := h.run("graph", "index", repo); r.code != ExitOK {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, q := range []struct{ kind, symbol, want string }{
		{"references", "k8s:shop/ConfigMap/web-config", "k8s:shop/Deployment/web"},
		{"references", "docs/setup.md", "README.md"},
		{"references", "Dockerfile", "compose.yaml::web"},
		{"callers", "scripts/run.sh::usage", "scripts/run.sh::main"},
		{"callers", "app/Main.kt::Main::helper", "app/Main.kt::Main::run"},
		{"callers", "app/Legacy.m::Legacy::b", "app/Legacy.m::Legacy::a"},
		{"callers", "app/View.swift::View::layout", "app/View.swift::View::draw"},
	} {
		r := h.run("graph", "--repo", repo, "query", q.kind, q.symbol, "--json")
		var ans struct {
			Items []struct {
				QName string `json:"qualified_name"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || r.code != ExitOK {
			t.Errorf("%s %s: exit %d, %v\n%s%s", q.kind, q.symbol, r.code, err, r.stdout, r.stderr)
			continue
		}
		found := false
		for _, it := range ans.Items {
			found = found || it.QName == q.want
		}
		if !found {
			t.Errorf("%s %s = %+v, want %s among them", q.kind, q.symbol, ans.Items, q.want)
		}
	}
	// A sourced file is an import of the script's file, as a resolved import is.
	r := h.run("graph", "--repo", repo, "sql", "SELECT src FROM edges WHERE kind = 'imports' AND dst = 'scripts/lib.sh'")
	if r.code != ExitOK || !strings.Contains(r.stdout, "scripts/run.sh") {
		t.Errorf("importers of lib.sh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
