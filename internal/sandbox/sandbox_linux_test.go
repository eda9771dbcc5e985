package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv("SANDBOX_TEST_AGENT") != "" {
		agentHelper()
		return
	}
	if p := os.Getenv("SANDBOX_TEST_DIAL"); p != "" {
		dialHelper(p)
		return
	}
	os.Exit(m.Run())
}

// agentHelper plays an agent that starts a sandboxed command whose grandchild
// leaves the group, prints the grandchild's pid, and waits to be killed.
func agentHelper() {
	cmd := exec.Command("/bin/bash", "-c", "setsid sleep 300 & echo $!; sleep 300")
	var rs []record
	if dir := os.Getenv("SANDBOX_TEST_TEMP"); dir != "" {
		rs = []record{{opTempDir, dir}}
	}
	release, err := wrap(cmd, rs)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	release()
	time.Sleep(time.Hour)
}

func needLandlock(t *testing.T) {
	t.Helper()
	if LandlockABI() < 1 {
		t.Fatal("this test needs Landlock, which notes/library-probes.md says this kernel has")
	}
}

func runIn(t *testing.T, p Policy, dir, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = dir
	release, err := wrap(cmd, records(p))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestWorkspaceWriteConfinesWrites(t *testing.T) {
	needLandlock(t)
	ws, tmp, outside := t.TempDir(), t.TempDir(), t.TempDir()
	p := Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: tmp, Network: true}
	out, err := runIn(t, p, ws, "echo a > in.txt && mkdir -p d/e && echo b > d/e/f && echo b > "+tmp+"/t.txt && echo c > "+outside+"/x.txt")
	if err == nil || !strings.Contains(out, "Permission denied") {
		t.Fatalf("the write outside was not refused: err=%v out=%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "d/e/f")); string(b) != "b\n" {
		t.Fatalf("the write inside failed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Fatal("x.txt exists outside the workspace")
	}
}

func TestReadOnlyWritesOnlyTemp(t *testing.T) {
	needLandlock(t)
	ws, tmp := t.TempDir(), t.TempDir()
	p := Policy{Mode: ReadOnly, WorkDir: ws, TempDir: tmp}
	if out, err := runIn(t, p, ws, "echo a > "+tmp+"/ok && cat "+tmp+"/ok && ls / >/dev/null"); err != nil {
		t.Fatalf("temp dir write or read failed: %v %s", err, out)
	}
	out, err := runIn(t, p, ws, "echo a > in.txt")
	if err == nil || !strings.Contains(out, "Permission denied") {
		t.Fatalf("read-only mode wrote the workspace: err=%v out=%s", err, out)
	}
}

func TestSecretsUnreadable(t *testing.T) {
	needLandlock(t)
	home, tmp := t.TempDir(), t.TempDir()
	ws := filepath.Join(home, "project")
	for path, text := range map[string]string{
		".albert-code/.env": "ALBERT_API_KEY=sk-secret\n", ".ssh/id_ed25519": "KEY\n",
		".netrc": "machine x password y\n", "notes.txt": "public\n", "project/main.go": "package main\n",
	} {
		full := filepath.Join(home, path)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(text), 0o600)
	}
	os.Symlink(filepath.Join(home, ".albert-code/.env"), filepath.Join(ws, "env-link"))
	secrets := []string{filepath.Join(home, ".albert-code"), filepath.Join(home, ".ssh"), filepath.Join(home, ".netrc")}
	for _, mode := range []Mode{ReadOnly, WorkspaceWrite} {
		p := Policy{Mode: mode, WorkDir: ws, TempDir: tmp, Secrets: secrets}
		for _, attack := range []string{"cat ../.albert-code/.env", "cat env-link", "cat ../.ssh/id_ed25519", "cat ../.netrc",
			"grep -r sk-secret ..", "cp ../.albert-code/.env stolen"} {
			out, _ := runIn(t, p, ws, attack)
			if strings.Contains(out, "sk-secret") || strings.Contains(out, "KEY") || strings.Contains(out, "password y") {
				t.Errorf("%s: %q read a secret: %s", mode, attack, out)
			}
		}
		if out, err := runIn(t, p, ws, "cat ../notes.txt main.go"); err != nil || !strings.Contains(out, "public") {
			t.Errorf("%s: reading ordinary files failed: %v %s", mode, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "stolen")); err == nil {
		if b, _ := os.ReadFile(filepath.Join(ws, "stolen")); strings.Contains(string(b), "sk-secret") {
			t.Fatal("the secret was copied into the workspace")
		}
	}
}

func TestNetworkOff(t *testing.T) {
	needLandlock(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	ws := t.TempDir()
	script := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && head -1 <&3", port)
	out, err := runIn(t, Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: t.TempDir(), Network: true}, ws, script)
	if err != nil || !strings.Contains(out, "hello") {
		t.Fatalf("with network on, the connection failed: %v %s", err, out)
	}
	out, err = runIn(t, Policy{Mode: ReadOnly, WorkDir: ws, TempDir: t.TempDir()}, ws, script)
	if err == nil || strings.Contains(out, "hello") {
		t.Fatalf("with network off, the connection worked: %s", out)
	}
	out, err = runIn(t, Policy{Mode: ReadOnly, WorkDir: ws, TempDir: t.TempDir()}, ws,
		fmt.Sprintf("exec 3<>/dev/udp/127.0.0.1/%d && echo sent >&3 && echo udp-open", port))
	if err == nil || strings.Contains(out, "udp-open") {
		t.Fatalf("with network off, a UDP socket opened: %s", out)
	}
}

func TestControlFilesStayReadOnly(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".git/hooks"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, ".albert-code/agents"), 0o755)
	os.WriteFile(filepath.Join(ws, ".albert-code.toml"), []byte("# mine\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, ".git/modules/m"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/modules/m/config"), []byte("[core]\n"), 0o644)
	p := Policy{Mode: WorkspaceWrite, WorkDir: ws, TempDir: t.TempDir()}
	for _, attack := range []string{
		"echo '[core] fsmonitor = evil' >> .git/modules/m/config",
		"mkdir .git/modules/evil",
		"echo '[core] fsmonitor = evil' >> .git/config",
		"echo evil > .git/hooks/pre-commit",
		"echo '[tools.bash]' >> .albert-code.toml",
		"echo x > .albert-code/agents/default.toml",
		"mv .git .git-old",
		"mv .albert-code.toml x.toml",
		"rm -f .git/config",
	} {
		out, err := runIn(t, p, ws, attack)
		if err == nil {
			t.Errorf("%q succeeded: %s", attack, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git/config")); string(b) != "[core]\n" {
		t.Fatalf(".git/config changed: %q", b)
	}
	if out, err := runIn(t, p, ws, "echo ok > .git/index.lock && echo x > new.txt && rm .git/index.lock"); err != nil {
		t.Fatalf("ordinary writes in the workspace and .git failed: %v %s", err, out)
	}
}

func TestExitStatusRelayed(t *testing.T) {
	needLandlock(t)
	ws := t.TempDir()
	p := Policy{Mode: ReadOnly, WorkDir: ws, TempDir: t.TempDir()}
	_, err := runIn(t, p, ws, "exit 3")
	if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 3 {
		t.Fatalf("exit 3 came back as %v", err)
	}
	_, err = runIn(t, p, ws, "kill -USR1 $$")
	e, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("a signal came back as %v", err)
	}
	if ws := e.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGUSR1 {
		t.Fatalf("want killed by SIGUSR1, got %v", ws)
	}
	cmd := exec.Command("/nonexistent/prog")
	if _, err := wrap(cmd, records(p)); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "/nonexistent/prog") {
		t.Fatalf("a missing program: %v", err)
	}
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && len(b) > i+2 && b[i+2] != 'Z'
}

