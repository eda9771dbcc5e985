package providertest

import (
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

// Repeating serves the SSE fixture at path to every request, without recording
// anything: for benchmarks, where Server's bookkeeping would be measured too.
func Repeating(b testing.TB, path string) *httptest.Server {
	b.Helper()
	answer, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(answer)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchRequest is the second turn of a small task, the same for every provider's
// benchmark (and the shape of openaicompat's): a long system prompt, eight tools,
// one tool round-trip; about 12 KB of JSON.
func BenchRequest(model string) llm.Request {
	var tools []llm.ToolSpec
	for _, name := range []string{"read_file", "write_file", "edit_file", "grep", "glob", "bash", "web_fetch", "todo"} {
		tools = append(tools, llm.ToolSpec{
			Name:        name,
			Description: strings.Repeat("Describes what "+name+" does, when to use it and its limits. ", 6),
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"File path, relative to the working directory."},` +
				`"offset":{"type":"integer","description":"First line to read, 1-based."},` +
				`"limit":{"type":"integer","description":"Number of lines."}},` +
				`"required":["path"],"additionalProperties":false}`),
		})
	}
	return llm.Request{
		Model: model,
		Tools: tools,
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: strings.Repeat("You are a coding agent working in a Go repository. ", 60)},
			{Role: llm.RoleUser, Content: "The session log test fails; fix it."},
			{Role: llm.RoleAssistant, Content: "Let me run the tests.",
				ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "bash", Arguments: `{"command":"go test ./internal/session/"}`}}},
			{Role: llm.RoleTool, ToolCallID: "call_1", ToolName: "bash",
				Content: strings.Repeat(fmt.Sprintf("--- FAIL: TestLogAppend (0.00s)\n    log_test.go:%d: got 2 entries, want 3\n", 42), 20)},
		},
	}
}
