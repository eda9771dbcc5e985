package sensitive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	out := filepath.Join(base, "out")
	mustMkdir(t, filepath.Join(ws, "src"), out)
	mustWrite(t, filepath.Join(out, "secret.env"))
	mustWrite(t, filepath.Join(ws, "src", "a.go"))
	links := map[string]string{
		"ws/file-abs":    filepath.Join(out, "secret.env"),
		"ws/file-rel":    "../out/secret.env",
		"ws/dir-abs":     out,
		"ws/dir-rel":     "../out",
		"ws/chain1":      "chain2",
		"ws/chain2":      "dir-rel/secret.env",
		"ws/dangling":    "../out/not-yet/new.txt",
		"ws/inside":      "src/a.go",
		"ws/loop1":       "loop2",
		"ws/loop2":       "loop1",
		"ws/src/up":      "..",
		"ws/src/dot-dot": "../../out",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]string{
		"ws/src/a.go":              filepath.Join(ws, "src", "a.go"),
		"ws/file-abs":              filepath.Join(out, "secret.env"),
		"ws/file-rel":              filepath.Join(out, "secret.env"),
		"ws/dir-abs/secret.env":    filepath.Join(out, "secret.env"),
		"ws/dir-rel/new/deeper.go": filepath.Join(out, "new", "deeper.go"),
		"ws/chain1":                filepath.Join(out, "secret.env"),
		"ws/dangling":              filepath.Join(out, "not-yet", "new.txt"),
		"ws/inside":                filepath.Join(ws, "src", "a.go"),
		"ws/src/up/src/up/inside":  filepath.Join(ws, "src", "a.go"),
		"ws/src/dot-dot/x":         filepath.Join(out, "x"),
		"ws/dir-rel/../ws/src":     filepath.Join(base, "ws", "src"), // .. applies to out, the link's target
		"ws/missing/../src/a.go":   filepath.Join(ws, "src", "a.go"),
		"ws/src/a.go/below":        filepath.Join(ws, "src", "a.go", "below"),
	}
	for rel, want := range cases {
		got, err := Resolve(base + "/" + rel) // not Join: it would apply ".." lexically
		if err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", rel, got, err, want)
		}
	}
	if _, err := Resolve(filepath.Join(ws, "loop1")); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("a link loop resolved without error: %v", err)
	}
	if _, err := Resolve("relative/path"); err == nil {
		t.Error("a relative path resolved without error")
	}
}

func TestRefusedHonoursExplicitAllow(t *testing.T) {
	t.Parallel()
	secrets := []string{"/h/.ssh", "/h/.albert-code"}
	if s, ok := Refused(secrets, nil, "/h/.ssh/id_rsa"); !ok || s != "/h/.ssh" {
		t.Fatalf("Refused = %q, %v", s, ok)
	}
	if _, ok := Refused(secrets, []string{"/h/.ssh/config"}, "/h/.ssh/config"); ok {
		t.Fatal("an allowed secret is still refused")
	}
	if _, ok := Refused(secrets, []string{"/h/.ssh/config"}, "/h/.ssh/id_rsa"); !ok {
		t.Fatal("an allow for one file lifted the whole folder")
	}
	if _, ok := Refused(secrets, []string{"relative"}, "/h/.ssh/relative"); !ok {
		t.Fatal("a relative allow was honoured")
	}
}

func mustMkdir(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func mustWrite(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}