func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) is still alive", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStopKillsDescendantsThatLeftTheGroup(t *testing.T) {
	cmd := exec.Command("/bin/bash", "-c", "setsid sleep 300 & echo $!; sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	release, err := wrap(cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release()
	var pid int
	if _, err := fmt.Fscan(stdout, &pid); err != nil {
		t.Fatal(err)
	}
	if !alive(pid) {
		t.Fatal("the grandchild did not start")
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the command did not end after SIGTERM")
	}
	waitDead(t, pid, "the setsid grandchild")
}

func TestAgentDeathKillsTree(t *testing.T) {
	// The agent's private temporary directory goes with the tree: a SIGKILLed agent
	// cannot remove it, so the guardian does.
	tmp, err := os.MkdirTemp(t.TempDir(), tempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tmp, "left.txt"), []byte("x"), 0o644)
	keep := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(keep, 0o755)
	agent := exec.Command(os.Args[0], "-test.run=^$")
	agent.Env = append(os.Environ(), "SANDBOX_TEST_AGENT=1", "SANDBOX_TEST_TEMP="+tmp)
	out, _ := agent.StdoutPipe()
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		agent.Process.Kill()
		t.Fatal(err)
	}
	if !alive(pid) {
		t.Fatal("the grandchild did not start")
	}
	agent.Process.Kill() // kill -9 of the agent
	agent.Wait()
	waitDead(t, pid, "the grandchild of a SIGKILLed agent")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(tmp); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the SIGKILLed agent's temporary directory %s is still there", tmp)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("a directory the guardian was not told of was removed: %v", err)
	}
}

