package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
)

type fakeRunner struct {
	events []agent.Event
	result agent.Result
}

func (f fakeRunner) Run(_ context.Context, _ string, emit func(agent.Event)) agent.Result {
	for _, e := range f.events {
		emit(e)
	}
	emit(agent.Event{Kind: agent.EventTurnEnd, Stop: f.result.Stop})
	return f.result
}

var limited = fakeRunner{
	events: []agent.Event{
		{Kind: agent.EventTextDelta, Text: "hel"},
		{Kind: agent.EventToolCallStart, Tool: &agent.ToolEvent{ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}},
		{Kind: agent.EventNotice, Text: "turn limit of 1 reached"},
	},
	result: agent.Result{Text: "hello", Stop: agent.StopMaxTurns, Stats: agent.Stats{Turns: 1, Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}, Cost: 0.5}},
}

func TestJSONPrintsSummaryEvenWhenALimitStops(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	res, err := Run(context.Background(), limited, "p", Options{Format: FormatJSON, SessionID: "s1", Stdout: &out})
	if err != nil || res.Stop != agent.StopMaxTurns {
		t.Fatalf("res %+v err %v", res, err)
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("output %q is not one JSON object: %v", out.String(), err)
	}
	if s.Text != "hello" || s.SessionID != "s1" || s.StopReason != agent.StopMaxTurns || s.Turns != 1 ||
		s.Usage.InputTokens != 12 || s.Usage.OutputTokens != 3 || s.Cost != 0.5 || s.Type != "result" {
		t.Fatalf("summary = %+v", s)
	}
}

func TestStreamJSONOneEventPerLineThenSummary(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if _, err := Run(context.Background(), limited, "p", Options{Format: FormatStreamJSON, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	var types []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var obj map[string]any
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		types = append(types, obj["type"].(string))
	}
	want := "text_delta,tool_call_start,notice,result"
	if strings.Join(types, ",") != want {
		t.Fatalf("types = %v, want %s", types, want)
	}
}

func TestTextPrintsFinalAnswerAndNoticesOnStderr(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if _, err := Run(context.Background(), limited, "p", Options{Format: FormatText, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "hello\n" || !strings.Contains(errOut.String(), "turn limit of 1 reached") {
		t.Fatalf("stdout %q stderr %q", out.String(), errOut.String())
	}
}

// TestTextModePrintsNoEscapes: a hostile model's answer, printed raw to a terminal,
// wrote the clipboard (OSC 52) and cleared the screen; text mode removes escape
// sequences and control characters, keeping the words, newlines and tabs.
func TestTextModePrintsNoEscapes(t *testing.T) {
	t.Parallel()
	hostile := fakeRunner{
		events: []agent.Event{{Kind: agent.EventError, Text: "bad \x1b]0;title\x07model"}},
		result: agent.Result{Text: "hello \x1b]52;c;Y3VybCBldmlsfHNo\x07world\x1b[2J\r\n\tdone\x9b"},
	}
	var out, errOut bytes.Buffer
	if _, err := Run(context.Background(), hostile, "p", Options{Format: FormatText, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "hello world\n\tdone\n" {
		t.Errorf("stdout %q", out.String())
	}
	if strings.ContainsAny(errOut.String(), "\x1b\x07") || !strings.Contains(errOut.String(), "bad model") {
		t.Errorf("stderr %q", errOut.String())
	}
}

func TestErrorIsInSummary(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	r := fakeRunner{result: agent.Result{Stop: agent.StopError, Err: errors.New("http://127.0.0.1:1/v1: unreachable")}}
	if _, err := Run(context.Background(), r, "p", Options{Format: FormatJSON, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.StopReason != agent.StopError || !strings.Contains(s.Error, "127.0.0.1:1") {
		t.Fatalf("summary %+v err %v", s, err)
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	if _, err := ParseFormat("yaml"); err == nil || !strings.Contains(err.Error(), "yaml") {
		t.Fatalf("err = %v", err)
	}
	if f, err := ParseFormat("stream-json"); err != nil || f != FormatStreamJSON {
		t.Fatalf("f %v err %v", f, err)
	}
}
