package skill

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/tool"
)

func writeSkill(t *testing.T, dir, folder, content string) string {
	t.Helper()
	path := filepath.Join(dir, folder, FileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const review = `---
name: code-review
description: Review a change for bugs, tests and style before it is merged.
allowed-tools: read_file grep bash
---
# Review

1. Read the diff.
2. Run the tests.
`

func TestDiscoverReadsFrontMatterAndBody(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "code-review", review)
	writeSkill(t, dir, "commit", "---\nname: commit\ndescription: \"Write a commit message: imperative, why over what.\"\nallowed-tools: [bash, \"read_file\"]\nuser-invocable: false\n---\nUse git.\n")
	if err := os.WriteFile(filepath.Join(dir, "code-review", "checklist.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	skills, warnings, err := Discover(Options{Dirs: []string{dir}})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	if len(skills) != 2 {
		t.Fatalf("skills = %+v", skills)
	}
	r, c := skills[0], skills[1]
	if r.Name != "code-review" || r.Description != "Review a change for bugs, tests and style before it is merged." ||
		!reflect.DeepEqual(r.AllowedTools, []string{"read_file", "grep", "bash"}) || !strings.HasPrefix(r.Body, "# Review") {
		t.Errorf("code-review = %+v", r)
	}
	if c.Name != "commit" || !reflect.DeepEqual(c.AllowedTools, []string{"bash", "read_file"}) || c.Body != "Use git." {
		t.Errorf("commit = %+v", c)
	}
	// A slash command unless the front matter says user-invocable: false.
	if !r.UserInvocable || c.UserInvocable {
		t.Errorf("user-invocable: code-review %v (want true), commit %v (want false)", r.UserInvocable, c.UserInvocable)
	}
}

func TestBrokenSkillsAreSkippedWithAWarningNamingTheFile(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, content, want string }{
		{"no front matter", "# Just markdown\n", "does not start with front matter"},
		{"unclosed", "---\nname: x\ndescription: y\n", `no closing "---"`},
		{"bad yaml", "---\nname: [unclosed\ndescription: y\n---\nbody\n", "not valid YAML"},
		{"no name", "---\ndescription: y\n---\nbody\n", "has no name"},
		{"bad name", "---\nname: Code Review\ndescription: y\n---\nbody\n", `name "Code Review" is not`},
		{"no description", "---\nname: x\n---\nbody\n", "has no description"},
		{"long description", "---\nname: x\ndescription: " + strings.Repeat("a", 1025) + "\n---\n", "longer than 1024"},
		{"bad allowed-tools", "---\nname: x\ndescription: y\nallowed-tools: {a: 1}\n---\n", "allowed-tools is a"},
		{"not text", "---\nname: x\ndescription: \xff\xfe\n---\n", "not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			bad := writeSkill(t, dir, "broken", tt.content)
			writeSkill(t, dir, "code-review", review)
			skills, warnings, err := Discover(Options{Dirs: []string{dir}})
			if err != nil {
				t.Fatal(err)
			}
			if len(skills) != 1 || skills[0].Name != "code-review" {
				t.Errorf("skills = %+v, want only the good one", skills)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], bad) || !strings.Contains(warnings[0], tt.want) {
				t.Errorf("warnings = %q, want one naming %s and saying %q", warnings, bad, tt.want)
			}
		})
	}
}

func TestFirstFolderWinsAndFiltersApply(t *testing.T) {
	t.Parallel()
	project, global := t.TempDir(), t.TempDir()
	writeSkill(t, project, "code-review", strings.Replace(review, "Review a change", "Project review", 1))
	writeSkill(t, global, "code-review", review)
	writeSkill(t, global, "deploy-old", "---\nname: deploy-old\ndescription: old\n---\n")
	writeSkill(t, global, "deploy", "---\nname: deploy\ndescription: new\n---\n")
	skills, _, err := Discover(Options{Dirs: []string{filepath.Join(project, "missing"), project, global}, Disabled: []string{"re:.*-old"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range skills {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"code-review", "deploy"}) || !strings.HasPrefix(skills[0].Description, "Project review") {
		t.Errorf("skills = %+v", skills)
	}
	only, _, _ := Discover(Options{Dirs: []string{global}, Enabled: []string{"deploy*"}})
	if len(only) != 2 || only[0].Name != "deploy" {
		t.Errorf("enabled deploy* = %+v", only)
	}
	if _, _, err := Discover(Options{Enabled: []string{"re:("}}); err == nil {
		t.Error("a bad pattern was accepted")
	}
}

func TestSkillToolLoadsOnDemand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "code-review", review)
	if err := os.WriteFile(filepath.Join(dir, "code-review", "checklist.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	skills, _, _ := Discover(Options{Dirs: []string{dir}})
	tl := NewTool(skills, nil)
	if info := tl.Info(); info.Name != ToolName || !info.ReadOnly {
		t.Errorf("info = %+v", info)
	}
	run := func(args string) tool.Result {
		res, err := tool.Invoke(context.Background(), tl, tool.Call{Args: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(`{"name":"code-review"}`)
	for _, want := range []string{"Skill code-review", "2. Run the tests.", "checklist.md", "read_file, grep, bash"} {
		if res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("output %q lacks %q", res.Output, want)
		}
	}
	if strings.Contains(res.Output, "allowed-tools:") {
		t.Errorf("the front matter leaked into the output: %q", res.Output)
	}
	res = run(`{"name":"deploy"}`)
	if !res.IsError || !strings.Contains(res.Output, `no skill is called "deploy"; the skills are: code-review`) {
		t.Errorf("unknown skill = %+v", res)
	}
}
