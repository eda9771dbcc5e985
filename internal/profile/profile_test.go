package profile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/config"
)

type dirs struct{ home, work, project string }

func newDirs(t *testing.T) dirs {
	root := t.TempDir()
	d := dirs{home: filepath.Join(root, "home"), project: filepath.Join(root, "repo")}
	d.work = filepath.Join(d.project, "pkg", "x")
	if err := os.MkdirAll(d.work, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (d dirs) homeAgent(name string) string { return filepath.Join(d.home, "agents", name+".toml") }
func (d dirs) projAgent(name string) string {
	return filepath.Join(d.project, ".albert-code", "agents", name+".toml")
}

func (d dirs) load(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(Options{Home: d.home, WorkDir: d.work})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func TestBuiltins(t *testing.T) {
	c := newDirs(t).load(t)
	tests := []struct {
		name  string
		check func(Profile) bool
	}{
		{Default, func(p Profile) bool { return !p.AutoApprove && !p.ReadOnly && p.AllowsTool("bash", false) }},
		{Plan, func(p Profile) bool {
			return p.ReadOnly && p.Middleware.ReadOnlyGuard && p.AllowsTool("web_fetch", false) &&
				!p.AllowsTool("bash", false) && !p.AllowsTool("edit", false) && p.SystemPrompt != ""
		}},
		{AcceptEdits, func(p Profile) bool {
			return p.Permissions["write"] == config.PermissionAlways && p.Permissions["edit"] == config.PermissionAlways && !p.AutoApprove
		}},
		{AutoApprove, func(p Profile) bool { return p.AutoApprove }},
		{Explore, func(p Profile) bool {
			return p.Subagent && p.AllowsTool("glob", true) && !p.AllowsTool("web_fetch", true)
		}},
	}
	for _, tt := range tests {
		p, err := c.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if !tt.check(p) {
			t.Errorf("built-in %s = %+v", tt.name, p)
		}
	}
}

func TestUserFilesOverrideFieldByFieldProjectWins(t *testing.T) {
	d := newDirs(t)
	write(t, d.homeAgent("plan"), "description = \"home plan\"\nmodel = \"qwen\"\n")
	proj := write(t, d.projAgent("plan"), "description = \"project plan\"\n[permissions]\nbash = \"never\"\n")
	p, err := d.load(t).Get(Plan)
	if err != nil {
		t.Fatal(err)
	}
	if p.Description != "project plan" || p.Model != "qwen" || p.Permissions["bash"] != config.PermissionNever {
		t.Errorf("plan = %+v", p)
	}
	if !p.ReadOnly || !p.AllowsTool("grep", true) {
		t.Error("fields the files do not set must keep the built-in's values")
	}
	if p.Sources[len(p.Sources)-1] != proj || p.Sources[0] != "built-in" {
		t.Errorf("sources = %v", p.Sources)
	}
}

func TestExtendsAndCycleOrder(t *testing.T) {
	d := newDirs(t)
	write(t, d.homeAgent("reviewer"), "extends = \"plan\"\ndescription = \"reviews\"\nsystem_prompt = \"Review.\"\n")
	write(t, d.homeAgent("architect"), "extends = \"reviewer\"\nmodel = \"deepseek-flash\"\n")
	write(t, d.homeAgent("scout"), "extends = \"explore\"\n")
	c := d.load(t)
	a, err := c.Get("architect")
	if err != nil {
		t.Fatal(err)
	}
	if !a.ReadOnly || a.SystemPrompt != "Review." || a.Model != "deepseek-flash" || a.Description != "reviews" {
		t.Errorf("architect = %+v", a)
	}
	want := []string{Default, Plan, AcceptEdits, AutoApprove, "architect", "reviewer"}
	if got := c.Cycle(); !slices.Equal(got, want) {
		t.Errorf("Cycle = %v, want %v (subagents explore and scout left out)", got, want)
	}
	if c.Next(AutoApprove) != "architect" || c.Next("reviewer") != Default || c.Next(Explore) != Default {
		t.Error("Next does not follow the cycle")
	}
}

// A broken file breaks only its profile (and those extending it): other runs go on,
// and a run asking for it gets the error at its line.
func TestErrorsBreakOnlyTheirProfile(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                []string
	}{
		{"unknown extends", "a", "extends = \"plann\"\n", []string{"a.toml:1", "extends", `did you mean "plan"`, "accept-edits"}},
		{"cycle", "a", "extends = \"b\"\n", []string{"loops", "a → b → a"}},
		{"bad permission", "a", "[permissions]\nwrite = \"yes\"\n", []string{"a.toml:2", "permissions.write", "always, ask or never"}},
		{"bad pattern", "a", "allowed_tools = [\"re:[\"]\n", []string{"a.toml:1", "allowed_tools"}},
		{"type error", "a", "read_only = \"yes\"\n", []string{"a.toml:1", "read_only", "true or false"}},
		{"syntax error", "a", "read_only = \n", []string{"a.toml:1"}},
		{"bad safety", "a", "safety = \"reckless\"\n", []string{"a.toml:1", "safety", "safe, neutral"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDirs(t)
			write(t, d.homeAgent(tt.file), tt.content)
			write(t, d.homeAgent("b"), "extends = \"a\"\n")
			c, err := Load(Options{Home: d.home, WorkDir: d.work})
			if err != nil {
				t.Fatalf("Load failed for every profile: %v", err)
			}
			if _, err := c.Get(Default); err != nil {
				t.Errorf("default broken by a.toml: %v", err)
			}
			_, err = c.Get("a")
			if err == nil {
				t.Fatal("Get(a) succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "profile a is unusable") {
				t.Errorf("warnings %q do not name profile a", w)
			}
		})
	}
}

func TestUnknownKeyIsAWarningNamingFileAndKey(t *testing.T) {
	d := newDirs(t)
	path := write(t, d.homeAgent("a"), "description = \"x\"\nread_only = true\ncolour = \"blue\"\n")
	c := d.load(t)
	p, err := c.Get("a")
	if err != nil {
		t.Fatal(err)
	}
	if !p.ReadOnly || p.Description != "x" {
		t.Errorf("the known keys were not applied: %+v", p)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, path+":3") || !strings.Contains(w, `"colour"`) {
		t.Errorf("warnings = %q, want the file, line and key", w)
	}
}

func TestOriginalFormatIsMappedKeyByKey(t *testing.T) {
	d := newDirs(t)
	path := write(t, d.homeAgent("reviewer"), `display_name = "Reviewer"
description = "Reviews diffs"
safety = "safe"
agent_type = "subagent"
active_model = "albert-large"
enabled_tools = ["grep", "read_file", "search_replace"]
disabled_tools = ["write_file"]
auto_approve = true
system_prompt_id = "review"
vim_keybindings = true

[tools.bash]
permission = "never"
allowlist = ["ls"]
`)
	write(t, d.homeAgent("helper"), "display_name = \"Helper\"\nagent_type = \"agent\"\n")
	c := d.load(t)
	p, err := c.Get("reviewer")
	if err != nil {
		t.Fatal(err)
	}
	if p.Description != "Reviews diffs" || !p.Subagent || p.Model != "albert-large" || !p.AutoApprove ||
		!slices.Equal(p.AllowedTools, []string{"grep", "read", "edit"}) || !slices.Equal(p.DisabledTools, []string{"write"}) ||
		p.Permissions["bash"] != config.PermissionNever {
		t.Errorf("reviewer = %+v", p)
	}
	h, err := c.Get("helper")
	if err != nil {
		t.Fatal(err)
	}
	if h.Description != "Helper" || h.Subagent {
		t.Errorf("helper = %+v, want display_name as its description and a primary agent", h)
	}
	w := strings.Join(c.Warnings, "\n")
	for _, want := range []string{path + ":9", `"system_prompt_id"`, path + ":10", `"vim_keybindings"`, path + ":14", `"tools.bash.allowlist"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
	if strings.Contains(w, "display_name") || strings.Contains(w, "safety") || strings.Contains(w, "agent_type") {
		t.Errorf("mapped keys reported as ignored: %q", w)
	}
}

func TestUnknownProfileListsKnownOnes(t *testing.T) {
	_, err := newDirs(t).load(t).Get("yolo")
	if err == nil || !strings.Contains(err.Error(), "auto-approve") || !strings.Contains(err.Error(), "explore") {
		t.Errorf("err = %v", err)
	}
}

func TestUntrustedProjectProfilesAreIgnored(t *testing.T) {
	d := newDirs(t)
	write(t, d.projAgent("default"), "auto_approve = true\n")
	c, err := Load(Options{Home: d.home, WorkDir: d.work, Trusted: func(dir string) bool {
		if dir != d.project {
			t.Errorf("trust asked about %s, want the project root %s", dir, d.project)
		}
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Get(Default); p.AutoApprove {
		t.Error("an untrusted project turned default into auto-approve")
	}
}
