package providertest_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/anthropic"
	"github.com/etalab-ia/albert-code/internal/llm/mistral"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
	"github.com/etalab-ia/albert-code/internal/llm/vertex"
)

// The fixtures are the provider packages' own: one recorded stream per wire.
const (
	anthropicToolTurn = "../anthropic/testdata/thinking_tool.sse"
	anthropicText     = "../anthropic/testdata/text.sse"
	geminiToolTurn    = "../vertex/testdata/function_calls.sse"
	geminiText        = "../vertex/testdata/text.sse"
	mistralText       = "../mistral/testdata/text.sse"
)

func call(t *testing.T, p llm.Provider, req llm.Request) *llm.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p.Stream(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// turn runs a tool-calling turn on first and returns the history a session would
// hold after the tools ran.
func turn(t *testing.T, first llm.Provider, model string) []llm.Message {
	t.Helper()
	history := []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: "Read main.go"}}
	resp := call(t, first, llm.Request{Model: model, Messages: history, ReasoningEffort: "high"})
	history = append(history, resp.Message)
	for _, c := range resp.Message.ToolCalls {
		history = append(history, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: "ok"})
	}
	if len(resp.Message.ToolCalls) == 0 {
		t.Fatal("the first turn made no tool call")
	}
	return history
}

var nineAlnum = regexp.MustCompile(`^[a-zA-Z0-9]{9}$`)

func TestAnthropicThenMistral(t *testing.T) {
	a := providertest.New(t, providertest.SSE(anthropicToolTurn))
	history := turn(t, anthropic.New(anthropic.Options{BaseURL: a.URL, APIKey: "k"}), "claude-sonnet-4-5")
	if history[2].ReasoningSignature == "" {
		t.Fatal("the Anthropic turn kept no signature")
	}
	m := providertest.New(t, providertest.SSE(mistralText))
	call(t, mistral.New(mistral.Options{BaseURL: m.URL, APIKey: "k"}), llm.Request{Model: "mistral-large-latest", Messages: history})

	msgs := m.Requests()[0].JSON(t)["messages"].([]any)
	assistant := msgs[2].(map[string]any)
	if _, ok := assistant["reasoning_content"]; ok {
		t.Errorf("Anthropic thinking sent to Mistral: %v", assistant)
	}
	for i, c := range assistant["tool_calls"].([]any) {
		id := c.(map[string]any)["id"].(string)
		result := msgs[3+i].(map[string]any)
		if !nineAlnum.MatchString(id) || result["tool_call_id"] != id {
			t.Errorf("call %d id %q, result %v", i, id, result)
		}
	}
}

func TestAnthropicThenGemini(t *testing.T) {
	a := providertest.New(t, providertest.SSE(anthropicToolTurn))
	history := turn(t, anthropic.New(anthropic.Options{BaseURL: a.URL, APIKey: "k"}), "claude-sonnet-4-5")
	g := providertest.New(t, providertest.SSE(geminiText))
	call(t, vertex.New(vertex.Options{BaseURL: g.URL, APIKey: "k"}), llm.Request{Model: "gemini-3-pro-preview", Messages: history})

	raw := string(g.Requests()[0].Raw)
	if strings.Contains(raw, "EqQBCgIYAhIM") || strings.Contains(raw, "I need to read the file") {
		t.Errorf("Anthropic thinking sent to Gemini: %s", raw)
	}
	contents := g.Requests()[0].JSON(t)["contents"].([]any)
	parts := contents[1].(map[string]any)["parts"].([]any)
	first := parts[1].(map[string]any) // parts[0] is the text
	// "skip_thought_signature_validator", base64: Gemini 3 refuses a first call
	// without any signature.
	if first["thoughtSignature"] != "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=" {
		t.Errorf("first call part = %v", first)
	}
	results := contents[2].(map[string]any)["parts"].([]any)
	if len(results) != 2 {
		t.Errorf("results = %v", results)
	}
}

// Gemini's signatures are not Anthropic's: the thinking is dropped, and thinking
// is turned off while the tool loop that Gemini began runs, since the API wants
// that turn to start with a thinking block of its own.
func TestGeminiThenAnthropic(t *testing.T) {
	g := providertest.New(t, providertest.SSE(geminiToolTurn))
	history := turn(t, vertex.New(vertex.Options{BaseURL: g.URL, APIKey: "k"}), "gemini-3-pro-preview")
	a := providertest.New(t, providertest.SSE(anthropicText))
	call(t, anthropic.New(anthropic.Options{BaseURL: a.URL, APIKey: "k"}),
		llm.Request{Model: "claude-sonnet-4-5", Messages: history, ReasoningEffort: "high"})

	body := a.Requests()[0].JSON(t)
	if _, ok := body["thinking"]; ok {
		t.Errorf("thinking on while a foreign tool loop runs: %v", body["thinking"])
	}
	assistant := body["messages"].([]any)[1].(map[string]any)["content"].([]any)
	for _, b := range assistant {
		if typ := b.(map[string]any)["type"]; typ != "tool_use" {
			t.Errorf("assistant block %v, want only tool_use", b)
		}
	}
	results := body["messages"].([]any)[2].(map[string]any)["content"].([]any)
	for i, r := range results {
		if r.(map[string]any)["tool_use_id"] != assistant[i].(map[string]any)["id"] {
			t.Errorf("result %d answers %v, call is %v", i, r, assistant[i])
		}
	}
}

// OpenAI-compatible ids (Albert, vLLM) are neither Mistral's nor always
// Anthropic's pattern.
func TestOpenAICompatibleThenMistral(t *testing.T) {
	o := providertest.New(t, providertest.SSE("../openaicompat/testdata/three_tool_calls.sse"))
	history := turn(t, openaicompat.New(openaicompat.Options{BaseURL: o.URL}), "qwen")
	m := providertest.New(t, providertest.SSE(mistralText))
	call(t, mistral.New(mistral.Options{BaseURL: m.URL}), llm.Request{Model: "mistral-small-latest", Messages: history})
	msgs := m.Requests()[0].JSON(t)["messages"].([]any)
	calls := msgs[2].(map[string]any)["tool_calls"].([]any)
	for i, c := range calls {
		id := c.(map[string]any)["id"].(string)
		if !nineAlnum.MatchString(id) || msgs[3+i].(map[string]any)["tool_call_id"] != id {
			t.Errorf("call %d id %q, result %v", i, id, msgs[3+i])
		}
	}
}
