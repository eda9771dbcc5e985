package acp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestInitializeAdvertisesVersionOneAndWhatWeSupport(t *testing.T) {
	f, out := start(t, fakemodel.Script{}, nil)
	conn := sdk.NewClientSideConnection(&client{}, f.toSrv, out)
	resp, err := conn.Initialize(ctxFor(t), sdk.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	caps := resp.AgentCapabilities
	if resp.ProtocolVersion != 1 || resp.AgentInfo == nil || resp.AgentInfo.Name != "albert-code" || resp.AgentInfo.Version != "test" {
		t.Fatalf("initialize: %+v", resp)
	}
	if !caps.LoadSession || !caps.PromptCapabilities.EmbeddedContext || caps.PromptCapabilities.Image || caps.SessionCapabilities.List == nil {
		t.Fatalf("capabilities: %+v", caps)
	}
	if len(resp.AuthMethods) != 1 || resp.AuthMethods[0].Agent == nil {
		t.Fatalf("auth methods: %+v", resp.AuthMethods)
	}
}

func TestPromptStreamsThoughtsTextUsageAndTitle(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{
		Reasoning: []string{"let me think"}, Text: []string{"Hel", "lo"},
		Usage: &fakemodel.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120},
	}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if sess.Modes == nil || sess.Modes.CurrentModeId != "default" || len(sess.ConfigOptions) != 2 {
		t.Fatalf("new session: %+v", sess)
	}
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "say hello"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	kinds := c.kinds()
	want := []string{"available_commands_update", "agent_thought_chunk", "agent_message_chunk", "agent_message_chunk", "usage_update", "usage_update", "session_info_update"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("updates %v\nwant    %v", kinds, want)
	}
	if c.agentText() != "Hello" {
		t.Errorf("agent text %q", c.agentText())
	}
	for _, line := range f.wire.all() {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" {
			t.Errorf("the server wrote a line that is not a JSON-RPC message: %q", line)
		}
	}
	for _, u := range c.snapshot() {
		if uu := u.Update.UsageUpdate; uu != nil && (uu.Used != 120 || uu.Size != 131072) {
			t.Errorf("usage update %+v, want 120 of 131072", uu)
		}
		if si := u.Update.SessionInfoUpdate; si != nil && (si.Title == nil || *si.Title != "say hello") {
			t.Errorf("title update %+v", si)
		}
		if u.SessionId != sess.SessionId {
			t.Errorf("update for session %q, want %q", u.SessionId, sess.SessionId)
		}
	}
}

func TestToolCallsAskPermissionAndShowDiffs(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "write", Arguments: `{"path":"a.txt","content":"one\n"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "w2", Name: "write", Arguments: `{"path":"b.txt","content":"two\n"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "e1", Name: "edit", Arguments: `{"path":"a.txt","old_string":"one","new_string":"uno"}`}}},
		{ToolCalls: []fakemodel.ToolCall{{ID: "e2", Name: "edit", Arguments: `{"path":"a.txt","old_string":"uno","new_string":"eins"}`}}},
		{Text: []string{"done"}},
	}}, nil)
	c := &client{answers: []string{optAllowOnce, optReject, optAllowAlways}}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "write files"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.work, "a.txt")); string(got) != "eins\n" {
		t.Errorf("a.txt = %q: the allowed write and edits did not all happen", got)
	}
	if _, err := os.Stat(filepath.Join(f.work, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("the refused write happened: %v", err)
	}
	// allow_always covered the second edit: three questions, not four.
	if len(c.asked) != 3 {
		t.Fatalf("asked %d times, want 3 (the second edit was allowed for the session)", len(c.asked))
	}
	ask := c.asked[0]
	if ask.ToolCall.ToolCallId != "w1" || ask.ToolCall.Title == nil || *ask.ToolCall.Title != "Write a.txt" || len(ask.Options) != 3 {
		t.Errorf("permission request %+v", ask)
	}
	status := map[sdk.ToolCallId]sdk.ToolCallStatus{}
	var diffs []sdk.ToolCallContentDiff
	for _, u := range c.snapshot() {
		if tc := u.Update.ToolCall; tc != nil {
			if tc.Kind != sdk.ToolKindEdit || len(tc.Locations) != 1 || tc.Locations[0].Path != filepath.Join(f.work, "a.txt") && tc.Locations[0].Path != filepath.Join(f.work, "b.txt") {
				t.Errorf("tool_call %+v", tc)
			}
		}
		if up := u.Update.ToolCallUpdate; up != nil && up.Status != nil {
			status[up.ToolCallId] = *up.Status
			for _, ct := range up.Content {
				if ct.Diff != nil {
					diffs = append(diffs, *ct.Diff)
				}
			}
		}
	}
	want := map[sdk.ToolCallId]sdk.ToolCallStatus{"w1": "completed", "w2": "failed", "e1": "completed", "e2": "completed"}
	for id, st := range want {
		if status[id] != st {
			t.Errorf("final status of %s = %q, want %q", id, status[id], st)
		}
	}
	if len(diffs) != 3 || diffs[0].OldText != nil || diffs[0].NewText != "one\n" || diffs[1].OldText == nil || *diffs[1].OldText != "one\n" || diffs[1].NewText != "uno\n" {
		t.Fatalf("diff contents %+v", diffs)
	}
	if !strings.Contains(f.srv.ModelRequests()[2].Body, "The user denied this call") {
		t.Error("the refusal did not reach the model")
	}
}

