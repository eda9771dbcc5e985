package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/notify"
)

// osc777 is a notifier that writes OSC 777, whatever the test's environment.
func osc777(t *testing.T, after time.Duration) func(*Options) {
	n, err := notify.New(notify.Options{Method: notify.MethodTerminal, Sequence: notify.SequenceOSC777,
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return func(o *Options) { o.Notify = &Notify{Notifier: n, After: after} }
}

// untilRecording pumps the loop until cond holds, keeping the sequences written to
// the terminal (tea.RawMsg) aside.
func (l *loop) untilRecording(what string, cond func(raw []string) bool) []string {
	l.t.Helper()
	var raw []string
	deadline := time.After(15 * time.Second)
	for !cond(raw) {
		select {
		case msg := <-l.msgs:
			if r, ok := msg.(tea.RawMsg); ok {
				raw = append(raw, fmt.Sprint(r.Msg))
				continue
			}
			l.handle(msg)
		case <-deadline:
			l.t.Fatalf("timed out waiting for %s; screen:\n%s", what, l.screen())
		}
	}
	return raw
}

// settle pumps until nothing but spinner ticks has come for a while: a
// notification command runs after what caused it, so its absence is only known
// once the loop is quiet. It gives up after a few seconds, as a test must.
func (l *loop) settle() []string {
	l.t.Helper()
	var raw []string
	giveUp := time.After(5 * time.Second)
	quiet := time.NewTimer(300 * time.Millisecond)
	defer quiet.Stop()
	for {
		select {
		case msg := <-l.msgs:
			if r, ok := msg.(tea.RawMsg); ok {
				raw = append(raw, fmt.Sprint(r.Msg))
			} else {
				l.handle(msg)
			}
			if _, tick := msg.(tickMsg); !tick {
				quiet.Reset(300 * time.Millisecond)
			}
		case <-quiet.C:
			return raw
		case <-giveUp:
			return raw
		}
	}
}

func TestLongTurnNotifiesOnlyWhileUnfocused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		focus []tea.Msg
		after time.Duration
		want  bool
	}{
		{"unfocused", []tea.Msg{tea.BlurMsg{}}, 0, true},
		{"focused again", []tea.Msg{tea.BlurMsg{}, tea.FocusMsg{}}, 0, false},
		{"the terminal never reported focus", nil, 0, false},
		{"shorter than the threshold", []tea.Msg{tea.BlurMsg{}}, time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := newLoop(t, 80, 24, osc777(t, tc.after), fakemodel.Turn{Text: []string{"done"}})
			l.ready()
			for _, msg := range tc.focus {
				l.handle(msg)
			}
			l.typeLine("work")
			l.idle()
			raw := l.settle()
			if !tc.want {
				if len(raw) != 0 {
					t.Fatalf("notified: %q", raw)
				}
				return
			}
			if len(raw) != 1 || !strings.HasPrefix(raw[0], "\x1b]777;notify;albert-code · work;the turn ended after ") || !strings.HasSuffix(raw[0], "s\a") {
				t.Fatalf("sequences written: %q, want one OSC 777 saying the turn ended", raw)
			}
		})
	}
}

func TestTurnErrorIsNotifiedAsSuch(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, osc777(t, 0), fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 400, Body: `{"error": {"message": "bad request"}}`}})
	l.ready()
	l.handle(tea.BlurMsg{})
	l.typeLine("work")
	l.idle()
	raw := l.settle()
	if len(raw) != 1 || !strings.Contains(raw[0], "the turn stopped with an error after ") {
		t.Fatalf("sequences written: %q", raw)
	}
}

func writeCall(path string) fakemodel.Turn {
	a, _ := json.Marshal(map[string]string{"path": path, "content": "x\n"})
	return fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "w", Name: "write", Arguments: string(a)}}}
}

func TestApprovalNotifiesWhileUnfocused(t *testing.T) {
	t.Parallel()
	for _, blurred := range []bool{true, false} {
		l := newLoop(t, 80, 30, osc777(t, time.Hour), writeCall("a.txt"), fakemodel.Turn{Text: []string{"not written"}})
		l.ready()
		if blurred {
			l.handle(tea.BlurMsg{})
		}
		l.typeLine("write a file")
		raw := l.untilRecording("the approval dialog", func([]string) bool { return l.shows("Allow this tool call?") })
		raw = append(raw, l.settle()...) // the notification follows the dialog
		l.press("3", "enter")
		l.idle()
		raw = append(raw, l.settle()...)
		want := []string{"\x1b]777;notify;albert-code · work;write waits for your approval\a"}
		if !blurred {
			want = nil
		}
		if fmt.Sprintf("%q", raw) != fmt.Sprintf("%q", want) {
			t.Errorf("blurred=%v: sequences written %q, want %q", blurred, raw, want)
		}
	}
}

