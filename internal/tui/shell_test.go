package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/tool/builtin"
)

func TestShellCommandShowsOutputAndGoesToTheNextPrompt(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"noted"}})
	l.ready()
	l.press("!printf 'alpha\\nbeta\\n'")
	if !l.shows("$ !printf") {
		t.Errorf("the input does not mark a shell line:\n%s", l.screen())
	}
	l.press("enter")
	l.idle()
	for _, want := range []string{"❯ !printf", "✓ bash  printf", "alpha", "beta"} {
		if !l.shows(want) {
			t.Errorf("the screen lacks %q:\n%s", want, l.screen())
		}
	}
	l.typeLine("  !pwd") // leading spaces do not hide the "!"
	l.idle()
	if !l.shows(l.work) {
		t.Errorf("the command did not run in the working folder %s:\n%s", l.work, l.screen())
	}
	if n := len(l.srv.ModelRequests()); n != 0 {
		t.Fatalf("a shell command reached the model: %d requests", n)
	}

	l.typeLine("what did you see?")
	l.idle()
	if !l.shows("❯ what did you see?") || l.shows("The user ran") {
		t.Errorf("the chat must show the prompt as typed:\n%s", l.screen())
	}
	body := l.srv.ModelRequests()[0].Body
	for _, want := range []string{
		"The user ran `printf 'alpha\\\\nbeta\\\\n'` in the shell (exit 0):\\n```\\nalpha\\nbeta\\n```",
		"The user ran `pwd` in the shell (exit 0)",
		"what did you see?",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q:\n%s", want, body)
		}
	}
	if strings.Index(body, "The user ran `pwd`") > strings.Index(body, "what did you see?") {
		t.Errorf("the shell context must come before the prompt:\n%s", body)
	}
}

func TestShellContextIsForgottenAfterOnePrompt(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"one"}}, fakemodel.Turn{Text: []string{"two"}})
	l.ready()
	l.typeLine("!echo once")
	l.idle()
	l.typeLine("first")
	l.idle()
	l.typeLine("second")
	l.idle()
	reqs := l.srv.ModelRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if n := strings.Count(reqs[1].Body, "The user ran"); n != 1 {
		t.Errorf("the second request repeats the shell context (%d times):\n%s", n, reqs[1].Body)
	}
}

func TestShellCommandNonZeroExit(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"ok"}})
	l.ready()
	l.typeLine("!echo broken >&2; exit 3")
	l.idle()
	for _, want := range []string{"✗ bash", "broken", "exit code 3"} {
		if !l.shows(want) {
			t.Errorf("the screen lacks %q:\n%s", want, l.screen())
		}
	}
	l.typeLine("why?")
	l.idle()
	body := l.srv.ModelRequests()[0].Body
	if !strings.Contains(body, "in the shell (exit 3):\\n```\\nbroken\\n```") {
		t.Errorf("the request lacks the exit status and output:\n%s", body)
	}
}

func TestEscKillsAShellCommand(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"ok"}})
	l.ready()
	l.typeLine("!echo started; sleep 30")
	l.waitScreen("started")
	if !l.shows("running the command") {
		t.Errorf("the status line does not say a command runs:\n%s", l.screen())
	}
	start := time.Now()
	l.press("esc")
	l.idle()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("esc took %v to stop the command", d)
	}
	if !l.shows("interrupted") || !l.shows("command was cancelled") {
		t.Errorf("the interrupt is not shown:\n%s", l.screen())
	}
	l.typeLine("go on")
	l.idle()
	if body := l.srv.ModelRequests()[0].Body; !strings.Contains(body, "in the shell (interrupted by the user)") {
		t.Errorf("the request does not say the command was interrupted:\n%s", body)
	}
}

