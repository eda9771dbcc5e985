package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestTUIFirstRun starts in a fresh home without a key: the trusted-folder
// question, then the setup screen; both answers are stored for next time.
func TestTUIFirstRun(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"Set up and running."}})
	h.env = withoutVar(h.env, "ALBERT_API_KEY")
	tm := h.startTUI(nil)
	tm.waitFor("Do you trust this folder?")
	tm.send("1")
	tm.waitFor("Welcome to albert-code: setup")
	tm.send("\r") // albert
	tm.waitFor("Choose a model of albert")
	tm.send("\r") // mistral-medium
	tm.waitFor("Paste your albert API key")
	tm.send("sk-first-run", "\r")
	tm.waitFor("/help for commands")
	tm.typeLine("hello")
	tm.waitFor("Set up and running.")

	env, err := os.ReadFile(filepath.Join(h.home, ".env"))
	if err != nil || !strings.Contains(string(env), "ALBERT_API_KEY='sk-first-run'") {
		t.Errorf(".env = %q, %v", env, err)
	}
	trusted, err := os.ReadFile(filepath.Join(h.home, "trusted_folders.toml"))
	if err != nil || !strings.Contains(string(trusted), h.work) {
		t.Errorf("trusted_folders.toml = %q, %v", trusted, err)
	}
	if auth := h.srv.ModelRequests()[0].Header.Get("Authorization"); auth != "Bearer sk-first-run" {
		t.Errorf("the model server got Authorization %q", auth)
	}
	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d", code)
	}

	// Next time: no question, no setup.
	tm = h.startTUI(nil)
	tm.waitFor("/help for commands")
	if s := tm.screen(); strings.Contains(s, "trust this folder") || strings.Contains(s, "setup") {
		t.Errorf("second start asked again:\n%s", s)
	}
}

// TestTUIBadTerminals covers NO_COLOR, a model answer full of escape sequences,
// a screen too small, and resizing while an answer streams.
func TestTUIBadTerminals(t *testing.T) {
	evil := "Title\x1b]0;pwned\x07 and \x1b]52;c;ZXZpbA==\x07clip \x1b[2J\x1b[31mred\x1b[0m done."
	h := newHarness(t, fakemodel.Turn{Text: []string{evil}},
		fakemodel.Turn{Text: []string{strings.Repeat("streaming words ", 100), "FINISHED"}, ChunkDelay: 300_000_000})
	tm := h.startTUI([]string{"NO_COLOR=1"}, "--trust")
	tm.waitFor("/help for commands")
	tm.typeLine("be evil")
	tm.waitFor("red done.")
	out := tm.output()
	for _, bad := range []string{"pwned", "\x1b]52;", "ZXZpbA=="} {
		if strings.Contains(out, bad) {
			t.Errorf("the model's escape sequence reached the terminal: %q", bad)
		}
	}
	for _, colour := range []string{"\x1b[31m", "38;5;", "38;2;"} {
		if strings.Contains(out, colour) {
			t.Errorf("NO_COLOR output has colour %q", colour)
		}
	}

	resize := func(cols, rows int) {
		if err := pty.Setsize(tm.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
			t.Fatal(err)
		}
		tm.emu.Resize(cols, rows)
	}
	tm.typeLine("stream")
	tm.waitFor("streaming words")
	resize(30, 8)
	tm.waitFor("too small")
	resize(70, 20)
	tm.waitFor("FINISHED")
	resize(ttyCols, ttyRows)
	tm.waitFor("/help for commands")
	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
