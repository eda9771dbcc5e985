package adapter_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/codex"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/pi"
	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
)

// fake runs the fake agent script as adapter a would run its real agent.
type fake struct {
	dir        string // where the script leaves its argv, stdin and grandchild pid
	transcript string
	mode       string
}

func newFake(t *testing.T, transcript, mode string) *fake {
	return &fake{dir: t.TempDir(), transcript: transcript, mode: mode}
}

func (f *fake) env() map[string]string {
	abs, _ := filepath.Abs(filepath.Join("testdata", f.transcript))
	return map[string]string{"FAKE_DIR": f.dir, "FAKE_TRANSCRIPT": abs, "FAKE_MODE": f.mode}
}

func (f *fake) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		t.Fatalf("the fake agent left no %s: %v", name, err)
	}
	return string(data)
}

func script(t *testing.T) string {
	p, err := filepath.Abs("testdata/fake-agent.sh")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEachAdapterEndToEnd(t *testing.T) {
	t.Parallel()
	bin := script(t)
	tests := []struct {
		adapter    cli.Adapter
		transcript string
		argvHas    string
		text       string
		deltas     string
		session    string
		usage      backend.Usage
	}{
		{&claude.Adapter{Binary: bin}, "claude.jsonl", "-p\n--output-format\nstream-json\n--verbose\n",
			// The answer is Claude's result, not the narration before its tool call.
			"There is one Go file: main.go.", "There is one Go file: main.go.",
			"8f2c3a1e-5b7d-4c9e-a1f0-2d3e4b5c6a7f",
			backend.Usage{InputTokens: 24, OutputTokens: 45, CacheReadTokens: 4100, CacheWriteTokens: 100, Cost: 0.0123, Currency: "USD"}},
		{&codex.Adapter{Binary: bin}, "codex.jsonl", "exec\n--json\n--skip-git-repo-check\n",
			"I listed the folder.\nThere is one Go file: main.go.", "I listed the folder.\nThere is one Go file: main.go.",
			"", // a fresh codex run is --ephemeral: its thread resumes nothing and is not reported
			backend.Usage{InputTokens: 24763, OutputTokens: 122, CacheReadTokens: 24448}},
		{&pi.Adapter{Binary: bin, Getenv: func(string) string { return "" }}, "pi.jsonl", "-p\n--mode\njson\n--no-session\n",
			"There is one Go file: main.go.", "There is one Go file: main.go.", "ccd569e0-4e1b-4c7d-a981-637ed4107310",
			backend.Usage{InputTokens: 120, OutputTokens: 15, CacheReadTokens: 30, Cost: 0.000594, Currency: "USD"}},
	}
	for _, tc := range tests {
		t.Run(tc.adapter.Name(), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tc.transcript, "")
			prompt := "list the go files\nand say how many\n"
			res, evs, err := adaptertest.Run(t, tc.adapter, backend.Request{Prompt: prompt, Workspace: t.TempDir(), Env: f.env()}, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := f.read(t, "stdin"); got != prompt {
				t.Errorf("stdin %q, want the prompt", got)
			}
			if got := f.read(t, "argv"); !strings.HasPrefix(got, tc.argvHas) {
				t.Errorf("argv\n%s\nwant it to start with\n%s", got, tc.argvHas)
			}
			if res.Text != tc.text || res.SessionID != tc.session || res.Usage != tc.usage || res.ExitCode != 0 || res.Stopped != "exited" {
				t.Errorf("result %+v", res)
			}
			if got := adaptertest.JoinDeltas(evs); got != tc.deltas {
				t.Errorf("streamed %q, want %q", got, tc.deltas)
			}
			if tc.session != "" && (evs[0].Kind != backend.EventSession || evs[0].SessionID != tc.session) {
				t.Errorf("first event %+v, want the session", evs[0])
			}
			if s := adaptertest.Stop(t, evs); s.StopReason == "" || s.StopReason == "error" || *s.Usage != tc.usage || *s.ExitCode != 0 {
				t.Errorf("stop %+v", s)
			}
		})
	}
}

