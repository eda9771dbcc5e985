package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func (l *loop) backspace(n int) {
	for range n {
		l.handle(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
}

func (l *loop) globalFile() string {
	return filepath.Join(l.vars["XDG_CONFIG_HOME"], "albert-code", "config.toml")
}

func (l *loop) fileText(path string) string {
	l.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		l.t.Fatal(err)
	}
	return string(data)
}

func (l *loop) threshold() float64 {
	c := l.m.sessionConfig()
	if c == nil {
		return -1
	}
	return c.Compaction.Threshold
}

// /config lists the settings with their sources; a typed value saved in the
// project file lands there, and the session reopens with it.
func TestConfigEditorSavesATypedValueInTheProject(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 40, nil)
	l.ready()
	l.typeLine("/config")
	l.waitScreen("Settings")
	for _, want := range []string{"compaction.threshold", "0.8  · default", "mistral-medium", "sandbox.mode"} {
		if !l.shows(want) {
			t.Errorf("the editor lacks %q:\n%s", want, l.screen())
		}
	}
	l.press("threshold", "enter")
	l.waitScreen("accepts a fraction above 0 and at most 1")
	l.backspace(3)
	l.press("0.5", "enter")
	l.waitScreen("Save compaction.threshold = 0.5 where?")
	l.press("2")
	project := filepath.Join(l.work, ".albert-code.toml")
	if got := l.fileText(project); got != "[compaction]\nthreshold = 0.5\n" {
		t.Fatalf("%s:\n%s\nscreen:\n%s", project, got, l.screen())
	}
	l.waitScreen("Saved compaction.threshold = 0.5")
	l.until("the session reopened with the new threshold", func() bool { return !l.m.opening && l.threshold() == 0.5 })
	if l.fileText(l.globalFile()) != "" {
		t.Errorf("the global file was written too")
	}
}

// A model picked in the editor and saved globally goes into the user's file,
// whose comments stay, and the session switches to it at once.
func TestConfigEditorSavesTheModelGlobally(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 220, 40, nil) // wide enough for the temporary folder's path
	mine := "# my defaults\nagent = \"default\" # keep\n\n[bash]\ntimeout = \"90s\"\n"
	if err := os.MkdirAll(filepath.Dir(l.globalFile()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.globalFile(), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	l.ready()
	l.typeLine("/config")
	l.waitScreen("Settings")
	if !l.shows(l.globalFile() + ":2") {
		t.Errorf("agent's source is not its line:\n%s", l.screen())
	}
	l.press("enter") // model is the first setting
	l.waitScreen("accepts a model name")
	l.press("qwen", "enter")
	l.waitScreen("Save model = qwen where?")
	if !l.shows("This session only") {
		t.Errorf("no session-only place for the model:\n%s", l.screen())
	}
	l.press("1")
	want := "# my defaults\nagent = \"default\" # keep\nmodel = \"qwen\"\n\n[bash]\ntimeout = \"90s\"\n"
	if got := l.fileText(l.globalFile()); got != want {
		t.Fatalf("global file:\n%s\nwant:\n%s", got, want)
	}
	l.until("the switch to qwen", func() bool { return l.m.model == "qwen" })
	if !l.shows("This session uses qwen now.") {
		t.Errorf("confirmation:\n%s", l.screen())
	}
}

// A global-only setting is not offered for the project, and says why.
func TestConfigEditorKeepsTheSandboxGlobal(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 40, nil)
	l.ready()
	l.typeLine("/config")
	l.waitScreen("Settings")
	l.press("sandbox.mode", "enter")
	l.waitScreen("accepts one of on, off")
	l.press("2") // off
	l.waitScreen("Save sandbox.mode = off where?")
	if !l.shows("read from your global config only") || l.shows("This project") {
		t.Fatalf("places for a global-only key:\n%s", l.screen())
	}
	l.press("1")
	if got := l.fileText(l.globalFile()); got != "[sandbox]\nmode = \"off\"\n" {
		t.Fatalf("global file:\n%s", got)
	}
	l.waitScreen("It applies when albert-code starts again.")
}

// The /model picker asks whether the choice is for this session or the default.
func TestModelPickerCanSaveTheDefault(t *testing.T) {
	t.Parallel()
	l := newLoop(t, 120, 40, nil)
	l.ready()
	l.typeLine("/model")
	l.waitScreen("Choose the model")
	l.press("qwen", "enter")
	l.waitScreen("Use it and save it as the default")
	l.press("2")
	l.until("the switch to qwen", func() bool { return l.m.model == "qwen" })
	if got := l.fileText(l.globalFile()); got != "model = \"qwen\"\n" {
		t.Fatalf("global file:\n%s", got)
	}
	if !l.shows("saved as the default in") {
		t.Errorf("confirmation:\n%s", l.screen())
	}
	// Typed without --save, the switch is for the session and the file stays.
	l.typeLine("/model deepseek-flash")
	l.until("the switch to deepseek-flash", func() bool { return l.m.model == "deepseek-flash" })
	if !l.shows("for this session (/model deepseek-flash --save makes it the default)") || !strings.Contains(l.fileText(l.globalFile()), "qwen") {
		t.Errorf("session-only switch:\n%s", l.screen())
	}
}
