package builtin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/tool"
)

func TestBashResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	realDir, _ := filepath.EvalSymlinks(dir)
	tests := []struct {
		name    string
		command string
		wantErr bool
		want    []string
	}{
		{name: "stdout and stderr interleaved", command: "echo out; echo err >&2; echo out2", want: []string{"out\nerr\nout2\n"}},
		{name: "non-zero exit", command: "echo partial; exit 3", wantErr: true, want: []string{"partial", "exit code 3"}},
		{name: "no output", command: "true", want: []string{"(no output)"}},
		{name: "non-interactive env", command: "echo $CI $NONINTERACTIVE $TERM $PAGER $GIT_PAGER", want: []string{"true 1 dumb cat cat"}},
		{name: "stdin is empty", command: "cat; echo after", want: []string{"after"}},
		{name: "runs in WorkDir", command: "pwd -P", want: []string{realDir}},
		{name: "killed by a signal", command: "kill -9 $$", wantErr: true, want: []string{"killed by signal killed"}},
		{name: "empty command", command: "  ", wantErr: true, want: []string{"command is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, Bash(Env{WorkDir: dir}), BashParams{Command: tt.command})
			if res.IsError != tt.wantErr {
				t.Fatalf("IsError = %v, output %q", res.IsError, res.Output)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output %q does not contain %q", res.Output, w)
				}
			}
		})
	}
}

// processGone waits for pid to exit (a zombie counts as gone: nothing runs).
func processGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// The grandchild writes its pid, then the shell waits on it: only a kill of the
// whole process group stops the sleep.
const grandchildScript = `sh -c 'echo $$ > pid; exec sleep 300' & wait`

func TestBashTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Now()
	res := run(t, Bash(Env{WorkDir: dir, BashTimeout: 500 * time.Millisecond}), BashParams{Command: "echo started; " + grandchildScript})
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %s to return", elapsed)
	}
	wantError(t, res, "timed out after 0.5s; its process group was killed")
	if !strings.Contains(res.Output, "started") {
		t.Errorf("output before the timeout was lost: %q", res.Output)
	}
	if pid := readPid(t, filepath.Join(dir, "pid")); !processGone(pid, 3*time.Second) {
		t.Errorf("grandchild sleep %d survived the timeout", pid)
	}
}

func TestBashCancelKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	res := runCtx(t, ctx, Bash(Env{WorkDir: dir}), BashParams{Command: grandchildScript}, nil)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %s to return after cancel", elapsed)
	}
	wantError(t, res, "cancelled")
	if pid := readPid(t, filepath.Join(dir, "pid")); !processGone(pid, 3*time.Second) {
		t.Errorf("grandchild sleep %d survived the cancel", pid)
	}
}

func TestBashTermIgnoredGetsKilled(t *testing.T) {
	t.Parallel()
	start := time.Now()
	res := run(t, Bash(Env{WorkDir: t.TempDir(), BashTimeout: 200 * time.Millisecond}), BashParams{Command: `trap "" TERM; while :; do sleep 0.05; done`})
	wantError(t, res, "timed out")
	if elapsed := time.Since(start); elapsed > killGrace+3*time.Second {
		t.Errorf("took %s: SIGKILL did not follow the ignored SIGTERM", elapsed)
	}
}

func TestBashBackgroundChildHoldingPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Now()
	res := run(t, Bash(Env{WorkDir: dir}), BashParams{Command: "sleep 300 & echo $! > pid; echo done"})
	readPid(t, filepath.Join(dir, "pid"))
	wantOK(t, res)
	if res.Output != "done\n" {
		t.Errorf("output = %q", res.Output)
	}
	if elapsed := time.Since(start); elapsed > pipeGrace+3*time.Second {
		t.Errorf("took %s: a background child holding the pipe blocked the call", elapsed)
	}
}

func TestBashCapKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	var want strings.Builder
	for i := 1; i <= 100000; i++ {
		fmt.Fprintf(&want, "%d\n", i)
	}
	res := run(t, Bash(Env{WorkDir: t.TempDir(), MaxOutputBytes: 3000}), BashParams{Command: "seq 1 100000"})
	wantOK(t, res)
	capped, _ := tool.Cap(want.String(), 3000)
	if !res.Truncated || res.Output != capped {
		t.Errorf("Truncated=%v, output differs from tool.Cap of the full output:\n%s", res.Truncated, res.Output)
	}
}

func TestBashProgressStreams(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var chunks []string
	progress := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		chunks = append(chunks, s)
	}
	res := runCtx(t, context.Background(), Bash(Env{WorkDir: t.TempDir()}), BashParams{Command: "echo one; sleep 0.2; echo two"}, progress)
	wantOK(t, res)
	mu.Lock()
	defer mu.Unlock()
	if len(chunks) < 2 || strings.Join(chunks, "") != "one\ntwo\n" {
		t.Errorf("progress chunks = %q, want two writes making the output", chunks)
	}
}

func TestOutputBufferMatchesCap(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 10, 999, 1000, 1001, 5000, 200000} {
		for _, max := range []int{1000, 3001} {
			data := make([]byte, size)
			for i := range data {
				data[i] = 'a' + byte(rand.IntN(26))
			}
			b := &outputBuffer{max: max}
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 1+rand.IntN(2*max))
				_, _ = b.Write(rest[:n])
				rest = rest[n:]
			}
			got, cut := b.String()
			want, wantCut := tool.Cap(string(data), max)
			if got != want || cut != wantCut {
				t.Errorf("size %d max %d: buffer output differs from tool.Cap (cut %v vs %v)", size, max, cut, wantCut)
			}
		}
	}
}