func TestTodoToolSendsAPlan(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{ToolCalls: []fakemodel.ToolCall{{Name: "todo", Arguments: `{"todos":[{"id":"1","content":"read","status":"completed"},{"id":"2","content":"fix","status":"in_progress"},{"id":"3","content":"drop","status":"cancelled"}]}`}}},
		{Text: []string{"ok"}},
	}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "plan")); err != nil {
		t.Fatal(err)
	}
	var plan *sdk.SessionUpdatePlan
	for _, u := range c.snapshot() {
		if u.Update.Plan != nil {
			plan = u.Update.Plan
		}
	}
	if plan == nil || len(plan.Entries) != 2 || plan.Entries[0].Status != "completed" || plan.Entries[1].Content != "fix" || plan.Entries[1].Status != "in_progress" {
		t.Fatalf("plan %+v", plan)
	}
}

func TestCancelEndsTheTurnAndABusySessionRefusesASecondPrompt(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"working"}, Hang: true}, {Text: []string{"after"}}}}, nil)
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	first := make(chan sdk.PromptResponse, 1)
	go func() {
		resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "long"))
		if err != nil {
			t.Error(err)
		}
		first <- resp
	}()
	waitFor(t, "the first chunk", func() bool { return strings.Contains(c.agentText(), "working") })

	_, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "another"))
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32600 || !strings.Contains(re.Message, "already running a prompt") {
		t.Fatalf("second prompt: %v, want -32600 naming the running prompt", err)
	}
	select {
	case <-first:
		t.Fatal("the second prompt ended the first")
	default:
	}
	if err := conn.Cancel(ctxFor(t), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if resp := <-first; resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled prompt: %q", resp.StopReason)
	}
	// Cancelling the finished turn does nothing; the session goes on.
	if err := conn.Cancel(ctxFor(t), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	resp, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "next"))
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn || !strings.HasSuffix(c.agentText(), "after") {
		t.Fatalf("prompt after the cancel: %+v, %v, text %q", resp, err, c.agentText())
	}
}

func TestLoadReplaysTheConversationAndListShowsIt(t *testing.T) {
	f, out := start(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Reasoning: []string{"hmm"}, ToolCalls: []fakemodel.ToolCall{{ID: "r1", Name: "read", Arguments: `{"path":"notes.md"}`}}},
		{Text: []string{"it says hi"}},
		{Text: []string{"still here"}},
	}}, nil)
	if err := os.WriteFile(filepath.Join(f.work, "notes.md"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &client{}
	conn := f.connect(out, c, sdk.ClientCapabilities{})
	sess := f.newSession(conn)
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "what do the notes say?")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CloseSession(ctxFor(t), sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	list, err := conn.ListSessions(ctxFor(t), sdk.ListSessionsRequest{Cwd: &f.work})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != sess.SessionId ||
		list.Sessions[0].Title == nil || *list.Sessions[0].Title != "what do the notes say?" || list.Sessions[0].UpdatedAt == nil {
		t.Fatalf("list: %+v, %v", list, err)
	}

	c.mu.Lock()
	c.updates = nil
	c.mu.Unlock()
	resp, err := conn.LoadSession(ctxFor(t), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.work, McpServers: []sdk.McpServer{}})
	if err != nil || resp.Modes == nil {
		t.Fatalf("load: %+v, %v", resp, err)
	}
	kinds := c.kinds()
	want := []string{"user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"}
	if len(kinds) < len(want) || !slices.Equal(kinds[:len(want)], want) {
		t.Fatalf("replay %v\nwant %v", kinds, want)
	}
	if _, err := conn.Prompt(ctxFor(t), prompt(sess.SessionId, "and now?")); err != nil {
		t.Fatal(err)
	}
	if body := f.srv.ModelRequests()[2].Body; !strings.Contains(body, "it says hi") {
		t.Fatalf("the loaded history did not reach the model: %s", body)
	}
}
