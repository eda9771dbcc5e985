package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// toolNames lists the tools the model was offered in request i.
func toolNames(t *testing.T, f *fixture, i int) []string {
	t.Helper()
	var body struct {
		Model string `json:"model"`
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(f.srv.ModelRequests()[i].Body), &body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range body.Tools {
		out = append(out, tl.Function.Name)
	}
	return append(out, "model="+body.Model)
}

func TestModesAndTheModelOptionSwitchAndKeepTheHistory(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"first"}}, {Text: []string{"second"}}, {Text: []string{"third"}}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	var names []string
	for _, m := range sess.Modes.AvailableModes {
		names = append(names, string(m.Id))
	}
	if !slices.Equal(names[:4], []string{"default", "plan", "accept-edits", "auto-approve"}) || slices.Contains(names, "explore") {
		t.Fatalf("modes %v", names)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q1")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctxFor(t), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "current_mode_update", func() bool { return slices.Contains(c.kinds(), "current_mode_update") })
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q2")); err != nil {
		t.Fatal(err)
	}
	resp, err := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: configModel, Value: "qwen"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ConfigOptions) != 2 || resp.ConfigOptions[0].Select.CurrentValue != "plan" || resp.ConfigOptions[1].Select.CurrentValue != "qwen" {
		t.Fatalf("config options after the switch: %+v %+v", resp.ConfigOptions[0].Select, resp.ConfigOptions[1].Select)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q3")); err != nil {
		t.Fatal(err)
	}
	before, plan, qwen := toolNames(t, f, 0), toolNames(t, f, 1), toolNames(t, f, 2)
	if !slices.Contains(before, "write") || slices.Contains(plan, "write") || slices.Contains(qwen, "write") {
		t.Errorf("write offered: default %v, plan %v, plan+qwen %v", slices.Contains(before, "write"), slices.Contains(plan, "write"), slices.Contains(qwen, "write"))
	}
	if !slices.Contains(qwen, "model=Qwen/Qwen3.6-27B") {
		t.Errorf("the model switch did not reach the server: %v", qwen)
	}
	if body := f.srv.ModelRequests()[2].Body; !strings.Contains(body, "q1") || !strings.Contains(body, "second") {
		t.Errorf("history lost across the switches: %s", body)
	}
	for _, bad := range []sdk.SetSessionModeRequest{{SessionId: sess.SessionId, ModeId: "nope"}, {SessionId: sess.SessionId, ModeId: "explore"}} {
		if _, err := conn.SetSessionMode(ctxFor(t), bad); err == nil {
			t.Errorf("set_mode %q accepted", bad.ModeId)
		}
	}
	if _, err := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: "colour", Value: "blue"}}); err == nil {
		t.Error("an unknown config option was accepted")
	}
}

func TestPromptBlocksBecomeText(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"ok"}}}}, nil)
	conn := f.connect(out, &client{}, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	title := "Main file"
	_, err := conn.Prompt(ctxFor(t), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("review these"),
		{ResourceLink: &sdk.ContentBlockResourceLink{Type: "resource_link", Name: "main.go", Uri: "file://" + f.work + "/main.go", Title: &title}},
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file://" + f.work + "/util.go", Text: "package util\n"}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	body := f.srv.ModelRequests()[0].Body
	for _, want := range []string{"review these", `Attached: main.go (Main file)`, "Contents of util.go:\\n```\\npackage util\\n```"} {
		if !strings.Contains(body, want) {
			t.Errorf("the prompt lacks %q: %s", want, body)
		}
	}
	_, err = conn.Prompt(ctxFor(t), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}})
	if err == nil || !strings.Contains(err.Error(), "image content is not supported") {
		t.Errorf("an image prompt: %v", err)
	}
}

func TestSlashCommandsRunInTheEditor(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	waitFor(t, "available commands", func() bool { return slices.Contains(c.kinds(), "available_commands_update") })
	var offered []string
	for _, u := range c.snapshot() {
		if ac := u.Update.AvailableCommandsUpdate; ac != nil {
			for _, cmd := range ac.AvailableCommands {
				offered = append(offered, cmd.Name)
			}
		}
	}
	if !slices.Contains(offered, "compact") || !slices.Contains(offered, "model") || !slices.Contains(offered, "quota") || slices.Contains(offered, "exit") {
		t.Fatalf("available commands %v", offered)
	}
	for _, line := range []string{"/model qwen", "/status", "/rpm", "/nope"} {
		resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, line))
		if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("%s: %+v, %v", line, resp, err)
		}
	}
	text := c.agentText()
	for _, want := range []string{"model: `qwen`", "rolling 60 s window", "unknown command /nope"} {
		if !strings.Contains(text, want) {
			t.Errorf("the commands' output lacks %q:\n%s", want, text)
		}
	}
	if len(f.srv.ModelRequests()) != 0 {
		t.Error("a slash command reached the model")
	}
}

func TestCompactCommandShowsAsAToolCall(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"a1"}}, {Text: []string{"a2"}}, {Text: []string{"a3"}}, {Text: []string{"the summary"}},
	}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	for _, q := range []string{"q1", "q2", "q3", "/compact keep q3"} {
		if resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, q)); err != nil || resp.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("%s: %+v, %v", q, resp, err)
		}
	}
	var started, done bool
	for _, u := range c.snapshot() {
		if tc := u.Update.ToolCall; tc != nil && tc.Title == "Compacting the conversation" && tc.Kind == sdk.ToolKindThink {
			started = true
		}
		if up := u.Update.ToolCallUpdate; up != nil && up.Status != nil && *up.Status == sdk.ToolCallStatusCompleted && strings.HasPrefix(string(up.ToolCallId), "compaction-") {
			done = true
		}
	}
	if !started || !done || len(f.srv.ModelRequests()) != 4 || !strings.Contains(f.srv.ModelRequests()[3].Body, "keep q3") {
		t.Fatalf("compaction shown %v/%v, %d model requests", started, done, len(f.srv.ModelRequests()))
	}
}

// The start-up quota warnings every face shows reach the editor too: here the one
// about a rate-limit state file that had to be rebuilt.
func TestQuotaWarningsReachTheEditor(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	home := f.vars["ALBERT_CODE_HOME"]
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "ratelimit_state.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	f.newSession(conn)
	waitFor(t, "the warning", func() bool {
		text := c.agentText()
		return strings.Contains(text, "warning:") && strings.Contains(text, "ratelimit_state.json")
	})
}
