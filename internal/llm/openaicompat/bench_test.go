package openaicompat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// BenchmarkStream measures one call as a headless run makes it: marshalling a
// mid-conversation request (system prompt, eight tools, a tool round-trip),
// sending it over loopback, and assembling a recorded vLLM answer that reasons,
// writes a sentence and makes three parallel tool calls in 74 SSE events.
func BenchmarkStream(b *testing.B) {
	answer, err := os.ReadFile("testdata/three_tool_calls.sse")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	p := New(Options{BaseURL: srv.URL + "/v1", APIKey: "sk-bench", UserAgent: "albert-code/bench"})
	req := benchRequest()
	ctx := context.Background()
	emit := func(llm.StreamEvent) {}

	for b.Loop() {
		resp, err := p.Stream(ctx, req, emit)
		if err != nil {
			b.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 3 || resp.Usage.CachedInputTokens != 4096 {
			b.Fatalf("unexpected answer: %+v", resp)
		}
	}
}

// benchRequest is the second turn of a small task: about 12 KB of JSON, the
// order of what the agent sends early in a session.
func benchRequest() llm.Request {
	var tools []llm.ToolSpec
	for _, name := range []string{"read_file", "write_file", "edit_file", "grep", "glob", "bash", "web_fetch", "todo"} {
		tools = append(tools, llm.ToolSpec{
			Name:        name,
			Description: strings.Repeat("Describes what "+name+" does, when to use it and its limits. ", 6),
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"File path, relative to the working directory."},` +
				`"offset":{"type":"integer","description":"First line to read, 1-based."},` +
				`"limit":{"type":"integer","description":"Number of lines."},` +
				`"pattern":{"type":["string","null"],"description":"A regular expression."}},` +
				`"required":["path"],"additionalProperties":false}`),
		})
	}
	temp := 0.2
	return llm.Request{
		Model:       "Qwen/Qwen3-Coder-30B-A3B-Instruct",
		SessionID:   "sess-bench",
		Temperature: &temp,
		MaxTokens:   8192,
		Tools:       tools,
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: strings.Repeat("You are a coding agent working in a Go repository. ", 60)},
			{Role: llm.RoleUser, Content: "The session log test fails; fix it."},
			{Role: llm.RoleAssistant, Content: "Let me run the tests.", Reasoning: "Run the tests first.",
				ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "bash", Arguments: `{"command":"go test ./internal/session/"}`}}},
			{Role: llm.RoleTool, ToolCallID: "call_1", ToolName: "bash",
				Content: strings.Repeat(fmt.Sprintf("--- FAIL: TestLogAppend (0.00s)\n    log_test.go:%d: got 2 entries, want 3\n", 42), 20)},
		},
	}
}
