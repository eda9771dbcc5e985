package app

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// The trap of issue 16: in text mode the model says "Fixed" after its edit was
// refused. The refusal is on stderr, the file is unchanged, and the exit code stays 0
// (docs/headless.md says why).
func TestTextModeRefusedEditIsNotSilent(t *testing.T) {
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "e1", Name: "edit", Arguments: args(map[string]string{"path": "a.txt", "old_string": "bug", "new_string": "fix"})}),
		text("Fixed: the bug in a.txt."),
	)
	path := h.writeFile("a.txt", "bug\n")
	r := h.run("-p", "--trust", "fix a.txt")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "albert-code: refused edit: edit needs approval") {
		t.Fatalf("stderr does not report the refused edit:\n%s", r.stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "bug\n" {
		t.Fatalf("a.txt = %q, the refused edit ran", b)
	}
}

// --disabled-tools is a flag, and the JSON result lists the call it refused with the
// rule that refused it.
func TestDisabledToolsFlagAndRefusedInJSON(t *testing.T) {
	h := newHarness(t,
		calls(fakemodel.ToolCall{ID: "b1", Name: "bash", Arguments: args(map[string]string{"command": "ls"})}),
		text("done"),
	)
	r := h.run("-p", "--trust", "--disabled-tools", "bash", "--output", "json", "list")
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	var s struct {
		Refused []struct{ ID, Tool, Reason string } `json:"refused"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("stdout %q: %v", r.stdout, err)
	}
	if len(s.Refused) != 1 || s.Refused[0].Tool != "bash" || !strings.Contains(s.Refused[0].Reason, "--disabled-tools") {
		t.Fatalf("refused = %+v, want the bash call refused by --disabled-tools", s.Refused)
	}
}

// --help shows --resume with its optional ID, not the internal value the flag takes
// without one; and both spellings of an ID still resume.
func TestResumeHelpAndSpellings(t *testing.T) {
	code, out, _ := runMain(t, "--help")
	flag := lineWith(out, "--resume ID")
	if code != ExitOK || flag == "" || strings.Contains(flag, "[=") {
		t.Fatalf("--help (code %d) shows --resume as:\n%s", code, lineWith(out, "--resume"))
	}
	h := newHarness(t)
	for _, a := range [][]string{{"-p", "--resume", "nosuchid", "hi"}, {"-p", "--resume=nosuchid", "hi"}} {
		if r := h.run(a...); r.code != ExitUsage || !strings.Contains(r.stderr, "nosuchid") {
			t.Fatalf("%v: exit %d, stderr %s", a, r.code, r.stderr)
		}
	}
	if r := h.run("-p", "--resume"); r.code != ExitUsage || !strings.Contains(r.stderr, "--resume needs a session ID") {
		t.Fatalf("-p --resume: exit %d, stderr %s", r.code, r.stderr)
	}
}

func lineWith(s, sub string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
