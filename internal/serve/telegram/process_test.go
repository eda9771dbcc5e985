package telegram

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
)

// sleeper is a CLI agent that starts a grandchild and waits for it: only a
// kill of the whole process group stops both.
const sleeper = `name = "sleeper"
binary = "sh"
argv = ["{binary}", "-c", "echo started; sleep 300 & echo $! > grandchild.pid; wait", "sleeper", "{append_system_prompt}"]
prompt = "stdin"
[output]
format = "text"
`

// realAgent runs the sleeper through the serve layer's runner.
func realAgent(t *testing.T) func(*Options) {
	a, err := declarative.Parse("sleeper.toml", []byte(sleeper))
	if err != nil {
		t.Fatal(err)
	}
	rn := runner.New(runner.Options{Grace: 200 * time.Millisecond})
	return func(o *Options) {
		o.Agent = agentFunc(func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
			return rn.Run(ctx, a, req, emit)
		})
	}
}

type agentFunc func(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error)

func (f agentFunc) Run(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return f(ctx, req, emit)
}

// grandchild waits for the sleeper's grandchild to start and returns its pid.
func grandchild(t *testing.T, f *fixture) int {
	t.Helper()
	ws := filepath.Join(f.root.Dir(), "chat_1001")
	var pid int
	defer func() {
		if pid == 0 {
			t.Logf("the chat got %+v", f.api.Messages(chatA))
		}
	}()
	waitFor(t, func() bool {
		data, err := os.ReadFile(filepath.Join(ws, "grandchild.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil && pid > 0
	})
	return pid
}

// waitGone waits for pid to die (or to be a zombie waiting for init).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("grandchild %d outlived the run", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(after, "Z")
}

func TestCancelKillsTheProcessGroup(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, realAgent(t))
	f.api.SendText(chatA, alice, "work forever")
	pid := grandchild(t, f)
	f.api.SendText(chatA, alice, "/cancel")
	contains(t, f.last(chatA, 1), "cancelled")
	waitGone(t, pid)
	waitIdle(t, f.bot, chatA)
	if n := len(f.api.Messages(chatA)); n != 1 {
		t.Errorf("%d messages: a cancelled run answered", n)
	}
}

func TestShutdownWaitsTheGraceThenKills(t *testing.T) {
	t.Parallel()
	f := newFixture(t, allowA, func(o *Options) {
		realAgent(t)(o)
		o.Grace = 300 * time.Millisecond
	})
	f.api.SendText(chatA, alice, "work forever")
	pid := grandchild(t, f)
	start := time.Now()
	f.cancel()
	select {
	case <-f.done:
	case <-time.After(testWait):
		t.Fatal("the bot did not stop")
	}
	if d := time.Since(start); d < 300*time.Millisecond || d > 5*time.Second {
		t.Errorf("stopped after %v: want the grace, then the kill", d)
	}
	waitGone(t, pid)
	contains(t, f.last(chatA, 1), "stopped: the bot is shutting down")
}

func TestShutdownLetsAShortRunFinish(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	f := newFixture(t, allowA, func(o *Options) {
		o.Agent.(*fakeAgent).run = func(ctx context.Context, req backend.Request) (backend.Result, error) {
			close(started)
			select {
			case <-time.After(200 * time.Millisecond):
				return backend.Result{Text: "finished in time"}, nil
			case <-ctx.Done():
				return backend.Result{}, ctx.Err()
			}
		}
	})
	f.api.SendText(chatA, alice, "quick")
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("no run")
	}
	f.cancel()
	<-f.done
	if got := f.last(chatA, 1); got != "finished in time" {
		t.Errorf("answer %q", got)
	}
}
