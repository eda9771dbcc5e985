package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// linkedWorkspace is a workspace whose links lead to a secret file, an outside
// folder and a control file, with the secret list of a fake home.
type linkedWorkspace struct {
	ws, home, out string
	secrets       []string
}

func newLinkedWorkspace(t *testing.T) linkedWorkspace {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := linkedWorkspace{ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), out: filepath.Join(base, "out")}
	l.secrets = []string{filepath.Join(l.home, ".albert-code"), filepath.Join(l.home, ".ssh")}
	for _, d := range []string{filepath.Join(l.ws, ".git"), filepath.Join(l.home, ".albert-code"), l.out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, content := range map[string]string{
		filepath.Join(l.home, ".albert-code", ".env"): "ALBERT_API_KEY=sk-1",
		filepath.Join(l.ws, ".git", "config"):         "[core]\n",
		filepath.Join(l.out, "notes.txt"):             "outside",
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"notes":    filepath.Join(l.home, ".albert-code", ".env"), // absolute, to a secret
		"rel-out":  "../out",                                      // relative, to a folder outside
		"home":     l.home,                                        // the attack's `ln -s ~ home`
		"chain":    "rel-out/notes.txt",                           // a link through a link
		"dangling": "../out/new/created.txt",                      // create through a dangling link
		"innocent": ".git/config",                                 // an inside link to a control file
	} {
		if err := os.Symlink(target, filepath.Join(l.ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l linkedWorkspace) policy(mod func(*Policy)) *Policy {
	p := &Policy{WorkDir: l.ws, Trusted: true, Secrets: l.secrets, Rules: map[string]Rule{}}
	if mod != nil {
		mod(p)
	}
	return p
}

func TestPolicyJudgesTheRealTarget(t *testing.T) {
	t.Parallel()
	l := newLinkedWorkspace(t)
	read, grep, write := tool.Info{Name: "read", ReadOnly: true}, tool.Info{Name: "grep", ReadOnly: true}, tool.Info{Name: "write"}
	plan := func(p *Policy) {} // plan: read-only tools, nothing approved in advance
	untrusted := func(p *Policy) { p.Trusted = false }
	yolo := func(p *Policy) {
		p.AutoApprove = true
		p.Rules["read"] = Rule{Level: Always, Allow: []string{"**", "/**"}}
		p.GrantForSession("read")
	}
	env := filepath.Join(l.home, ".albert-code", ".env")
	tests := []struct {
		name   string
		mod    func(*Policy)
		info   tool.Info
		path   string
		want   Level
		reason []string
	}{
		{"plan mode reading a link to a secret", plan, read, "notes", Never,
			[]string{"read of " + env + " (through the link notes)", "secret-path rule", "allow_secret"}},
		{"untrusted folder reading a link to a secret", untrusted, read, "notes", Never, []string{env, "secret-path rule"}},
		{"auto-approve, allow globs and a grant do not lift a secret", yolo, read, "notes", Never, []string{"secret-path rule"}},
		{"the secret named directly", plan, read, env, Never, []string{"secret-path rule"}},
		{"grep through a linked home folder asks", plan, grep, "home", Ask,
			[]string{"grep touches " + l.home + " (through the link home), outside the workspace"}},
		{"grep into the secret below the linked home", plan, grep, "home/.albert-code", Never, []string{"secret-path rule"}},
		{"a relative folder link", plan, read, "rel-out/notes.txt", Ask, []string{filepath.Join(l.out, "notes.txt"), "through the link rel-out/notes.txt"}},
		{"a chain of links", plan, read, "chain", Ask, []string{filepath.Join(l.out, "notes.txt"), "outside the workspace"}},
		{"accept-edits writing through a dangling link", func(p *Policy) { p.Rules["write"] = Rule{Level: Always} }, write, "dangling", Ask,
			[]string{filepath.Join(l.out, "new", "created.txt"), "through the link dangling"}},
		{"an inside link to a control file", func(p *Policy) { p.AutoApprove = true }, write, "innocent", Ask,
			[]string{".git/config (through the link innocent)", "protected control file"}},
		{"a plain inside read", plan, read, ".git/config", Always, nil},
		// Second pass: auto-approve wrote ~/.bashrc with the write tool while its
		// commands could not, and grep read the agent's keys in /proc/self/environ.
		{"auto-approve writing outside the workspace asks", yolo, write, filepath.Join(l.home, ".bashrc"), Ask,
			[]string{filepath.Join(l.home, ".bashrc"), "auto-approve and session grants cover the workspace only"}},
		{"auto-approve writing through a link to outside asks", yolo, write, "rel-out/notes.txt", Ask, []string{"through the link rel-out/notes.txt"}},
		{"a session grant writing outside asks", func(p *Policy) { p.GrantForSession("write") }, write, filepath.Join(l.out, "x"), Ask, []string{"outside the workspace"}},
		{"auto-approve writing inside", yolo, write, "main.go", Always, nil},
		{"auto-approve reading outside", yolo, read, "rel-out/notes.txt", Always, nil},
		{"the agent's own environment", yolo, grep, "/proc/self/environ", Never, []string{"secret-path rule", "/proc"}},
		{"another process's command line", yolo, read, "/proc/1/cmdline", Never, []string{"secret-path rule"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := l.policy(tt.mod).Check(tt.info, []string{tt.path})
			if v.Level != tt.want {
				t.Fatalf("Check(%s) = %+v, want %s", tt.path, v, tt.want)
			}
			for _, r := range tt.reason {
				if !strings.Contains(v.Reason, r) {
					t.Errorf("reason %q does not say %q", v.Reason, r)
				}
			}
		})
	}
}

func TestExplicitAllowSecretLiftsTheRefusal(t *testing.T) {
	t.Parallel()
	l := newLinkedWorkspace(t)
	env := filepath.Join(l.home, ".albert-code", ".env")
	p := l.policy(func(p *Policy) { p.AllowSecrets = []string{env} })
	if v := p.Check(tool.Info{Name: "read", ReadOnly: true}, []string{"notes"}); v.Level != Ask {
		t.Fatalf("an allowed secret outside the workspace = %+v, want ask", v)
	}
}

func TestControlFilesAlwaysAsk(t *testing.T) {
	t.Parallel()
	l := newLinkedWorkspace(t)
	write, edit := tool.Info{Name: "write"}, tool.Info{Name: "edit"}
	acceptEdits := func(p *Policy) { p.Rules["write"], p.Rules["edit"] = Rule{Level: Always}, Rule{Level: Always} }
	everything := func(p *Policy) {
		p.AutoApprove = true
		p.Rules["write"] = Rule{Level: Always, Allow: []string{"**"}}
		p.GrantForSession("write")
	}
	tests := []struct {
		mod  func(*Policy)
		info tool.Info
		path string
		rule string
	}{
		{acceptEdits, write, ".git/config", "git runs programs named there (core.fsmonitor, diff.external"},
		{acceptEdits, edit, ".albert-code.toml", ".albert-code.toml: it sets tool permissions"},
		{acceptEdits, write, ".albert-code/agents/default.toml", ".albert-code/**: its profiles, skills and hooks"},
		{acceptEdits, write, ".git/hooks/pre-commit", ".git/hooks/**"},
		{acceptEdits, write, "sub/.mcp.json", ".mcp.json"},
		{everything, write, ".git/config", ".git/config"},
		{everything, write, ".vibe/tools/x.py", ".vibe/**"},
	}
	for _, tt := range tests {
		v := l.policy(tt.mod).Check(tt.info, []string{tt.path})
		if v.Level != Ask || !strings.Contains(v.Reason, tt.rule) || !strings.Contains(v.Reason, "protected control file") {
			t.Errorf("%s %s = %+v; want ask naming %q", tt.info.Name, tt.path, v, tt.rule)
		}
		if !strings.Contains(v.Allow, "allow_control") || !strings.Contains(v.Allow, "global config") {
			t.Errorf("%s %s: Allow = %q; want the global allow_control advice", tt.info.Name, tt.path, v.Allow)
		}
	}
	if v := l.policy(acceptEdits).Check(tool.Info{Name: "read", ReadOnly: true}, []string{".git/config"}); v.Level != Always {
		t.Errorf("reading .git/config = %+v, want always", v)
	}
	if v := l.policy(acceptEdits).Check(write, []string{"src/main.go"}); v.Level != Always {
		t.Errorf("accept-edits writing an ordinary file = %+v, want always", v)
	}
	allowed := l.policy(func(p *Policy) { acceptEdits(p); p.AllowControl = []string{".git/hooks/**", ".albert-code.toml"} })
	for _, path := range []string{".git/hooks/pre-commit", ".albert-code.toml"} {
		if v := allowed.Check(write, []string{path}); v.Level != Always {
			t.Errorf("with allow_control, writing %s = %+v, want always", path, v)
		}
	}
	if v := allowed.Check(write, []string{".git/config"}); v.Level != Ask {
		t.Errorf("allow_control for hooks lifted .git/config: %+v", v)
	}
}

func TestDenyGlobMatchesTheNamedPathToo(t *testing.T) {
	t.Parallel()
	l := newLinkedWorkspace(t)
	p := l.policy(func(p *Policy) { p.Rules["read"] = Rule{Deny: []string{"rel-out/**"}} })
	if v := p.Check(tool.Info{Name: "read", ReadOnly: true}, []string{"rel-out/notes.txt"}); v.Level != Never {
		t.Fatalf("a deny glob on the link's name = %+v, want never", v)
	}
}

// The path a tool reports is judged as given, not only where it leads now: a link
// outside that leads back in still asks, as the path the tool names is outside.
func TestGivenPathIsJudgedToo(t *testing.T) {
	t.Parallel()
	l := newLinkedWorkspace(t)
	back := filepath.Join(l.out, "back")
	if err := os.Symlink(filepath.Join(l.ws, ".git", "config"), back); err != nil {
		t.Fatal(err)
	}
	if v := l.policy(nil).Check(tool.Info{Name: "read", ReadOnly: true}, []string{back}); v.Level != Ask || !strings.Contains(v.Reason, back) {
		t.Fatalf("a reported outside path that resolves inside = %+v, want ask naming it", v)
	}
}
