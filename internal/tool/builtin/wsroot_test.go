package builtin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/permission"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// linkedTree is a workspace with links out of it, and a fake home with a secret.
type linkedTree struct {
	ws, home, out string
	env           Env
}

func newLinkedTree(t *testing.T) linkedTree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := linkedTree{ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), out: filepath.Join(base, "out")}
	writeFiles(t, base, map[string]string{
		"ws/src/a.go":            "package src // KEY inside\n",
		"ws/.git/config":         "[core]\n",
		"home/.albert-code/.env": "ALBERT_API_KEY=KEY-secret\n",
		"home/.ssh/id_ed25519":   "KEY private\n",
		"home/notes.txt":         "KEY from home\n",
		"out/target.txt":         "outside KEY\n",
	})
	links := map[string]string{
		"ws/notes":    filepath.Join(l.home, ".albert-code", ".env"),
		"ws/home":     l.home, // ln -s ~ home
		"ws/rel-out":  "../out",
		"ws/abs-file": filepath.Join(l.out, "target.txt"),
		"ws/chain":    "rel-out/target.txt",
		"ws/dangling": "../out/new/created.txt",
		"ws/loop":     "loop",
		"ws/in-link":  "src/a.go",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	l.env = Env{WorkDir: l.ws, Secrets: []string{filepath.Join(l.home, ".albert-code"), filepath.Join(l.home, ".ssh")}}
	return l
}

// decide asks the permission policy about a call the way the agent does.
func (l linkedTree) decide(p *permission.Policy, tl tool.Tool, args string) permission.Verdict {
	return p.CheckCall(tl.Info(), tl.(tool.Pather).Paths(json.RawMessage(args)), json.RawMessage(args))
}

func (l linkedTree) policy() *permission.Policy {
	return &permission.Policy{WorkDir: l.ws, Trusted: true, Secrets: l.env.Secrets, Rules: map[string]permission.Rule{}}
}

func TestPathsReportTheRealTarget(t *testing.T) {
	t.Parallel()
	l := newLinkedTree(t)
	cases := map[string][]string{
		"src/a.go":         {filepath.Join(l.ws, "src", "a.go")},
		"in-link":          {filepath.Join(l.ws, "src", "a.go"), filepath.Join(l.ws, "in-link")},
		"abs-file":         {filepath.Join(l.out, "target.txt"), filepath.Join(l.ws, "abs-file")},
		"rel-out/new.txt":  {filepath.Join(l.out, "new.txt"), filepath.Join(l.ws, "rel-out", "new.txt")},
		"chain":            {filepath.Join(l.out, "target.txt"), filepath.Join(l.ws, "chain")},
		"dangling":         {filepath.Join(l.out, "new", "created.txt"), filepath.Join(l.ws, "dangling")},
		"home/.ssh/x":      {filepath.Join(l.home, ".ssh", "x"), filepath.Join(l.ws, "home", ".ssh", "x")},
		"new/dir/file.txt": {filepath.Join(l.ws, "new", "dir", "file.txt")},
	}
	extra := map[string]map[string]string{
		"read": {}, "write": {"content": ""}, "edit": {"old_string": "a", "new_string": "b"},
		"grep": {"pattern": "x"}, "glob": {"pattern": "x"},
	}
	for _, tl := range []tool.Tool{Read(l.env), Write(l.env), Edit(l.env), Grep(l.env), Glob(l.env)} {
		for path, want := range cases {
			fields := map[string]string{"path": path}
			for k, v := range extra[tl.Info().Name] {
				fields[k] = v
			}
			args, _ := json.Marshal(fields)
			if got := tl.(tool.Pather).Paths(args); !slices.Equal(got, want) {
				t.Errorf("%s %s: Paths = %v, want %v", tl.Info().Name, path, got, want)
			}
		}
	}
}

