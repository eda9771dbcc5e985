package app

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestTUIBangRunsAShellCommand: "!cmd" runs in the working folder without the
// model, and the next prompt carries the command and its output to the model.
func TestTUIBangRunsAShellCommand(t *testing.T) {
	h := newHarness(t, fakemodel.Turn{Text: []string{"I saw the greeting."}})
	h.writeFile("greeting.txt", "from the folder\n")
	tm := h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")
	tm.typeLine("!echo hi")
	tm.waitFor("⎿ hi")
	tm.waitFor("✓ bash  echo hi")
	tm.typeLine("!cat greeting.txt")
	tm.waitFor("⎿ from the folder")
	if n := len(h.srv.Requests()); n != 0 {
		t.Fatalf("the shell commands reached the model: %d requests", n)
	}
	tm.typeLine("what did I run?")
	tm.waitFor("I saw the greeting.")
	body := h.srv.Requests()[0].Body
	for _, want := range []string{
		"The user ran `echo hi` in the shell (exit 0):\\n```\\nhi\\n```",
		"The user ran `cat greeting.txt` in the shell (exit 0):\\n```\\nfrom the folder\\n```",
		"what did I run?",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(tm.screen(), "The user ran") {
		t.Errorf("the chat must show the prompt as typed:\n%s", tm.screen())
	}
	tm.send(keyCtrlC, keyCtrlC)
	tm.wait()
}