func TestShellCommandWhileBusy(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"ok"}})
	l.ready()
	l.typeLine("!echo first; sleep 30")
	l.waitScreen("first")
	l.typeLine("!echo second")
	if !l.shows("still working") || l.m.input.Value() != "!echo second" {
		t.Errorf("a second command while one runs must wait in the input:\n%s", l.screen())
	}
	l.m.input.Reset()
	l.typeLine("a prompt")
	if !l.shows("still working") || l.m.input.Value() != "a prompt" {
		t.Errorf("a prompt while a command runs must wait in the input:\n%s", l.screen())
	}
	l.press("esc")
	l.idle()
	if l.shows("second") {
		t.Errorf("the second command ran:\n%s", l.screen())
	}
}

func TestLoneBangIsAPrompt(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"a bang"}})
	l.ready()
	l.typeLine("!")
	l.idle()
	if !l.shows("a bang") || len(l.srv.ModelRequests()) != 1 {
		t.Errorf("a lone ! must go to the model:\n%s", l.screen())
	}
}

func TestShellLinesGoIntoTheHistory(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil)
	l.ready()
	l.typeLine("!echo remembered")
	l.idle()
	l.press("up")
	if v := l.m.input.Value(); v != "!echo remembered" {
		t.Errorf("up gave %q", v)
	}
}

func TestShellOutputIsCappedForTheModel(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"ok"}})
	l.ready()
	l.typeLine("!head -c 200000 /dev/zero | tr '\\0' a; echo; echo the-end")
	l.idle()
	l.typeLine("summarise")
	l.idle()
	body := l.srv.ModelRequests()[0].Body
	if !strings.Contains(body, "bytes truncated") || !strings.Contains(body, "the-end") {
		t.Errorf("the output must be capped, keeping its end")
	}
	if len(body) > 60000 {
		t.Errorf("the request is %d bytes: the 200 KB output was not capped", len(body))
	}
}

func TestQuitKillsARunningShellCommand(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil)
	l.ready()
	l.typeLine("!echo started; sleep 30")
	l.waitScreen("started")
	l.press("ctrl+c", "ctrl+c")
	l.until("the program to quit", func() bool { return l.quit })
	l.idle() // bounded well under the 30 s sleep
}

func TestClearForgetsShellContext(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"fresh"}})
	l.ready()
	l.typeLine("!echo old")
	l.idle()
	l.typeLine("/clear")
	l.typeLine("start over")
	l.idle()
	if body := l.srv.ModelRequests()[0].Body; strings.Contains(body, "The user ran") {
		t.Errorf("the shell context outlived /clear:\n%s", body)
	}
}

func TestShellNoteStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command string
		res           builtin.ShellResult
		want          string
	}{
		{"success", "ls", builtin.ShellResult{Output: "a\n"}, "The user ran `ls` in the shell (exit 0):\n```\na\n```"},
		{"exit code", "false", builtin.ShellResult{Output: "(no output)", Status: "exit code 1"}, "The user ran `false` in the shell (exit 1):\n```\n(no output)\n```"},
		{"signal", "kill -9 $$", builtin.ShellResult{Output: "(no output)", Status: "killed by signal killed"}, "(killed by signal killed):\n```\n(no output)\n```"},
		{"timed out", "sleep 999", builtin.ShellResult{Output: "zzz", Status: "timed out after 600s", Stopped: true}, "(timed out, killed):\n```\nzzz\n```"},
		{"backticks", "echo '`x`'", builtin.ShellResult{Output: "```\n"}, "The user ran `` echo '`x`' `` in the shell (exit 0):\n````\n```\n````"},
		{"other failure", "x", builtin.ShellResult{Output: "start /bin/bash: no such file", Status: "failed"}, "(failed):\n```\nstart /bin/bash: no such file\n```"},
	}
	for _, tt := range tests {
		if got := shellNote(tt.command, tt.res); !strings.Contains(got, tt.want) {
			t.Errorf("%s: got\n%s\nwant it to contain\n%s", tt.name, got, tt.want)
		}
	}
}
