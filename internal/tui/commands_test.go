package tui

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestSlashCommandsInTheUI(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 40, func(o *Options) {
		o.ConfigText = func() (string, error) { return "model = \"mistral-medium\"", nil }
	}, fakemodel.Turn{Text: []string{"an answer to copy"}})
	l.ready()

	l.typeLine("/help")
	for _, want := range []string{"/compact [instructions]", "/resume", "shift+tab", "ctrl+c", "!command"} {
		if !l.shows(want) {
			t.Errorf("/help lacks %q:\n%s", want, l.screen())
		}
	}
	l.typeLine("/compcat")
	if !l.shows("unknown command /compcat: did you mean /compact?") {
		t.Errorf("unknown command:\n%s", l.screen())
	}
	l.typeLine("/status")
	if id := l.m.conv.ID(); id == "" || !l.shows(id) {
		t.Errorf("/status does not show the session %q:\n%s", id, l.screen())
	}
	l.typeLine("/config show")
	if !l.shows(`model = "mistral-medium"`) {
		t.Errorf("/config:\n%s", l.screen())
	}
	l.typeLine("/copy")
	if !l.shows("no answer to copy yet") {
		t.Errorf("/copy with no answer:\n%s", l.screen())
	}
	l.typeLine("say something")
	l.idle()
	l.typeLine("/copy")
	if !l.shows("Copied the last answer.") {
		t.Errorf("/copy:\n%s", l.screen())
	}
	l.typeLine("/cost")
	if !l.shows("tokens in") {
		t.Errorf("/cost:\n%s", l.screen())
	}
	l.typeLine("/rpm")
	if !l.shows("rolling 60 s window") {
		t.Errorf("/rpm:\n%s", l.screen())
	}
	// /quota asks the server off the UI loop; its answer comes as a message.
	l.typeLine("/quota")
	if !l.shows("Asking the server for today's usage") {
		t.Errorf("/quota did not say it asks:\n%s", l.screen())
	}
	l.until("the quota report", func() bool { return l.shows("Provider albert") && l.shows("REQUESTS TODAY") })
}

func TestSwitchModelAndProfile(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil)
	l.ready()
	l.typeLine("/model qwen")
	l.until("the model switch", func() bool { return l.m.model == "qwen" })
	if !l.shows("default · qwen") {
		t.Errorf("footer after /model:\n%s", l.screen())
	}
	l.press("shift+tab")
	l.until("the profile switch", func() bool { return l.m.profile == "plan" })
	l.typeLine("/agent accept-edits")
	l.until("/agent", func() bool { return l.m.profile == "accept-edits" })
	l.typeLine("/model no-such-model")
	l.waitScreen("no-such-model")
	if l.m.model != "qwen" {
		t.Errorf("a failed switch changed the model to %q", l.m.model)
	}

	l.typeLine("/model")
	l.waitScreen("Choose the model")
	l.press("deepseek", "enter")
	l.waitScreen("Use it for this session")
	l.press("enter")
	l.until("the picked model", func() bool { return l.m.model == "deepseek-flash" })
}

func TestClearStartsANewSession(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil, fakemodel.Turn{Text: []string{"first answer"}})
	l.ready()
	l.typeLine("hello")
	l.idle()
	before := l.m.conv.ID()
	l.typeLine("/clear")
	if l.shows("first answer") || l.m.conv.ID() == before {
		t.Errorf("after /clear (id %s → %s):\n%s", before, l.m.conv.ID(), l.screen())
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil,
		fakemodel.Turn{Text: []string{"one"}}, fakemodel.Turn{Text: []string{"two"}}, fakemodel.Turn{Text: []string{"three"}},
		fakemodel.Turn{Text: []string{"Summary of the talk."}})
	l.ready()
	for _, p := range []string{"a", "b", "c"} {
		l.typeLine(p)
		l.idle()
	}
	l.typeLine("/compact keep the numbers")
	l.idle()
	reqs := l.srv.ModelRequests()
	if len(reqs) != 4 || !strings.Contains(reqs[3].Body, "keep the numbers") {
		t.Fatalf("%d requests; the compaction request must carry the instructions", len(reqs))
	}
	if !l.shows("compact") {
		t.Errorf("no compaction notice:\n%s", l.screen())
	}
}

func TestResumePicker(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 100, 30, nil, fakemodel.Turn{Text: []string{"old answer"}})
	l.ready()
	l.typeLine("the old question")
	l.idle()
	l.typeLine("/clear")
	l.typeLine("/resume")
	l.waitScreen("Resume a session")
	if !l.shows("the old question") {
		t.Fatalf("picker:\n%s", l.screen())
	}
	l.press("enter")
	l.waitScreen("old answer")

	// --resume without an ID opens the picker once the session is open.
	l2 := newLoop(t, 100, 30, func(o *Options) { o.PickSession, o.Open = true, l.open })
	l2.ready()
	if !l2.shows("Resume a session") || !l2.shows("the old question") {
		t.Errorf("--resume picker:\n%s", l2.screen())
	}
}

func TestExitQuits(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 80, 24, nil)
	l.ready()
	l.typeLine("/exit")
	l.until("quit", func() bool { return l.quit })
}