func TestBackgroundOutlivesTheCall(t *testing.T) {
	cmd := exec.Command("/bin/bash", "-c", "sleep 300 >/dev/null 2>&1 & echo $!")
	release, err := wrap(cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b, err := cmd.Output()
	release()
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("the call waited for its background child: %v", time.Since(start))
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !alive(pid) {
		t.Fatal("the background child died with the call")
	}
	syscall.Kill(pid, syscall.SIGKILL)
}

func TestPrepareScrubsEnvironment(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("ALBERT_API_KEY", "sk-albert")
	t.Setenv("GITHUB_TOKEN", "ghp-x")
	t.Setenv("KEEP_ME_TOKEN", "kept")
	t.Setenv("PLAIN", "plain")
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws, EnvPassthrough: []string{"KEEP_ME_TOKEN"}})
	defer s.Close()
	cmd := exec.Command("/usr/bin/env")
	cmd.Dir = ws
	release, err := s.Prepare(context.Background(), WorkspaceWrite, cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	release()
	if err != nil {
		t.Fatal(err)
	}
	env := string(out)
	if strings.Contains(env, "sk-albert") || strings.Contains(env, "ghp-x") {
		t.Fatalf("a secret reached the command: %s", env)
	}
	if !strings.Contains(env, "KEEP_ME_TOKEN=kept") || !strings.Contains(env, "PLAIN=plain") || !strings.Contains(env, "TMPDIR=") {
		t.Fatalf("the environment lost what it should keep: %s", env)
	}
}

func TestWatchControlRemovesCreatedControlFiles(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte("{}"), 0o644)
	s := New(Config{Mode: WorkspaceWrite, WorkDir: ws})
	check := s.WatchControl(WorkspaceWrite)
	os.WriteFile(filepath.Join(ws, ".albert-code.toml"), []byte("[tools.bash]\npermission = \"always\"\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, ".albert-code/agents"), 0o755)
	os.WriteFile(filepath.Join(ws, "ordinary.txt"), nil, 0o644)
	// A .git file sends git to another folder's config, where core.fsmonitor runs
	// at the user's next git status.
	os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: evil\n"), 0o644)
	removed := check()
	if len(removed) != 3 {
		t.Fatalf("removed %v, want .git, .albert-code.toml and .albert-code", removed)
	}
	for _, gone := range []string{".git", ".albert-code.toml", ".albert-code"} {
		if _, err := os.Stat(filepath.Join(ws, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	for _, kept := range []string{".mcp.json", "ordinary.txt"} {
		if _, err := os.Stat(filepath.Join(ws, kept)); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
	if New(Config{Mode: Off, WorkDir: ws}).WatchControl(WorkspaceWrite)() != nil {
		t.Fatal("the off sandbox removed something")
	}
}

// TestWatchControlRemovesCreatedGitIndirections: in an existing repository, a
// command that creates .git/commondir (git then reads another folder's config) or a
// submodule's git folder has them removed; its ordinary writes in .git stay.
func TestWatchControlRemovesCreatedGitIndirections(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".git/refs"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n"), 0o644)
	check := New(Config{Mode: WorkspaceWrite, WorkDir: ws}).WatchControl(WorkspaceWrite)
	os.WriteFile(filepath.Join(ws, ".git/commondir"), []byte("../evil\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git/config.worktree"), []byte("[core]\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, ".git/modules/m/hooks"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git/refs/x"), nil, 0o644)
	if removed := check(); len(removed) != 3 {
		t.Fatalf("removed %v, want .git/commondir, .git/config.worktree and .git/modules", removed)
	}
	for _, rel := range []string{".git/config", ".git/refs/x"} {
		if _, err := os.Stat(filepath.Join(ws, rel)); err != nil {
			t.Errorf("%s was removed: %v", rel, err)
		}
	}
}

func TestExplainNamesTheModeAndTheWayOut(t *testing.T) {
	s := New(Config{Mode: WorkspaceWrite, WorkDir: t.TempDir()})
	if !s.Status().Active {
		t.Fatal("no sandbox here")
	}
	if n := s.Explain(WorkspaceWrite, "mkdir: cannot create directory '/root/.cache/go-build': Permission denied"); !strings.Contains(n, "[sandbox] writable") {
		t.Errorf("workspace-write note: %q", n)
	}
	if n := s.Explain(ReadOnly, "touch: cannot touch 'x': Permission denied"); !strings.Contains(n, "read-only") {
		t.Errorf("read-only note: %q", n)
	}
	if n := s.Explain(WorkspaceWrite, "all good"); n != "" {
		t.Errorf("a note without a refusal: %q", n)
	}
	if n := New(Config{Mode: Off}).Explain(WorkspaceWrite, "Permission denied"); n != "" {
		t.Errorf("a note with the sandbox off: %q", n)
	}
}

// The read rules are cached while the folders they listed are unchanged; an entry
// added since is covered at the next command.
func TestReadRulesFollowNewEntries(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	hidden := hiddenPaths([]string{filepath.Join(home, ".ssh")})
	has := func(rs []record, path string) bool {
		for _, r := range rs {
			if r.op == opRead && r.path == path {
				return true
			}
		}
		return false
	}
	first := readRules(hidden)
	if has(first, filepath.Join(home, "later")) {
		t.Fatal("a rule for a folder that does not exist yet")
	}
	os.Mkdir(filepath.Join(home, "later"), 0o755)
	if !has(readRules(hidden), filepath.Join(home, "later")) {
		t.Fatal("a folder made after the first command got no read rule")
	}
	if has(readRules(hidden), filepath.Join(home, ".ssh")) {
		t.Fatal("the hidden folder got a read rule")
	}
}
