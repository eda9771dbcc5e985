package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
)

// script writes a hook script and returns the command that runs it.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func runner(t *testing.T, dir string, hs ...config.Hook) *Runner {
	t.Helper()
	for i := range hs {
		if hs[i].Timeout == 0 {
			hs[i].Timeout = 10 * time.Second
		}
		hs[i].Source = "test.toml:1"
	}
	r, err := New(hs, dir)
	if err != nil {
		t.Fatal(err)
	}
	r.SessionID = func() string { return "sess-1" }
	return r
}

var bashCall = Call{ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"rm -rf build"}`)}

func TestBeforeToolDecisions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name     string
		body     string
		wantDeny string
		wantArgs string
	}{
		{"silent allows", `cat >/dev/null`, "", ""},
		{"explicit allow", `cat >/dev/null; echo '{"decision":"allow"}'`, "", ""},
		{"deny with reason", `cat >/dev/null; echo '{"decision":"deny","reason":"no rm in this repo"}'`, "no rm in this repo", ""},
		{"exit 2 denies with stderr", `cat >/dev/null; echo "use make clean" >&2; exit 2`, "use make clean", ""},
		{"rewrite", `cat >/dev/null; echo '{"arguments":{"command":"rm -rf build --dry-run"}}'`, "", `{"command":"rm -rf build --dry-run"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := script(t, t.TempDir(), "hook.sh", tt.body)
			v := runner(t, dir, config.Hook{Event: config.HookBeforeTool, Command: cmd}).BeforeTool(context.Background(), bashCall)
			if len(v.Warnings) > 0 {
				t.Fatalf("warnings: %v", v.Warnings)
			}
			if v.Deny != (tt.wantDeny != "") || v.Reason != tt.wantDeny {
				t.Errorf("deny = %v %q, want %q", v.Deny, v.Reason, tt.wantDeny)
			}
			if string(v.Arguments) != tt.wantArgs {
				t.Errorf("arguments = %s, want %s", v.Arguments, tt.wantArgs)
			}
		})
	}
}

func TestHookReadsTheEventOnStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.json")
	cmd := script(t, dir, "hook.sh", `cat > `+seen+`; echo "$ALBERT_CODE_HOOK_EVENT" > `+seen+`.event`)
	r := runner(t, dir, config.Hook{Event: config.HookAfterTool, Command: cmd})
	if v := r.AfterTool(context.Background(), bashCall, Result{Output: "removed", IsError: false}); v.Deny || len(v.Warnings) > 0 {
		t.Fatalf("verdict = %+v", v)
	}
	data, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"after_tool","cwd":"` + dir + `","session_id":"sess-1","tool":{"id":"c1","name":"bash","arguments":{"command":"rm -rf build"}},"result":{"output":"removed","is_error":false}}`
	if strings.TrimSpace(string(data)) != want {
		t.Errorf("stdin =\n%s\nwant\n%s", data, want)
	}
	if ev, _ := os.ReadFile(seen + ".event"); strings.TrimSpace(string(ev)) != "after_tool" {
		t.Errorf("ALBERT_CODE_HOOK_EVENT = %q", ev)
	}
}

func TestHooksChainMatchAndStopAtTheFirstDenial(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	rewrite := script(t, dir, "rewrite.sh", `cat >/dev/null; echo rewrite >> `+log+`; echo '{"arguments":{"command":"ls"}}'`)
	// The second hook sees the first one's arguments.
	check := script(t, dir, "check.sh", `grep -q '"command":"ls"' && echo check-saw-ls >> `+log+`; echo '{"decision":"deny","reason":"stop"}'`)
	never := script(t, dir, "never.sh", `echo never >> `+log)
	other := script(t, dir, "other.sh", `echo other-tool >> `+log)
	r := runner(t, dir,
		config.Hook{Event: config.HookBeforeTool, Command: other, Tools: []string{"write_*"}},
		config.Hook{Event: config.HookBeforeTool, Command: rewrite, Tools: []string{"bash"}},
		config.Hook{Event: config.HookBeforeTool, Command: check},
		config.Hook{Event: config.HookBeforeTool, Command: never},
	)
	v := r.BeforeTool(context.Background(), bashCall)
	if !v.Deny || v.Reason != "stop" {
		t.Errorf("verdict = %+v", v)
	}
	data, _ := os.ReadFile(log)
	if got := strings.Fields(string(data)); strings.Join(got, " ") != "rewrite check-saw-ls" {
		t.Errorf("hooks ran: %v, want rewrite then check", got)
	}
}

func TestFailingHooksAreReportedNotFatal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, body string
		timeout    time.Duration
		want       string
	}{
		{"exit status", `echo "lint: config missing" >&2; exit 1`, 0, "exit status 1: lint: config missing"},
		{"timeout", `sleep 30`, 200 * time.Millisecond, "timed out after 200ms and was killed"},
		{"garbage", `echo "all good!"`, 0, "its output is not a decision"},
		{"bad decision", `echo '{"decision":"maybe"}'`, 0, `decision "maybe" is not allow or deny`},
		{"bad arguments", `echo '{"arguments":[1]}'`, 0, "arguments must be a JSON object"},
		{"unknown field", `echo '{"decison":"deny"}'`, 0, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := script(t, t.TempDir(), "hook.sh", tt.body)
			start := time.Now()
			v := runner(t, dir, config.Hook{Event: config.HookBeforeTool, Command: cmd, Timeout: tt.timeout}).BeforeTool(context.Background(), bashCall)
			if time.Since(start) > 5*time.Second {
				t.Errorf("the hook took %v", time.Since(start))
			}
			if v.Deny || v.Arguments != nil {
				t.Errorf("a failing hook decided: %+v", v)
			}
			if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], tt.want) || !strings.Contains(v.Warnings[0], "test.toml:1") {
				t.Errorf("warnings = %q, want one saying %q and naming the source", v.Warnings, tt.want)
			}
		})
	}
}

func TestFailClosedHookDenies(t *testing.T) {
	t.Parallel()
	cmd := script(t, t.TempDir(), "hook.sh", `exit 7`)
	v := runner(t, t.TempDir(), config.Hook{Event: config.HookBeforeTool, Command: cmd, FailClosed: true}).BeforeTool(context.Background(), bashCall)
	if !v.Deny || !strings.Contains(v.Reason, "must succeed failed") || len(v.Warnings) != 1 {
		t.Errorf("verdict = %+v", v)
	}
}

func TestAfterToolDenialAndAfterTurn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lint := script(t, dir, "lint.sh", `cat >/dev/null; echo '{"decision":"deny","reason":"gofmt: main.go is not formatted"}'`)
	notify := script(t, dir, "notify.sh", `cat > `+filepath.Join(dir, "turn.json"))
	broken := script(t, dir, "broken.sh", `exit 5`)
	r := runner(t, dir,
		config.Hook{Event: config.HookAfterTool, Command: lint, Tools: []string{"write_file"}},
		config.Hook{Event: config.HookAfterTurn, Command: notify},
		config.Hook{Event: config.HookAfterTurn, Command: broken},
	)
	if v := r.AfterTool(context.Background(), bashCall, Result{Output: "ok"}); v.Deny {
		t.Errorf("the lint hook ran for bash: %+v", v)
	}
	v := r.AfterTool(context.Background(), Call{ID: "c2", Name: "write_file", Arguments: json.RawMessage(`{}`)}, Result{Output: "wrote"})
	if !v.Deny || v.Reason != "gofmt: main.go is not formatted" {
		t.Errorf("after_tool = %+v", v)
	}
	// A cancelled turn still runs its after_turn hooks.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	warnings := r.AfterTurn(ctx, Turn{StopReason: "cancelled", Text: "partial"})
	if len(warnings) != 1 || !strings.Contains(warnings[0], "exit status 5") {
		t.Errorf("warnings = %q", warnings)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "turn.json"))
	if !strings.Contains(string(data), `"turn":{"stop_reason":"cancelled","text":"partial"}`) {
		t.Errorf("after_turn stdin = %s", data)
	}
}

func TestNoHooksIsNil(t *testing.T) {
	t.Parallel()
	r, err := New(nil, t.TempDir())
	if r != nil || err != nil {
		t.Fatalf("New(nil) = %v, %v", r, err)
	}
	if v := r.BeforeTool(context.Background(), bashCall); v.Deny || v.Arguments != nil {
		t.Errorf("nil runner decided %+v", v)
	}
}