func TestDeclarativeAdapterEndToEnd(t *testing.T) {
	t.Parallel()
	d, err := declarative.LoadFile("testdata/codex-like.toml")
	if err != nil {
		t.Fatal(err)
	}
	a, err := adapter.Resolve("testdata/codex-like.toml", script(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t, "codex.jsonl", "")
	res, evs, err := adaptertest.Run(t, a, backend.Request{Prompt: "hi", Model: "o4", Env: f.env()}, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "I listed the folder.\nThere is one Go file: main.go." || res.Usage.InputTokens != 24763 || d.Name() != a.Name() {
		t.Errorf("result %+v", res)
	}
	if got := f.read(t, "argv"); got != "exec\n--json\n--skip-git-repo-check\n--ephemeral\n--model\no4\n-\n" {
		t.Errorf("argv %q", got)
	}
	adaptertest.Stop(t, evs)
}

func TestAgentCrashKeepsExitCodeAndStderr(t *testing.T) {
	t.Parallel()
	f := newFake(t, "claude.jsonl", "crash")
	res, evs, err := adaptertest.Run(t, &claude.Adapter{Binary: script(t)}, backend.Request{Prompt: "x", Env: f.env()}, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 2 || !strings.Contains(res.Stderr, "529 overloaded_error") || res.Stopped != "exited" {
		t.Errorf("result %+v", res)
	}
	// What the agent printed before dying is parsed all the same.
	if res.SessionID == "" || res.Text != "Let me look at the files." {
		t.Errorf("partial output lost: %+v", res)
	}
	var sawError bool
	for _, e := range evs {
		if e.Kind == backend.EventError && *e.ExitCode == 2 && strings.Contains(e.Text, "exited with code 2: Error: 529") {
			sawError = true
		}
	}
	if s := adaptertest.Stop(t, evs); !sawError || s.StopReason != "error" {
		t.Errorf("no error event with exit code and stderr, or stop %+v: %+v", s, evs)
	}
}

func TestHungAgentIsKilledWithItsChildren(t *testing.T) {
	t.Parallel()
	f := newFake(t, "pi.jsonl", "hang")
	start := time.Now()
	res, evs, err := adaptertest.Run(t, &pi.Adapter{Binary: script(t)}, backend.Request{Prompt: "x", Env: f.env(), IdleTimeout: 300 * time.Millisecond},
		runner.Options{Grace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "idle" || res.Signal == "" || res.SessionID == "" {
		t.Errorf("result %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopping a hung agent took %v", d)
	}
	if s := adaptertest.Stop(t, evs); s.StopReason != "idle" {
		t.Errorf("stop %+v", s)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(f.read(t, "grandchild")))
	if err != nil {
		t.Fatal(err)
	}
	if syscall.Kill(pid, 0) == nil && !adaptertest.Zombie(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the agent's child %d outlived it", pid)
	}
}

func TestGarbageOutputGivesAnEmptyAnswerAndKeepsTheRecords(t *testing.T) {
	t.Parallel()
	for _, a := range []cli.Adapter{&claude.Adapter{Binary: script(t)}, &codex.Adapter{Binary: script(t)}, &pi.Adapter{Binary: script(t)}} {
		f := newFake(t, "claude.jsonl", "garbage")
		res, evs, err := adaptertest.Run(t, a, backend.Request{Prompt: "x", Env: f.env(), EventMode: backend.EventsFull}, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != "" || res.ExitCode != 0 || adaptertest.JoinDeltas(evs) != "" {
			t.Errorf("%s: result %+v", a.Name(), res)
		}
		var types []string
		for _, r := range res.Records {
			types = append(types, r.Type)
		}
		if got := strings.Join(types, " "); got != "raw_stdout raw_stdout raw_stdout unheard.of" {
			t.Errorf("%s: records %s", a.Name(), got)
		}
		adaptertest.Stop(t, evs)
	}
}

func TestHugeOutputIsCappedButTheAnswerSurvives(t *testing.T) {
	t.Parallel()
	f := newFake(t, "claude.jsonl", "huge")
	res, evs, err := adaptertest.Run(t, &claude.Adapter{Binary: script(t)}, backend.Request{Prompt: "x", Env: f.env()},
		runner.Options{StdoutLimit: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.StdoutCut < 3000000-64<<10 || !strings.Contains(res.Stdout, "bytes of stdout cut here]") {
		t.Errorf("cut %d, stdout %d bytes", res.StdoutCut, len(res.Stdout))
	}
	if res.Text != "There is one Go file: main.go." || res.Usage.OutputTokens != 45 {
		t.Errorf("the transcript after the flood was lost: %+v", res.Text)
	}
	adaptertest.Stop(t, evs)
}

func TestMissingBinary(t *testing.T) {
	t.Parallel()
	res, evs, err := adaptertest.Run(t, &codex.Adapter{Binary: "/nonexistent/codex"}, backend.Request{Prompt: "x"}, runner.Options{})
	if !errors.Is(err, supervisor.ErrNotFound) || res.ExitCode != 127 || !strings.Contains(res.Stderr, "/nonexistent/codex") {
		t.Fatalf("err %v result %+v", err, res)
	}
	if s := adaptertest.Stop(t, evs); s.StopReason != "error" {
		t.Errorf("stop %+v", s)
	}
}

func TestInvalidRequestRunsNothing(t *testing.T) {
	t.Parallel()
	f := newFake(t, "codex.jsonl", "")
	_, evs, err := adaptertest.Run(t, &codex.Adapter{Binary: script(t)}, backend.Request{ToolsAllowlist: []string{"shell"}, Env: f.env()}, runner.Options{})
	if !errors.Is(err, backend.ErrInvalidRequest) || len(evs) != 0 {
		t.Fatalf("err %v events %v", err, evs)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "argv")); err == nil {
		t.Error("the agent ran")
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	t.Parallel()
	f := newFake(t, "claude.jsonl", "hang")
	ctx, cancel := context.WithCancel(t.Context())
	var evs []backend.Event
	res, err := runner.New(runner.Options{Grace: time.Second}).Run(ctx, &claude.Adapter{Binary: script(t)},
		backend.Request{Prompt: "x", Env: f.env()}, func(e backend.Event) {
			evs = append(evs, e)
			if e.Kind == backend.EventSession {
				cancel() // as a client disconnecting mid-stream
			}
		})
	if err != nil || res.Stopped != "cancelled" {
		t.Fatalf("err %v result %+v", err, res)
	}
	if s := adaptertest.Stop(t, evs); s.StopReason != "cancelled" {
		t.Errorf("stop %+v", s)
	}
}
