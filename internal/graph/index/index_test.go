package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func rels(fs []File) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rel)
	}
	return out
}

func TestScanKeepsSourceFilesWithinLimits(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"main.go":               "package main",
		"web/app.tsx":           "export {}",
		"README.md":             "# not code",
		"big.py":                strings.Repeat("x", 2000),
		"vendor/lib/lib.go":     "package lib",
		"gen/out/generated.go":  "package out",
		"node_modules/x/i.js":   "1",
		".gitignore":            "node_modules/\n",
		"src/deep/a/b/c/d.rs":   "fn main(){}",
		"Lib.JAVA":              "class A {}",
		"include/header.h":      "int f(void);",
		"scripts/tool.d.ts.bak": "",
	})
	sc, err := ScanTree(context.Background(), root, Limits{MaxFileBytes: 1000, MaxDepth: 4, Exclude: []string{"vendor/**", "gen"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Lib.JAVA", "README.md", "include/header.h", "main.go", "web/app.tsx"}
	if got := rels(sc.Files); !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	var skipped []string
	for _, s := range sc.Skipped {
		skipped = append(skipped, s.Rel+": "+s.Reason)
	}
	joined := strings.Join(skipped, "\n")
	if !strings.Contains(joined, "big.py: too large: 2000 bytes, over the limit of 1000 bytes a file") || !strings.Contains(joined, "src/deep/a/b") {
		t.Fatalf("skipped = %v", skipped)
	}
	if sum := sha256.Sum256([]byte("package main")); sc.Files[3].Hash != hex.EncodeToString(sum[:]) {
		t.Fatalf("hash of main.go = %q", sc.Files[2].Hash)
	}
	if sc.Files[0].Language != "java" || sc.Files[4].Language != "tsx" || sc.Files[2].Language != "c" || sc.Files[1].Language != "markdown" {
		t.Fatalf("languages = %+v", sc.Files)
	}
}

func TestScanStopsAtTheFileLimit(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.go": "a", "b.go": "b", "c.go": "c"})
	sc, err := ScanTree(context.Background(), root, Limits{MaxFiles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Files) != 2 || !sc.Truncated {
		t.Fatalf("scan = %+v", sc)
	}
	if _, err := ScanTree(context.Background(), root, Limits{Exclude: []string{"[bad"}}); err == nil || !strings.Contains(err.Error(), "[bad") {
		t.Fatalf("bad exclude: %v", err)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	manifest := map[string]string{
		"same.go":    "h1",
		"edited.go":  "h2",
		"gone.go":    "h3",
		"old/mv.go":  "h4",
		"dup1.go":    "h5",
		"dup2.go":    "h5",
		"copysrc.go": "h6",
	}
	files := []File{
		{Rel: "same.go", Hash: "h1"},
		{Rel: "edited.go", Hash: "h2b"},
		{Rel: "new/mv.go", Hash: "h4"},
		{Rel: "dup3.go", Hash: "h5"},
		{Rel: "copysrc.go", Hash: "h6"},
		{Rel: "copy.go", Hash: "h6"},
		{Rel: "brand.go", Hash: "h7"},
	}
	c := Diff(manifest, files)
	if got := rels(c.Added); !reflect.DeepEqual(got, []string{"brand.go", "copy.go", "dup3.go"}) {
		t.Errorf("added = %v (a copy or an ambiguous move is an addition)", got)
	}
	if got := rels(c.Changed); !reflect.DeepEqual(got, []string{"edited.go"}) {
		t.Errorf("changed = %v", got)
	}
	if !reflect.DeepEqual(c.Removed, []string{"dup1.go", "dup2.go", "gone.go"}) {
		t.Errorf("removed = %v", c.Removed)
	}
	if len(c.Renamed) != 1 || c.Renamed[0].From != "old/mv.go" || c.Renamed[0].To.Rel != "new/mv.go" {
		t.Errorf("renamed = %+v", c.Renamed)
	}
	if c.Unchanged != 2 || c.Empty() {
		t.Errorf("unchanged = %d", c.Unchanged)
	}
	if !Diff(map[string]string{"a": "1"}, []File{{Rel: "a", Hash: "1"}}).Empty() {
		t.Error("identical trees differ")
	}
}

func TestHeadersFollowTheProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := writeTree(t, map[string]string{"lib.h": "int f(void);\n", "lib.c": "int f(void) { return 1; }\n"})
	cpp := writeTree(t, map[string]string{"lib.h": "class A {};\n", "lib.cc": "#include \"lib.h\"\n", "old.c": "int g;\n"})
	objc := writeTree(t, map[string]string{"A.h": "@interface A\n@end\n", "A.m": "@implementation A\n@end\n", "App.kt": "fun main() {}\n", "V.swift": "let v = 1\n"})
	scripts := writeTree(t, map[string]string{"bin/deploy": "#!/usr/bin/env bash\necho hi\n", "run": "#!/bin/sh\n", "tool": "#!/usr/bin/env python3\n",
		"Makefile": "all:\n", "Dockerfile.dev": "FROM alpine\n", "k8s/app.yml": "kind: Pod\n", "README.md": "# r\n", "x.bash": "f() { :; }\n"})
	for _, tc := range []struct {
		root string
		want map[string]string
	}{
		{c, map[string]string{"lib.h": "c", "lib.c": "c"}},
		{cpp, map[string]string{"lib.h": "cpp", "lib.cc": "cpp", "old.c": "c"}},
		{objc, map[string]string{"A.h": "objc", "A.m": "objc", "App.kt": "kotlin", "V.swift": "swift"}},
		{scripts, map[string]string{"bin/deploy": "shell", "run": "shell", "Dockerfile.dev": "dockerfile", "k8s/app.yml": "yaml",
			"README.md": "markdown", "x.bash": "shell"}},
	} {
		sc, err := ScanTree(ctx, tc.root, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range sc.Files {
			if tc.want[f.Rel] != f.Language {
				t.Errorf("%s: language %q, want %q", f.Rel, f.Language, tc.want[f.Rel])
			}
		}
		if len(sc.Files) != len(tc.want) {
			t.Errorf("kept %v, want %v", rels(sc.Files), tc.want)
		}
	}
}
