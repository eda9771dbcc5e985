package native

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestRunStreamsTokensReasoningAndUsageAsTheyArrive(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakemodel.Turn{Reasoning: []string{"think", "ing"}, Text: []string{"Hel", "lo"},
		Usage: &fakemodel.Usage{PromptTokens: 11, CompletionTokens: 4}})
	var ev events
	res, err := w.native.Run(t.Context(), w.request("hi"), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	want := []backend.EventKind{backend.EventSession, backend.EventReasoning, backend.EventReasoning,
		backend.EventDelta, backend.EventDelta, backend.EventUsage}
	if got := ev.kinds(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if d := ev.of(backend.EventDelta); d[0].Text != "Hel" || d[1].Text != "lo" {
		t.Errorf("deltas %+v", d)
	}
	if u := ev.of(backend.EventUsage)[0].Usage; u.InputTokens != 11 || u.OutputTokens != 4 {
		t.Errorf("usage event %+v", u)
	}
	if res.Text != "Hello" || res.StopReason != "end_turn" || res.Usage.InputTokens != 11 || res.SessionID == "" ||
		res.SessionID != ev.of(backend.EventSession)[0].SessionID || res.Stopped != "" {
		t.Errorf("result %+v", res)
	}
}

func TestRunExecutesToolsInTheWorkspace(t *testing.T) {
	t.Parallel()
	w := newWorld(t,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "write", Arguments: args(map[string]string{"path": "out.txt", "content": "made"})}}},
		text("done"))
	var ev events
	res, err := w.native.Run(t.Context(), w.request("write it"), ev.emit)
	if err != nil || res.Text != "done" {
		t.Fatalf("%v %+v", err, res)
	}
	if data, err := os.ReadFile(filepath.Join(w.ws, "out.txt")); err != nil || string(data) != "made" {
		t.Errorf("out.txt: %q %v (the auto-approve profile should let the write run)", data, err)
	}
	call, result := ev.of(backend.EventToolCall), ev.of(backend.EventToolResult)
	if len(call) != 1 || call[0].Tool.ID != "w1" || call[0].Tool.Name != "write" || !strings.Contains(string(call[0].Tool.Arguments), "out.txt") {
		t.Errorf("tool call events %+v", call)
	}
	if len(result) != 1 || result[0].Tool.ID != "w1" || result[0].Tool.IsError {
		t.Errorf("tool result events %+v", result[0].Tool)
	}
}

func TestRunIgnoresProjectConfigurationInTheWorkspace(t *testing.T) {
	t.Parallel()
	w := newWorld(t, text("ok"))
	// A client-written project file redirecting the provider would receive the key.
	if err := os.WriteFile(filepath.Join(w.ws, ".albert-code.toml"), []byte("model = \"no-such-model\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.native.Run(t.Context(), w.request("hi"), discard); err != nil {
		t.Fatalf("the project file was read: %v", err)
	}
}

// discard drops a run's events.
func discard(backend.Event) {}

func TestRunOptionsReachTheModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		req   func(*backend.Request)
		check func(t *testing.T, body map[string]any)
	}{
		{"system prompt replaced and appended", func(r *backend.Request) {
			r.SystemPrompt, r.AppendSystemPrompt = "You are terse.", "Answer in French."
		}, func(t *testing.T, b map[string]any) {
			sys := b["messages"].([]any)[0].(map[string]any)
			if sys["role"] != "system" || sys["content"] != "You are terse.\n\nAnswer in French." {
				t.Errorf("system message %v", sys)
			}
		}},
		{"append keeps the built prompt", func(r *backend.Request) { r.AppendSystemPrompt = "Answer in French." },
			func(t *testing.T, b map[string]any) {
				c := b["messages"].([]any)[0].(map[string]any)["content"].(string)
				if !strings.Contains(c, "Working directory: ") || !strings.HasSuffix(c, "\n\nAnswer in French.") {
					t.Errorf("system prompt %q", c)
				}
			}},
		{"no tools", func(r *backend.Request) { r.NoTools = true }, func(t *testing.T, b map[string]any) {
			if _, ok := b["tools"]; ok {
				t.Errorf("tools sent: %v", b["tools"])
			}
		}},
		{"tool allow-list", func(r *backend.Request) { r.ToolsAllowlist = []string{"read", "grep"} }, func(t *testing.T, b map[string]any) {
			var names []string
			for _, tl := range b["tools"].([]any) {
				names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
			}
			slices.Sort(names)
			if !slices.Equal(names, []string{"grep", "read"}) {
				t.Errorf("tools %v", names)
			}
		}},
		{"thinking and model", func(r *backend.Request) { r.Thinking, r.Model = "high", "qwen" }, func(t *testing.T, b map[string]any) {
			if b["reasoning_effort"] != "high" || !strings.Contains(b["model"].(string), "Qwen") {
				t.Errorf("reasoning_effort %v, model %v", b["reasoning_effort"], b["model"])
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, text("ok"))
			req := w.request("hi")
			tc.req(req)
			if _, err := w.native.Run(t.Context(), req, discard); err != nil {
				t.Fatal(err)
			}
			tc.check(t, body(t, w.srv, 0))
		})
	}
}

func TestContinueResumesTheWorkspaceSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t, text("first answer"), text("second answer"), text("fresh"))
	req := w.request("remember 42")
	req.Continue = true // no session yet: starts one
	first, err := w.native.Run(t.Context(), req, discard)
	if err != nil {
		t.Fatal(err)
	}
	req = w.request("what number?")
	req.Continue = true
	second, err := w.native.Run(t.Context(), req, discard)
	if err != nil || second.SessionID != first.SessionID {
		t.Fatalf("continued into %q, want %q (%v)", second.SessionID, first.SessionID, err)
	}
	if msgs := body(t, w.srv, 1)["messages"].([]any); !strings.Contains(args(msgs), "remember 42") || !strings.Contains(args(msgs), "first answer") {
		t.Errorf("the continued run did not send the history: %s", args(msgs))
	}
	fresh, err := w.native.Run(t.Context(), w.request("new"), discard)
	if err != nil || fresh.SessionID == first.SessionID || strings.Contains(args(body(t, w.srv, 2)["messages"]), "remember 42") {
		t.Errorf("a run without continue reused the session %q (%v)", fresh.SessionID, err)
	}
	req = w.request("again")
	req.Resume = "no-such-session"
	if _, err := w.native.Run(t.Context(), req, discard); !errors.Is(err, backend.ErrInvalidRequest) {
		t.Errorf("resume of an unknown session: %v, want an invalid request", err)
	}
}

func TestInvalidRequestsAreRefusedBeforeAnythingRuns(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tests := map[string]func(*backend.Request){
		"relative workspace":       func(r *backend.Request) { r.Workspace = "ws" },
		"missing workspace":        func(r *backend.Request) { r.Workspace = filepath.Join(w.ws, "nope") },
		"extra args":               func(r *backend.Request) { r.ExtraArgs = []string{"--x"} },
		"no tools with allow-list": func(r *backend.Request) { r.NoTools, r.ToolsAllowlist = true, []string{"read"} },
		"unknown thinking level":   func(r *backend.Request) { r.Thinking = "max" },
		"unknown model":            func(r *backend.Request) { r.Model = "gpt-9" },
	}
	for name, mod := range tests {
		req := w.request("hi")
		mod(req)
		if _, err := w.native.Run(t.Context(), req, discard); !errors.Is(err, backend.ErrInvalidRequest) {
			t.Errorf("%s: %v, want an invalid request", name, err)
		}
	}
	// The unknown model reads the server's model list to name what it serves;
	// no chat request is ever made.
	for _, r := range w.srv.ModelRequests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			t.Errorf("the model saw a chat request: %s", r.Body)
		}
	}
}

func TestEventModeFullKeepsTheAgentEvents(t *testing.T) {
	t.Parallel()
	w := newWorld(t, text("a", "b"))
	req := w.request("hi")
	req.EventMode = backend.EventsFull
	res, err := w.native.Run(t.Context(), req, discard)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range res.Records {
		types = append(types, r.Type)
	}
	if !slices.Equal(types, []string{"text_delta", "text_delta", "usage", "turn_end"}) {
		t.Errorf("records %v", types)
	}
}
