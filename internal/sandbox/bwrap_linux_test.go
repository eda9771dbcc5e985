package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The bubblewrap backend must hold the same lines as Landlock: .ci/run installs
// bubblewrap, so a missing bwrap fails these tests rather than skipping them.
func runBwrap(t *testing.T, p Policy, dir, script string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Fatal("bubblewrap is not installed (apt-get install bubblewrap; .ci/run does)")
	}
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = dir
	release, err := confine(cmd, BackendBubblewrap, p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestBubblewrapBackend(t *testing.T) {
	home, tmp, outside := t.TempDir(), t.TempDir(), t.TempDir()
	ws := filepath.Join(home, "project")
	os.MkdirAll(filepath.Join(ws, ".git/hooks"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n"), 0o644)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh/id_ed25519"), []byte("PRIVATE\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".netrc"), []byte("password hunter2\n"), 0o600)
	victim := exec.Command("/bin/sleep", "30")
	victim.Env = []string{"VICTIM_MARK=visible"}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	secrets := []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".netrc")}
	p := Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: tmp, Secrets: secrets}

	if out, err := runBwrap(t, p, ws, "echo a > in.txt && echo b > "+tmp+"/t && cat in.txt"); err != nil || !strings.Contains(out, "a") {
		t.Fatalf("writing the workspace and the temp dir failed: %v %s", err, out)
	}
	for _, attack := range []string{
		"echo c > " + outside + "/x",
		"echo evil >> .git/config",
		"echo evil > .git/hooks/pre-commit",
		"mv .git .git-old",
	} {
		if out, err := runBwrap(t, p, ws, attack); err == nil {
			t.Errorf("%q succeeded under bubblewrap: %s", attack, out)
		}
	}
	out, _ := runBwrap(t, p, ws, fmt.Sprintf("cat ../.ssh/id_ed25519 ../.netrc; cat /proc/%d/environ; cat /proc/*/environ", victim.Process.Pid))
	if strings.Contains(out, "PRIVATE") || strings.Contains(out, "hunter2") || strings.Contains(out, "VICTIM_MARK") {
		t.Errorf("a secret was read under bubblewrap: %s", out)
	}
	ro := Policy{Mode: ReadOnly, WorkDir: ws, TempDir: tmp, Secrets: secrets}
	if out, err := runBwrap(t, ro, ws, "echo x > ro.txt"); err == nil {
		t.Errorf("read-only mode wrote the workspace under bubblewrap: %s", out)
	}
	if out, err := runBwrap(t, ro, ws, "cat /proc/net/dev"); err != nil || strings.Contains(out, "eth") {
		t.Errorf("read-only mode kept the network under bubblewrap: %v %s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git/config")); string(b) != "[core]\n" {
		t.Fatalf(".git/config changed: %q", b)
	}
}