func TestReadThroughLinks(t *testing.T) {
	t.Parallel()
	l := newLinkedTree(t)
	read := Read(l.env)
	// Plan mode and an untrusted folder: read-only tools, nothing approved in advance.
	for _, trusted := range []bool{true, false} {
		p := l.policy()
		p.Trusted = trusted
		v := l.decide(p, read, `{"path":"notes"}`)
		if v.Level != permission.Never || !strings.Contains(v.Reason, filepath.Join(l.home, ".albert-code", ".env")+" (through the link notes)") {
			t.Errorf("trusted=%v: reading a link to the key = %+v, want never naming the real target", trusted, v)
		}
	}
	// Run directly, with no policy in front, the tool refuses the secret itself.
	wantError(t, run(t, read, map[string]string{"path": "notes"}), "secret path")
	if v := l.decide(l.policy(), read, `{"path":"abs-file"}`); v.Level != permission.Ask || !strings.Contains(v.Reason, "outside the workspace") {
		t.Errorf("reading a link to an outside file = %+v, want ask", v)
	}
	// Approved: the tool reads exactly the approved target.
	if res := run(t, read, map[string]string{"path": "chain"}); res.IsError || !strings.Contains(res.Output, "outside KEY") {
		t.Errorf("an approved read through a chain = %+v", res)
	}
	if res := run(t, read, map[string]string{"path": "in-link"}); res.IsError || !strings.Contains(res.Output, "KEY inside") {
		t.Errorf("an inside link = %+v", res)
	}
	wantError(t, run(t, read, map[string]string{"path": "loop"}), "cannot resolve loop")
}

func TestWriteThroughLinks(t *testing.T) {
	t.Parallel()
	l := newLinkedTree(t)
	write := Write(l.env)
	acceptEdits := l.policy()
	acceptEdits.Rules["write"] = permission.Rule{Level: permission.Always}
	for _, path := range []string{"abs-file", "rel-out/x.txt", "dangling", "chain"} {
		args, _ := json.Marshal(map[string]string{"path": path, "content": "pwned"})
		if v := l.decide(acceptEdits, write, string(args)); v.Level != permission.Ask || !strings.Contains(v.Reason, "through the link") {
			t.Errorf("accept-edits writing %s = %+v, want ask naming the link", path, v)
		}
	}
	for _, path := range []string{".git/config", "in-link/../.git/config"} {
		args, _ := json.Marshal(map[string]string{"path": path, "content": "[core]\n\tfsmonitor = x\n"})
		if v := l.decide(acceptEdits, write, string(args)); v.Level != permission.Ask || !strings.Contains(v.Reason, "protected control file") {
			t.Errorf("accept-edits writing %s = %+v, want ask", path, v)
		}
	}
	// Approved: a write through a link changes the target and keeps the link.
	wantOK(t, run(t, write, map[string]string{"path": "dangling", "content": "made"}))
	if b, _ := os.ReadFile(filepath.Join(l.out, "new", "created.txt")); string(b) != "made" {
		t.Fatalf("dangling link target = %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(l.ws, "dangling")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the write replaced the link itself")
	}
	wantError(t, run(t, write, map[string]string{"path": "home/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA"}), "secret path")
	if _, err := os.Stat(filepath.Join(l.home, ".ssh", "authorized_keys")); !os.IsNotExist(err) {
		t.Fatal("a key was written into ~/.ssh")
	}
	edit := Edit(l.env)
	wantError(t, run(t, edit, map[string]string{"path": "notes", "old_string": "KEY", "new_string": "x"}), "secret path")
}

