package acp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

var editorCaps = sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true}

// With the editor's fs and terminal capabilities, read and edit go through its
// buffers and bash, with the sandbox off, through its terminals; the disk is left
// alone.
func TestToolsGoThroughTheEditorWhenItOffers(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "r1", Name: "read", Arguments: `{"path":"main.go"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "e1", Name: "edit", Arguments: `{"path":"main.go","old_string":"beta","new_string":"gamma"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "b1", Name: "bash", Arguments: `{"command":"go test ./..."}`}}},
		{Text: []string{"done"}},
	}}, map[string]string{"ALBERT_CODE_SANDBOX": "off"})
	main := filepath.Join(f.work, "main.go")
	if err := os.WriteFile(main, []byte("saved on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &client{answers: []string{optAllowOnce, optAllowOnce}, files: map[string]string{main: "alpha beta\n"},
		termOutput: "FAIL: TestX\n", termExit: 3}
	conn := f.connect(out, c, editorCaps)
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "fix it"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	reqs := f.srv.ModelRequests()
	if !strings.Contains(reqs[1].Body, `1\talpha beta`) || strings.Contains(reqs[1].Body, "saved on disk") {
		t.Errorf("read did not show the editor's buffer: %s", reqs[1].Body)
	}
	if c.written[main] != "alpha gamma\n" {
		t.Errorf("the editor was asked to write %q", c.written[main])
	}
	if disk, _ := os.ReadFile(main); string(disk) != "saved on disk\n" {
		t.Errorf("the disk was written: %q", disk)
	}
	if len(c.commands) != 1 || !slices.Equal(c.commands[0], []string{"bash", "-c", "go test ./..."}) || !slices.Equal(c.released, []string{"term-1"}) {
		t.Errorf("terminals: ran %q, released %v", c.commands, c.released)
	}
	if !strings.Contains(reqs[3].Body, "FAIL: TestX") || !strings.Contains(reqs[3].Body, "exit code 3") {
		t.Errorf("the command's result did not reach the model: %s", reqs[3].Body)
	}
	var termShown, termFinal, diffShown bool
	for _, u := range c.snapshot() {
		up := u.Update.ToolCallUpdate
		if up == nil {
			continue
		}
		for _, ct := range up.Content {
			if ct.Terminal != nil && ct.Terminal.TerminalId == "term-1" && up.ToolCallId == "b1" {
				termShown = true
				termFinal = termFinal || (up.Status != nil && *up.Status == sdk.ToolCallStatusFailed)
			}
			if ct.Diff != nil && up.ToolCallId == "e1" && ct.Diff.OldText != nil && *ct.Diff.OldText == "alpha beta\n" {
				diffShown = true
			}
		}
	}
	if !termShown || !termFinal || !diffShown {
		t.Errorf("terminal shown %v, kept in the failed final update %v; edit diff shown %v", termShown, termFinal, diffShown)
	}
}

// Without the capabilities the tools use the disk and this process.
func TestToolsUseTheDiskWithoutEditorCapabilities(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "read", Arguments: `{"path":"main.go"}`}}},
		{Text: []string{"done"}},
	}}, nil)
	main := filepath.Join(f.work, "main.go")
	if err := os.WriteFile(main, []byte("saved on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &client{files: map[string]string{main: "unsaved"}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "read")); err != nil {
		t.Fatal(err)
	}
	if body := f.srv.ModelRequests()[1].Body; !strings.Contains(body, "saved on disk") {
		t.Errorf("read did not use the disk: %s", body)
	}
}

func TestNumberLinesFollowsTheReadToolsFormat(t *testing.T) {
	res := numberLines("a\nb\nc\n", "x.txt", 2, 1)
	if res.Output != "     2\tb\n\n[showing lines 2-2 of 3; to read on, call read with offset=3]\n" || !res.Truncated {
		t.Errorf("numberLines = %q", res.Output)
	}
	if res := numberLines("a\n", "x.txt", 5, 0); !res.IsError {
		t.Errorf("an offset past the end: %+v", res)
	}
}

// With the sandbox on, bash stays the built-in, confined one even when the editor
// offers terminals: the editor's terminal would run the command out of its reach.
func TestSandboxedBashStaysOutOfTheEditorsTerminal(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "b1", Name: "bash", Arguments: `{"command":"echo from-our-sandbox"}`}}},
		{Text: []string{"done"}},
	}}, nil)
	c := &client{answers: []string{optAllowOnce}, files: map[string]string{}}
	conn := f.connect(out, c, editorCaps)
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "run it"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if len(c.commands) != 0 {
		t.Errorf("the editor's terminal ran %q", c.commands)
	}
	if reqs := f.srv.ModelRequests(); !strings.Contains(reqs[1].Body, "from-our-sandbox") {
		t.Errorf("the command's output did not reach the model: %s", reqs[1].Body)
	}
}
