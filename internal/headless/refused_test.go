package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// The model says "Fixed" after its edit was refused: text mode must say so on
// stderr, and the JSON result must list the refused call, while a call that ran and
// failed is no refusal.
var refusedEdit = fakeRunner{
	events: []agent.Event{
		{Kind: agent.EventPermission, Tool: &agent.ToolEvent{ID: "e1", Name: "edit"}},
		{Kind: agent.EventToolCallResult, Tool: &agent.ToolEvent{ID: "e1", Name: "edit", Arguments: json.RawMessage(`{"path":"a.go"}`),
			Output: "edit needs approval, but no one can approve calls in this mode.\nDo without it", IsError: true, Refused: true}},
		{Kind: agent.EventToolCallResult, Tool: &agent.ToolEvent{ID: "b1", Name: "bash", Output: "exit status 1", IsError: true}},
	},
	result: agent.Result{Text: "Fixed: the bug in a.go.", Stop: agent.StopEndTurn},
}

func TestTextModeSaysEveryRefusalOnStderr(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if _, err := Run(context.Background(), refusedEdit, "p", Options{Format: FormatText, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatal(err)
	}
	want := "albert-code: refused edit: edit needs approval, but no one can approve calls in this mode. …\n"
	if errOut.String() != want {
		t.Fatalf("stderr = %q, want %q", errOut.String(), want)
	}
	if out.String() != "Fixed: the bug in a.go.\n" {
		t.Fatalf("stdout = %q", out.String())
	}
}

func TestJSONResultListsRefusedCalls(t *testing.T) {
	t.Parallel()
	for _, f := range []Format{FormatJSON, FormatStreamJSON} {
		var out bytes.Buffer
		if _, err := Run(context.Background(), refusedEdit, "p", Options{Format: f, Stdout: &out}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var s Summary
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
			t.Fatalf("%s: last line %q: %v", f, lines[len(lines)-1], err)
		}
		if len(s.Refused) != 1 || s.Refused[0].ID != "e1" || s.Refused[0].Tool != "edit" ||
			string(s.Refused[0].Arguments) != `{"path":"a.go"}` || !strings.Contains(s.Refused[0].Reason, "needs approval") {
			t.Fatalf("%s: refused = %+v, want the one refused edit", f, s.Refused)
		}
	}
}

func TestNoRefusalNoRefusedField(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if _, err := Run(context.Background(), limited, "p", Options{Format: FormatJSON, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"refused"`) {
		t.Fatalf("summary without refusals has a refused field: %s", out.String())
	}
}