func TestNotificationsAreOffByDefault(t *testing.T) {
	t.Parallel()
	n, err := NotifyFromConfig(config.Notifications{Method: "auto", Sequence: "auto", After: 30 * time.Second})
	if n != nil || err != nil {
		t.Fatalf("NotifyFromConfig(disabled) = %+v, %v; want nil", n, err)
	}
	l := newLoop(t, 80, 24, nil, fakemodel.Turn{Text: []string{"done"}})
	l.ready()
	if l.m.View().ReportFocus {
		t.Error("focus reporting is on without notifications")
	}
	l.handle(tea.BlurMsg{})
	l.typeLine("work")
	l.idle()
	if raw := l.settle(); len(raw) != 0 {
		t.Errorf("notified with notifications off: %q", raw)
	}
	on := newLoop(t, 80, 24, osc777(t, 0))
	on.ready()
	if !on.m.View().ReportFocus {
		t.Error("focus reporting is off with notifications on")
	}
}

// With method notify-send, a fake notify-send on PATH records its arguments.
func TestNotifySendForAnApproval(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + record + ".tmp' && mv '" + record + ".tmp' '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	n, err := NotifyFromConfig(config.Notifications{Enabled: true, Method: notify.MethodNotifySend, After: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	l := newLoop(t, 80, 30, func(o *Options) { o.Notify = n }, writeCall("a.txt"), fakemodel.Turn{Text: []string{"ok"}})
	l.ready()
	l.handle(tea.BlurMsg{})
	l.typeLine("write a file")
	raw := l.untilRecording("notify-send to run", func([]string) bool { _, err := os.Stat(record); return err == nil })
	if len(raw) != 0 {
		t.Errorf("notify-send also wrote sequences: %q", raw)
	}
	got, _ := os.ReadFile(record)
	if want := "--app-name=albert-code\n--\nalbert-code · work\nwrite waits for your approval\n"; string(got) != want {
		t.Errorf("notify-send arguments %q, want %q", got, want)
	}
	l.press("3", "enter")
	l.idle()
}

func TestUpdateNoticeIsShownOnce(t *testing.T) {
	t.Parallel()
	note := "albert-code v0.3.0 is available (you have v0.2.0): go install"
	l := newLoop(t, 200, 30, func(o *Options) {
		o.UpdateNotice = func(context.Context) string { return note }
	})
	l.ready()
	l.waitScreen(note)
	l.typeLine("/clear")
	l.ready()
	l.settle()
	if l.shows(note) {
		t.Errorf("the update notice came back after /clear:\n%s", l.screen())
	}
}

// A feed that never answers does not hold the start: the session opens while the
// check is still out, and the check gives up at its deadline.
func TestSlowUpdateCheckDoesNotDelayStart(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(release); <-done })
	start := time.Now()
	l := newLoop(t, 120, 30, func(o *Options) {
		o.UpdateNotice = func(ctx context.Context) string {
			defer close(done)
			select {
			case <-release:
				return "albert-code v9.0.0 is available"
			case <-ctx.Done():
				return ""
			}
		}
	}, fakemodel.Turn{Text: []string{"answered"}})
	l.ready()
	l.typeLine("hi")
	l.idle()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the session opened and answered after %s", d)
	}
	select {
	case <-done:
		t.Fatal("the check finished before the session opened: the test proves nothing")
	default:
	}
	if !l.shows("answered") {
		t.Errorf("screen:\n%s", l.screen())
	}
}

// A Notify without a notifier (a front end that built it by hand) sends nothing
// rather than failing.
func TestNotifyWithoutNotifierSendsNothing(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, func(o *Options) { o.Notify = &Notify{} }, fakemodel.Turn{Text: []string{"done"}})
	l.ready()
	l.handle(tea.BlurMsg{})
	l.typeLine("work")
	l.idle()
	if raw := l.settle(); len(raw) != 0 {
		t.Errorf("sequences written: %q", raw)
	}
}
