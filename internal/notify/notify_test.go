package notify

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func noNotifySend(string) (string, error) { return "", errors.New("not found") }

func TestSequencesGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		opts  Options
		title string
		body  string
	}{
		{"iTerm2 picks OSC 9", Options{Getenv: env(map[string]string{"TERM_PROGRAM": "iTerm.app"})}, "albert-code", "the turn ended after 45s"},
		{"WezTerm picks OSC 9", Options{Getenv: env(map[string]string{"TERM_PROGRAM": "WezTerm"})}, "albert-code", "bash waits for your approval"},
		{"Windows Terminal picks OSC 9", Options{Getenv: env(map[string]string{"WT_SESSION": "b0b0"})}, "albert-code", "done"},
		{"kitty picks OSC 9", Options{Getenv: env(map[string]string{"TERM": "xterm-kitty"})}, "albert-code", "done"},
		{"other terminals get OSC 777", Options{Getenv: env(map[string]string{"TERM": "xterm-256color"})}, "albert-code", "the turn ended after 45s"},
		{"setting forces OSC 777", Options{Sequence: SequenceOSC777, Getenv: env(map[string]string{"TERM_PROGRAM": "iTerm.app"})}, "albert-code", "done"},
		{"setting forces OSC 9", Options{Sequence: SequenceOSC9, Getenv: env(map[string]string{"TERM": "foot"})}, "albert-code", "done"},
		{"tmux passes it through", Options{Getenv: env(map[string]string{"TMUX": "/tmp/tmux-1000/default,42,0", "TERM": "tmux-256color"})}, "albert-code", "done"},
		{"escapes and title semicolons are removed", Options{Method: MethodTerminal}, "albert;code", "evil\x1b]0;pwned\a\nsecond line\u009b"},
		{"long bodies are cut", Options{Method: MethodTerminal}, "albert-code", strings.Repeat("é", 250)},
	}
	var b strings.Builder
	for _, tc := range cases {
		if tc.opts.Getenv == nil {
			tc.opts.Getenv = env(nil)
		}
		tc.opts.LookPath = noNotifySend
		n, err := New(tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		fmt.Fprintf(&b, "# %s\n%s\n", tc.name, strconv.Quote(n.Sequence(tc.title, tc.body)))
	}
	golden(t, "sequences.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestAutoChoosesTheMethod(t *testing.T) {
	t.Parallel()
	found := func(string) (string, error) { return "/usr/bin/notify-send", nil }
	desktop := map[string]string{"DISPLAY": ":0", "TERM": "xterm-256color"}
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		look   func(string) (string, error)
		method string
		want   string
	}{
		{"desktop with notify-send", desktop, found, "", MethodNotifySend},
		{"Wayland with notify-send", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, found, MethodAuto, MethodNotifySend},
		{"no notify-send", desktop, noNotifySend, "", "terminal (osc777)"},
		{"over SSH", map[string]string{"DISPLAY": ":0", "SSH_CONNECTION": "10.0.0.1 5 10.0.0.2 22"}, found, "", "terminal (osc777)"},
		{"no desktop", map[string]string{"TERM": "xterm"}, found, "", "terminal (osc777)"},
		{"a terminal that notifies wins", map[string]string{"DISPLAY": ":0", "TERM_PROGRAM": "WezTerm"}, found, "", "terminal (osc9)"},
		{"foot wins", map[string]string{"DISPLAY": ":0", "TERM": "foot"}, found, "", "terminal (osc777)"},
		{"terminal forced", desktop, found, MethodTerminal, "terminal (osc777)"},
		{"notify-send forced", map[string]string{"TERM_PROGRAM": "iTerm.app"}, found, MethodNotifySend, MethodNotifySend},
	} {
		n, err := New(Options{Method: tc.method, Getenv: env(tc.vars), LookPath: tc.look})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := n.Method(); got != tc.want {
			t.Errorf("%s: method %q, want %q", tc.name, got, tc.want)
		}
		if tc.want == MethodNotifySend && n.Sequence("t", "b") != "" {
			t.Errorf("%s: notify-send also wrote a sequence", tc.name)
		}
	}
}

func TestNewRejectsBadSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Method: "growl"}, `notifications.method "growl": want auto, terminal, notify-send`},
		{Options{Sequence: "osc99"}, `notifications.sequence "osc99": want auto, osc9, osc777`},
		{Options{Method: MethodNotifySend, LookPath: noNotifySend}, "install libnotify-bin"},
	} {
		tc.opts.Getenv = env(nil)
		if _, err := New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) error = %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// TestSendRunsNotifySend puts a fake notify-send on PATH that records its
// arguments, one per line.
func TestSendRunsNotifySend(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	n, err := New(Options{Method: MethodNotifySend, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := n.Send(ctx, "albert-code", "-the turn\nended\x1b[31m"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	want := "--app-name=albert-code\n--\nalbert-code\n-the turn ended[31m\n"
	if string(got) != want {
		t.Errorf("notify-send arguments:\n%q\nwant\n%q", got, want)
	}
}

func TestSendReportsAFailingNotifySend(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'Cannot connect to the notification server' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	n, err := New(Options{Method: MethodNotifySend, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	err = n.Send(context.Background(), "albert-code", "done")
	if err == nil || !strings.Contains(err.Error(), "Cannot connect to the notification server") {
		t.Errorf("Send error = %v, want notify-send's message", err)
	}
}

func TestSendDoesNothingForTheTerminal(t *testing.T) {
	t.Parallel()
	n, err := New(Options{Method: MethodTerminal, Getenv: env(nil), LookPath: func(string) (string, error) {
		t.Error("the terminal method looked for notify-send")
		return "", errors.New("no")
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Send(context.Background(), "a", "b"); err != nil {
		t.Errorf("Send = %v, want nil", err)
	}
}
