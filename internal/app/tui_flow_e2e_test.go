package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// TestTUIConversation types into the real binary in a terminal: a streamed answer,
// a tool call approved, one denied with feedback (the turn goes on), Esc
// interrupting a turn, and Ctrl+C twice quitting.
func TestTUIConversation(t *testing.T) {
	h := newHarness(t,
		fakemodel.Turn{Text: []string{"Hello from ", "the **fake** ", "model."}},
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "write", Arguments: args(map[string]string{"path": "approved.txt", "content": "yes\n"})}}},
		fakemodel.Turn{Text: []string{"Wrote approved.txt."}},
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "w2", Name: "write", Arguments: args(map[string]string{"path": "denied.txt", "content": "no\n"})}}},
		fakemodel.Turn{Text: []string{"Understood, I will use notes.md."}},
		fakemodel.Turn{Text: []string{"Thinking for a long time"}, Hang: true},
	)
	tm := h.startTUI(nil, "--trust")
	tm.waitFor("/help for commands")

	tm.typeLine("say hello")
	tm.waitFor("Hello from the fake model.")

	tm.typeLine("write the file")
	tm.waitFor("Allow this tool call?")
	tm.send("1")
	tm.waitFor("Wrote approved.txt.")
	if data, err := os.ReadFile(filepath.Join(h.work, "approved.txt")); err != nil || string(data) != "yes\n" {
		t.Fatalf("approved.txt = %q, %v", data, err)
	}

	tm.typeLine("write another")
	tm.waitFor("Allow this tool call?")
	tm.send("3")
	tm.typeLine("use notes.md instead")
	tm.waitFor("Understood, I will use notes.md.")
	if _, err := os.Stat(filepath.Join(h.work, "denied.txt")); err == nil {
		t.Fatal("denied.txt was written after a denial")
	}
	if got := h.toolResult(4, "w2"); !strings.Contains(got, "use notes.md instead") {
		t.Errorf("the model did not get the feedback: %q", got)
	}

	tm.typeLine("think hard")
	tm.waitFor("Thinking for a long time")
	tm.send(keyEsc)
	tm.waitFor("interrupted")

	tm.send(keyCtrlC, keyCtrlC)
	if code := exitCode(tm.wait()); code != 0 {
		t.Errorf("exit code %d after ctrl+c twice, want 0", code)
	}
	if out := tm.output(); !strings.Contains(out, "albert-code --resume ") {
		t.Errorf("no resume hint after quitting:\n%s", tm.screen())
	}
}
