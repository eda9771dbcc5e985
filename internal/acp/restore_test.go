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

// session/load goes on with the profile and model the session last ran with, not
// the configured defaults, and says so after the replay.
func TestLoadRestoresTheSessionsProfileAndModel(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"first"}}, {Text: []string{"after load"}}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q1")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctxFor(t), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionConfigOption(ctxFor(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: configModel, Value: "qwen"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CloseSession(ctxFor(t), sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.updates = nil
	c.mu.Unlock()
	resp, err := conn.LoadSession(ctxFor(t), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "plan" || len(resp.ConfigOptions) != 2 ||
		resp.ConfigOptions[0].Select.CurrentValue != "plan" || resp.ConfigOptions[1].Select.CurrentValue != "qwen" {
		t.Fatalf("load answered modes %+v, options %+v", resp.Modes, resp.ConfigOptions)
	}
	kinds := c.kinds()
	i := slices.Index(kinds, "current_mode_update")
	if i < 0 || i < slices.Index(kinds, "agent_message_chunk") {
		t.Fatalf("no current_mode_update after the replay: %v", kinds)
	}
	if m := c.snapshot()[i].Update.CurrentModeUpdate; m.CurrentModeId != "plan" {
		t.Errorf("current_mode_update says %q", m.CurrentModeId)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q2")); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, f, 1); slices.Contains(got, "write") || !slices.Contains(got, "model=Qwen/Qwen3.6-27B") {
		t.Errorf("after load the model was offered %v; want plan's tools on qwen", got)
	}
}

// A profile that no longer exists is not restored: the session goes on with the
// configured one, and the editor is told why.
func TestLoadWithAMissingProfileSaysSoAndUsesTheDefault(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"first"}}}}, nil)
	profile := filepath.Join(f.vars["ALBERT_CODE_HOME"], "agents", "reviewer.toml")
	if err := os.MkdirAll(filepath.Dir(profile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(profile, []byte("description = \"Reviews\"\nextends = \"plan\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "q1")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctxFor(t), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "reviewer"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CloseSession(ctxFor(t), sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(profile); err != nil {
		t.Fatal(err)
	}
	resp, err := conn.LoadSession(ctxFor(t), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "default" {
		t.Fatalf("load answered modes %+v, want default", resp.Modes)
	}
	waitFor(t, "the warning", func() bool {
		return strings.Contains(c.agentText(), `the session's profile "reviewer" cannot be restored`)
	})
}
