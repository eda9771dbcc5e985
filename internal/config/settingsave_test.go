package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// saveFixture is a home, an XDG folder and a git repository whose working folder
// is one level below the root, read through LookupEnv so tests run in parallel.
type saveFixture struct {
	root, global, repo, work string
	vars                     map[string]string
	trusted                  func(string) bool
}

func newSaveFixture(t *testing.T) *saveFixture {
	t.Helper()
	root := t.TempDir()
	f := &saveFixture{root: root, global: filepath.Join(root, "xdg", "albert-code", "config.toml"),
		repo: filepath.Join(root, "repo"), work: filepath.Join(root, "repo", "sub")}
	if err := os.MkdirAll(filepath.Join(f.repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(f.work, 0o755); err != nil {
		t.Fatal(err)
	}
	f.vars = map[string]string{"HOME": filepath.Join(root, "home"), EnvHome: filepath.Join(root, "app"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg")}
	return f
}

func (f *saveFixture) load(t *testing.T) *Config {
	t.Helper()
	c, err := Load(Options{WorkDir: f.work, Trusted: f.trusted,
		LookupEnv: func(k string) (string, bool) { v, ok := f.vars[k]; return v, ok }})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const userGlobal = `# Ada's settings
model = "qwen" # fast enough

[compaction]
# earlier than the default
threshold = 0.7
`

func TestSaveSettingEditsTheGlobalFileInPlace(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	write(t, f.global, userGlobal)
	c := f.load(t)

	saved, err := c.SaveSetting("compaction.threshold", "0.6", TargetGlobal)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Path != f.global || saved.Value != "0.6" || saved.OverriddenBy != "" {
		t.Fatalf("saved = %+v", saved)
	}
	if _, err := c.SaveSetting("auto_continue", "5", TargetGlobal); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SaveSetting("compaction.keep_recent_turns", "4", TargetGlobal); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(userGlobal, "threshold = 0.7\n", "threshold = 0.6\nkeep_recent_turns = 4\n", 1),
		"# fast enough\n", "# fast enough\nauto_continue = 5\n", 1)
	if got := readFile(t, f.global); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	c2, err := c.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if c2.Compaction.Threshold != 0.6 || c2.AgentLoop.AutoContinue != 5 || c2.Compaction.KeepRecentTurns != 4 {
		t.Errorf("reloaded: threshold %v, auto_continue %d, keep %d", c2.Compaction.Threshold, c2.AgentLoop.AutoContinue, c2.Compaction.KeepRecentTurns)
	}
	if src := source(t, c2, "compaction.threshold"); src != f.global+":7" {
		t.Errorf("threshold comes from %s", src)
	}
}

func TestSaveSettingInTheProject(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	c := f.load(t)
	// No project file yet: it goes to the repository's root, not the subfolder.
	saved, err := c.SaveSetting("agent", "plan", TargetProject)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(f.repo, projectFileName); saved.Path != want || readFile(t, want) != "agent = \"plan\"\n" {
		t.Fatalf("saved %+v", saved)
	}
	if c2, _ := c.Reload(); c2.Agent != "plan" {
		t.Errorf("agent after reload = %q", c2.Agent)
	}

	// The project's model wins over the global file: saving there says so.
	write(t, filepath.Join(f.repo, projectFileName), "model = \"qwen\"\n")
	c = f.load(t)
	saved, err = c.SaveSetting("model", "deepseek-flash", TargetGlobal)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(f.repo, projectFileName) + ":1"; saved.OverriddenBy != want {
		t.Errorf("OverriddenBy = %q, want %q", saved.OverriddenBy, want)
	}

	// An untrusted folder's file is not read, so nothing is saved there.
	f.trusted = func(string) bool { return false }
	c = f.load(t)
	if _, err := c.SaveSetting("agent", "plan", TargetProject); err == nil || !strings.Contains(err.Error(), "not a trusted folder") {
		t.Errorf("untrusted project: %v", err)
	}
}

func TestSaveSettingRefusesBadValuesNamingKeyAndAllowed(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	c := f.load(t)
	tests := []struct {
		key, value string
		to         Target
		want       []string
	}{
		{"compaction.threshold", "2", TargetGlobal, []string{"compaction.threshold", `"2"`, "a fraction above 0 and at most 1"}},
		{"context_warning", "lots", TargetGlobal, []string{"context_warning", "a fraction from 0 (off) to 1"}},
		{"auto_continue", "21", TargetGlobal, []string{"auto_continue", "a whole number from 0 to 20"}},
		{"rate_limits.tier", "prd", TargetGlobal, []string{"rate_limits.tier", `did you mean "prod"?`, "one of exp, prod"}},
		{"bash.timeout", "90", TargetGlobal, []string{"bash.timeout", `a duration such as "90s"`}},
		{"project_context", "maybe", TargetGlobal, []string{"project_context", "true or false"}},
		{"model", "no-such-model", TargetGlobal, []string{"model", `unknown model "no-such-model"`, "mistral-medium"}},
		{"web_search.base_url", "searx.local", TargetGlobal, []string{"web_search.base_url", "http:// or https://"}},
		{"system_prompt_id", "../etc/passwd", TargetGlobal, []string{"system_prompt_id", "prompts/"}},
		{"modle", "qwen", TargetGlobal, []string{`unknown setting "modle"`, `did you mean "model"?`, "compaction.threshold"}},
		{"sandbox.mode", "off", TargetProject, []string{"sandbox.mode", "global config only", "--global"}},
	}
	for _, tt := range tests {
		_, err := c.SaveSetting(tt.key, tt.value, tt.to)
		if err == nil {
			t.Errorf("%s = %s accepted", tt.key, tt.value)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s = %s: error %q lacks %q", tt.key, tt.value, err, w)
			}
		}
	}
	for _, p := range []string{f.global, filepath.Join(f.repo, projectFileName)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a refused value created %s", p)
		}
	}
}

func TestSaveSettingNeverOverwritesABrokenFile(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"syntax":      "model = \"qwen\"\n[compaction\nthreshold = 0.5\n",
		"unknown key": "model = \"qwen\"\nmodle = \"x\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newSaveFixture(t)
			c := f.load(t) // before the file breaks
			write(t, f.global, content)
			_, err := c.SaveSetting("agent", "plan", TargetGlobal)
			if err == nil || !strings.Contains(err.Error(), f.global+":2") || !strings.Contains(err.Error(), "left unchanged") {
				t.Fatalf("err = %v, want it to name %s:2", err, f.global)
			}
			if got := readFile(t, f.global); got != content {
				t.Fatalf("the broken file was changed:\n%s", got)
			}
		})
	}
}

