package sensitive

import "testing"

func TestControl(t *testing.T) {
	ws := "/w"
	cases := map[string]string{
		"/w/.git/config":             RuleGitConfig,
		"/w/.git/hooks/pre-commit":   RuleGitHooks,
		"/w/.git/hooks":              RuleGitHooks,
		"/w/.git":                    RuleGitDir,
		"/w/sub/.git/config":         RuleGitConfig,
		"/w/.git/commondir":          RuleGitCommonDir,
		"/w/.git/config.worktree":    RuleGitWorktreeCfg,
		"/w/.git/modules/m/config":   RuleGitModules,
		"/w/.git/modules/m/hooks/x":  RuleGitModules,
		"/w/.git/worktrees/t/gitdir": RuleGitWorktrees,
		"/w/sub/.git/commondir":      RuleGitCommonDir,
		"/w/.git/info/attributes":    "",
		"/w/.git/refs/heads/main":    "",
		"/w/.git/index":              "",
		"/w/.albert-code.toml":       RuleProject,
		"/w/a/.albert-code.toml":     RuleProject,
		"/w/.albert-code/agents/x":   RuleProjectDir,
		"/w/.vibe.toml":              RuleVibe,
		"/w/.vibe/tools/x.py":        RuleVibeDir,
		"/w/.mcp.json":               RuleMCPServers,
		"/w/.git/objects/ab/cd":      "",
		"/w/.git/config.bak/x":       "",
		"/w/src/config":              "",
		"/w/.albert-code.toml.d/x":   "",
		"/elsewhere/.git/config":     "",
		"/w":                         "",
		"/w/.gitignore":              "",
		"/w/notes/.mcp.json.example": "",
	}
	for path, want := range cases {
		got, ok := Control(ws, path)
		if got != want || ok != (want != "") {
			t.Errorf("Control(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

func TestSecrets(t *testing.T) {
	s := Secrets("/home/u", "/opt/ac", "~/.custom", "relative/ignored", "/etc/shadow")
	for _, p := range []string{"/home/u/.ssh/id_ed25519", "/home/u/.albert-code/.env", "/opt/ac/config.toml",
		"/home/u/.custom/k", "/etc/shadow", "/home/u/.config/albert-code/config.toml", "/home/u/.netrc"} {
		if _, ok := IsSecret(s, p); !ok {
			t.Errorf("%s should be secret", p)
		}
	}
	for _, p := range []string{"/home/u/project/.env", "/home/u/.sshx", "/home/u/.config/other", "/home/u", "/opt"} {
		if r, ok := IsSecret(s, p); ok {
			t.Errorf("%s should not be secret (matched %s)", p, r)
		}
	}
}

// TestSecretsFollowXDGConfigHome: the global config moved by $XDG_CONFIG_HOME is as
// secret as ~/.config/albert-code (the write tool wrote [sandbox] mode = "off" there).
func TestSecretsFollowXDGConfigHome(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/elsewhere/xdg")
	s := Secrets("/home/u", "")
	if _, ok := IsSecret(s, "/elsewhere/xdg/albert-code/config.toml"); !ok {
		t.Fatalf("the global config under $XDG_CONFIG_HOME is not secret: %v", s)
	}
	if _, ok := IsSecret(s, "/elsewhere/xdg/other/x"); ok {
		t.Fatal("another program's config became secret")
	}
}

// TestProcessFilesAreRefused: /proc holds every process's environment, the agent's
// keys among them; only the user's allow_secret lifts it.
func TestProcessFilesAreRefused(t *testing.T) {
	for _, p := range []string{"/proc/123/environ", "/proc/1/cmdline", "/proc"} {
		if _, ok := Refused(nil, nil, p); !ok {
			t.Errorf("%s is not refused", p)
		}
	}
	if _, ok := Refused(nil, nil, "/procfs/x"); ok {
		t.Error("/procfs/x is refused")
	}
	if _, ok := Refused(nil, []string{"/proc/cpuinfo"}, "/proc/cpuinfo"); ok {
		t.Error("an explicit allow_secret does not lift /proc/cpuinfo")
	}
}

func TestWithinRoot(t *testing.T) {
	if !Within("/", "/etc") || Within("/a/b", "/a/bc") || !Within("/a", "/a") {
		t.Fatal("Within is wrong at the edges")
	}
}

func TestEveryControlRuleHasAReason(t *testing.T) {
	for _, rule := range []string{RuleGitDir, RuleGitConfig, RuleGitHooks, RuleGitCommonDir, RuleGitWorktreeCfg, RuleGitModules, RuleGitWorktrees, RuleProject, RuleProjectDir, RuleVibe, RuleVibeDir, RuleMCPServers} {
		if ControlReason(rule) == rule {
			t.Errorf("rule %s has no reason", rule)
		}
	}
}
