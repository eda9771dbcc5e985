package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestTUIEditorAndHistory: Ctrl+G writes the prompt in $VISUAL, and prompts come
// back with Up in the next session.
func TestTUIEditorAndHistory(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"Got the edited prompt."}}, fakemodel.Turn{Text: []string{"Again."}})
	editor := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf 'written in the editor' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := h.startTUI([]string{"VISUAL=" + editor}, "--trust")
	tm.waitFor("/help for commands")
	tm.send("draft", "\x07") // ctrl+g
	tm.waitFor("❯ written in the editor")
	tm.send("\r")
	tm.waitFor("Got the edited prompt.")
	if body := h.srv.Requests()[0].Body; !strings.Contains(body, "written in the editor") {
		t.Errorf("the model got %s", body)
	}
	tm.send(keyCtrlC, keyCtrlC)
	tm.wait()

	tm = h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")
	tm.send("\x1b[A") // up
	tm.waitFor("❯ written in the editor")
	tm.send("\r")
	tm.waitFor("Again.")
}

// TestTUIResumePicker: --resume without an ID lists the folder's sessions; with -p
// it is a usage error, and "--resume ID" still takes the ID.
func TestTUIResumePicker(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"first answer"}}, fakemodel.Turn{Text: []string{"second answer"}})
	if r := h.run("-p", "--trust", "--output", "json", "the first question"); r.code != 0 {
		t.Fatalf("-p: %d %s", r.code, r.stderr)
	}
	if r := h.run("-p", "--resume"); r.code != ExitUsage || !strings.Contains(r.stderr, "--resume needs a session ID") {
		t.Errorf("-p --resume: %d %s", r.code, r.stderr)
	}
	tm := h.startTUI(nil, "--trust", "--resume")
	tm.waitFor("Resume a session")
	tm.waitFor("the first question")
	tm.send("\r")
	tm.waitFor("first answer")
	tm.typeLine("and then?")
	tm.waitFor("second answer")
}