func TestSaveSettingReplacesTheFileAtomically(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	write(t, f.global, userGlobal)
	if err := os.Chmod(f.global, 0o600); err != nil {
		t.Fatal(err)
	}
	// A reader that opened the file before the save reads the old file whole: it
	// was replaced by a rename, not rewritten in place.
	old, err := os.Open(f.global)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if _, err := f.load(t).SaveSetting("model", "deepseek-flash", TargetGlobal); err != nil {
		t.Fatal(err)
	}
	before, _ := io.ReadAll(old)
	if string(before) != userGlobal {
		t.Errorf("the old file changed under its reader:\n%s", before)
	}
	if got := readFile(t, f.global); !strings.Contains(got, `model = "deepseek-flash" # fast enough`) {
		t.Errorf("new file:\n%s", got)
	}
	st, _ := os.Stat(f.global)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600 kept", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(f.global))
	if len(entries) != 1 {
		t.Errorf("left beside the file: %v", entries)
	}
}

func TestSaveSettingKeepsASymlinkedFileALink(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	real := write(t, filepath.Join(f.root, "dotfiles", "albert.toml"), "model = \"qwen\"\n")
	if err := os.MkdirAll(filepath.Dir(f.global), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, f.global); err != nil {
		t.Fatal(err)
	}
	if _, err := f.load(t).SaveSetting("agent", "plan", TargetGlobal); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(f.global); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st, err)
	}
	if got := readFile(t, real); got != "model = \"qwen\"\nagent = \"plan\"\n" {
		t.Errorf("target:\n%s", got)
	}
}

func TestUnsetSetting(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	write(t, f.global, userGlobal)
	c := f.load(t)
	if to, ok := c.SettingTarget("compaction.threshold"); !ok || to != TargetGlobal {
		t.Fatalf("SettingTarget = %v, %v", to, ok)
	}
	if _, ok := c.SettingTarget("agent"); ok {
		t.Fatal("a default value has no file to unset it from")
	}
	saved, err := c.UnsetSetting("compaction.threshold", TargetGlobal)
	if err != nil || !saved.Removed {
		t.Fatalf("saved %+v, err %v", saved, err)
	}
	if want := strings.Replace(userGlobal, "threshold = 0.7\n", "", 1); readFile(t, f.global) != want {
		t.Fatalf("file:\n%s", readFile(t, f.global))
	}
	if c2, _ := c.Reload(); c2.Compaction.Threshold != 0.8 {
		t.Errorf("threshold after unset = %v, want the default 0.8", c2.Compaction.Threshold)
	}
	_, err = c.UnsetSetting("agent", TargetGlobal)
	if err == nil || !strings.Contains(err.Error(), "agent is not set in "+f.global+" (its value comes from default)") {
		t.Errorf("unset of an absent key: %v", err)
	}
}

func TestSettingValuesShowValueAndSource(t *testing.T) {
	t.Parallel()
	f := newSaveFixture(t)
	write(t, f.global, userGlobal)
	f.vars[EnvSandbox] = "off"
	got := map[string]SettingValue{}
	for _, v := range f.load(t).SettingValues() {
		got[v.Key] = v
	}
	if len(got) != len(Settings) {
		t.Fatalf("%d values for %d settings", len(got), len(Settings))
	}
	for key, want := range map[string]string{
		"model": "qwen @ " + f.global + ":2", "compaction.threshold": "0.7 @ " + f.global + ":6",
		"agent": "default @ default", "sandbox.mode": "off @ env " + EnvSandbox, "rate_limits.max_wait": "10m0s @ default",
	} {
		if v := got[key]; v.Value+" @ "+v.Source.String() != want {
			t.Errorf("%s = %s @ %s, want %s", key, v.Value, v.Source, want)
		}
	}
}

// The notification and update settings round-trip through the file, and the
// update check stays out of a project file like the feed.
func TestSaveNotificationAndUpdateSettings(t *testing.T) {
	f := newSaveFixture(t)
	c := f.load(t)
	for key, value := range map[string]string{"notifications.enabled": "true", "notifications.method": "notify-send",
		"notifications.after": "1m0s", "update_check": "false"} {
		if _, err := c.SaveSetting(key, value, TargetGlobal); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if got := f.load(t).settingText(key); got != value {
			t.Errorf("%s = %q after saving %q", key, got, value)
		}
	}
	f.trusted = func(string) bool { return true }
	if _, err := f.load(t).SaveSetting("update_check", "true", TargetProject); err == nil || !strings.Contains(err.Error(), "global config only") {
		t.Errorf("update_check in a project file: %v", err)
	}
}