// A link swapped in between the permission check and the call is caught: the call
// refuses to run on a target other than the one checked.
func TestLinkSwappedAfterTheCheck(t *testing.T) {
	t.Parallel()
	l := newLinkedTree(t)
	write := Write(l.env)
	writeFiles(t, l.ws, map[string]string{"docs/readme.md": "hello\n"})
	args := `{"path":"docs/readme.md","content":"changed"}`
	acceptEdits := l.policy()
	acceptEdits.Rules["write"] = permission.Rule{Level: permission.Always}
	if v := l.decide(acceptEdits, write, args); v.Level != permission.Always {
		t.Fatalf("the inside write = %+v", v)
	}
	swapForLink(t, filepath.Join(l.ws, "docs"), l.out)
	writeFiles(t, l.out, map[string]string{"readme.md": "outside\n"})
	res, err := write.Run(t.Context(), tool.Call{Args: json.RawMessage(args)})
	if err != nil || !res.IsError || !strings.Contains(res.Output, "now leads to "+filepath.Join(l.out, "readme.md")) {
		t.Fatalf("a write after the swap = %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(l.out, "readme.md")); string(b) != "outside\n" {
		t.Fatalf("the outside file was written: %q", b)
	}
}

// Between resolving and opening, os.Root (and the check of the opened descriptor)
// makes a swapped link fail instead of leading the open elsewhere.
func TestSwapBetweenResolveAndOpenFails(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, to string }{
		{"a link out of the workspace", "out"},
		{"a link to another folder inside", ".git"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := newLinkedTree(t)
			writeFiles(t, l.ws, map[string]string{"docs/config": "mine\n"})
			tg, err := l.env.locate("docs/config")
			if err != nil || !tg.inside {
				t.Fatalf("locate = %+v, %v", tg, err)
			}
			to, link := filepath.Join(l.ws, tc.to), tc.to // relative: os.Root follows it
			if tc.to == "out" {
				to, link = l.out, l.out
			}
			writeFiles(t, to, map[string]string{"config": "theirs\n"})
			swapForLink(t, filepath.Join(l.ws, "docs"), link)
			if f, err := openReal(tg); err == nil {
				f.Close()
				t.Fatal("reading through the swapped link succeeded")
			}
			if err := writeAtomic(tg, []byte("pwned"), 0o644); err == nil {
				t.Fatal("writing through the swapped link succeeded")
			} else if tc.to == ".git" && !errors.Is(err, errChanged) {
				t.Fatalf("err = %v, want errChanged", err)
			}
			if b, _ := os.ReadFile(filepath.Join(to, "config")); string(b) != "theirs\n" {
				t.Fatalf("the file behind the link was written: %q", b)
			}
		})
	}
}

func swapForLink(t *testing.T, dir, target string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
}

func TestGrepAndGlobDoNotLeaveTheWorkspaceThroughLinks(t *testing.T) {
	t.Parallel()
	l := newLinkedTree(t)
	for _, builtinEngine := range []bool{true, false} {
		env := l.env
		env.BuiltinGrep = builtinEngine
		grep := Grep(env)
		res := run(t, grep, map[string]string{"pattern": "KEY"})
		wantOK(t, res)
		if !strings.Contains(res.Output, "src/a.go") || strings.Contains(res.Output, "home") || strings.Contains(res.Output, "outside") {
			t.Errorf("builtin=%v: grep -r of the workspace = %q; want only the inside match", builtinEngine, res.Output)
		}
		if v := l.decide(l.policy(), grep, `{"pattern":"KEY","path":"home/"}`); v.Level != permission.Ask || !strings.Contains(v.Reason, l.home+" (through the link home)") {
			t.Errorf("grep of the linked home = %+v, want ask naming it", v)
		}
		// Approved, the search of the home folder still skips the secrets below it.
		res = run(t, grep, map[string]string{"pattern": "KEY", "path": "home/", "glob": "*"})
		if !strings.Contains(res.Output, "KEY from home") || strings.Contains(res.Output, "private") || strings.Contains(res.Output, "secret") {
			t.Errorf("builtin=%v: an approved grep of home = %q", builtinEngine, res.Output)
		}
		wantError(t, run(t, grep, map[string]string{"pattern": "KEY", "path": "home/.ssh"}), "secret path")
	}
	glob := Glob(l.env)
	res := run(t, glob, map[string]string{"pattern": "**/*"})
	if strings.Contains(res.Output, "home/") || strings.Contains(res.Output, "target.txt") {
		t.Errorf("glob of the workspace listed through links: %q", res.Output)
	}
	res = run(t, glob, map[string]string{"pattern": "**/*", "path": "home"})
	if !strings.Contains(res.Output, "notes.txt") || strings.Contains(res.Output, ".ssh") || strings.Contains(res.Output, ".env") {
		t.Errorf("an approved glob of home = %q", res.Output)
	}
}
