package app

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestTUIMarksAnUntrustedFolder: after "Not now" the real binary's footer says the
// folder is untrusted (the conversation opened with it knows); --trust opens one
// without the marker.
func TestTUIMarksAnUntrustedFolder(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"unused"}})
	tm := h.startTUI(nil)
	tm.waitFor("Do you trust this folder?")
	tm.send("2")
	tm.waitFor("untrusted folder (/trust)")
	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d", code)
	}

	tm = h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")
	if s := tm.screen(); strings.Contains(s, "untrusted folder") {
		t.Errorf("--trust still marks the folder untrusted:\n%s", s)
	}
	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
