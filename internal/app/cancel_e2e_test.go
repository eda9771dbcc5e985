package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// waitFile polls for a file the scripted command writes when it is running.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil && len(bytes.TrimSpace(data)) > 0 {
			return strings.TrimSpace(string(data))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
	return ""
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestSignalDuringBashKillsTheGroupAndKeepsTheSession(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			// The command sees its own PID namespace: its child is found from here by
			// a command line no other test uses.
			seconds := fmt.Sprintf("%d", 30000+int(sig))
			h := newHarness(t,
				calls(fakemodel.ToolCall{ID: "b1", Name: "bash", Arguments: args(map[string]any{
					"command": "sleep " + seconds + " & echo started > child.pid; wait"})}),
				text("resumed fine"),
			)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := h.command(ctx, "-p", "--trust", "--agent", "auto-approve", "--output", "json", "run it")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFile(t, filepath.Join(h.work, "child.pid"))
			// The forked child may not have reached its exec yet: look a while.
			pid := 0
			for deadline := time.Now().Add(5 * time.Second); pid == 0 && time.Now().Before(deadline); {
				if pid = findProcess([]byte("sleep\x00" + seconds + "\x00")); pid == 0 {
					time.Sleep(10 * time.Millisecond)
				}
			}
			if pid == 0 {
				t.Fatal("the bash call's child is not running")
			}
			start := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if took := time.Since(start); took > 10*time.Second {
				t.Fatalf("took %v to stop after %v", took, sig)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitCancelled {
				t.Fatalf("exit = %v, want %d; stderr %s", err, ExitCancelled, errOut.String())
			}
			deadline := time.Now().Add(5 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the bash call's child %d survived the cancel", pid)
			}
			s := h.summary(result{stdout: out.String(), stderr: errOut.String()})
			if s.StopReason != "cancelled" || s.SessionID == "" {
				t.Fatalf("summary = %+v", s)
			}
			// The saved history is valid: resuming sends the call and its (cancelled) result.
			r := h.run("-p", "--resume", s.SessionID, "--output", "json", "go on")
			if r.code != ExitOK || h.summary(r).Text != "resumed fine" {
				t.Fatalf("resume: exit %d stdout %s stderr %s", r.code, r.stdout, r.stderr)
			}
			if res := h.toolResult(1, "b1"); !strings.Contains(res, "cancelled") {
				t.Fatalf("result for the interrupted call = %q", res)
			}
		})
	}
}

func TestSignalWhileWaitingForTheModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakemodel.Turn{Text: []string{"partial answ"}, Hang: true})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := h.command(ctx, "-p", "--output", "json", "hello")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(h.srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitCancelled || time.Since(start) > 5*time.Second {
		t.Fatalf("exit %v after %v", err, time.Since(start))
	}
	if s := h.summary(result{stdout: out.String()}); s.StopReason != "cancelled" {
		t.Fatalf("summary = %+v", s)
	}
}
