package vertex

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

const testTimeout = 10 * time.Second

func newProvider(s *providertest.Server) *Provider {
	return New(Options{BaseURL: s.URL, APIKey: "gemini-key", Timeout: testTimeout})
}

func stream(t *testing.T, p llm.Provider, req llm.Request) (*llm.Response, []llm.StreamEvent, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	var events []llm.StreamEvent
	resp, err := p.Stream(ctx, req, func(e llm.StreamEvent) { events = append(events, e) })
	return resp, events, err
}

func hello() llm.Request {
	return llm.Request{Model: "gemini-2.5-flash", Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "Be brief."},
		{Role: llm.RoleUser, Content: "Hello"},
	}}
}

func TestStreamTextWithThoughts(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	req := hello()
	req.ReasoningEffort = "medium"
	temp := 0.5
	req.Temperature = &temp
	req.MaxTokens = 1000
	resp, events, err := stream(t, newProvider(s), req)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.StreamEvent{
		{Kind: llm.EventReasoningDelta, Text: "**Greeting** The user says hello."},
		{Kind: llm.EventTextDelta, Text: "Hello"},
		{Kind: llm.EventTextDelta, Text: " there!"},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v", events)
	}
	m := resp.Message
	if m.Content != "Hello there!" || m.Reasoning != "**Greeting** The user says hello." || resp.FinishReason != "stop" {
		t.Errorf("response = %+v", resp)
	}
	if want := (llm.Usage{InputTokens: 8, OutputTokens: 33, CachedInputTokens: 2, ReasoningTokens: 30}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	if got := decodeSignatures(m.ReasoningSignature); got.Text != "Cp0BAdHtim9dnHc6tWzG" {
		t.Errorf("signature %q", m.ReasoningSignature)
	}

	r := s.Requests()[0]
	if r.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || r.Query != "alt=sse" ||
		r.Header.Get("X-Goog-Api-Key") != "gemini-key" {
		t.Errorf("request %s?%s %v", r.Path, r.Query, r.Header)
	}
	body := r.JSON(t)
	wantBody := `{"contents":[{"parts":[{"text":"Hello"}],"role":"user"}],` +
		`"generationConfig":{"maxOutputTokens":1000,"temperature":0.5,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":8192}},` +
		`"systemInstruction":{"parts":[{"text":"Be brief."}],"role":"user"}}`
	if got := canonicalJSON(t, body); got != wantBody {
		t.Errorf("body:\n got %s\nwant %s", got, wantBody)
	}
}

func canonicalJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// Function calls arrive whole and without ids; the next request sends each back
// with its thought signature, and the results by name.
func TestFunctionCallsAndSignaturesSentBack(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/function_calls.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := hello()
	req.Tools = []llm.ToolSpec{
		{Name: "read_file", Description: "Reads a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "list_todos", Description: "Lists todos."},
	}
	resp, events, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || calls[0].Name != "read_file" || calls[0].Arguments != `{"path":"main.go"}` ||
		calls[1].Arguments != "{}" || calls[0].ID == "" || calls[0].ID == calls[1].ID {
		t.Fatalf("calls = %+v", calls)
	}
	if resp.FinishReason != "tool_calls" || len(events) != 4 {
		t.Errorf("finish %q, events %+v", resp.FinishReason, events)
	}
	req.Messages = append(req.Messages, resp.Message,
		llm.Message{Role: llm.RoleTool, ToolCallID: calls[0].ID, Content: "package main"},
		llm.Message{Role: llm.RoleTool, ToolCallID: calls[1].ID, Content: "no todos", IsError: true})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	body := s.Requests()[1].JSON(t)
	contents := body["contents"].([]any)
	model := canonicalJSON(t, contents[1])
	wantModel := `{"parts":[{"functionCall":{"args":{"path":"main.go"},"id":"` + calls[0].ID + `","name":"read_file"},"thoughtSignature":"CiQBVKhc7oHtYhP0aF1t"},` +
		`{"functionCall":{"id":"` + calls[1].ID + `","name":"list_todos"}}],"role":"model"}`
	if model != wantModel {
		t.Errorf("model turn:\n got %s\nwant %s", model, wantModel)
	}
	results := canonicalJSON(t, contents[2])
	wantResults := `{"parts":[{"functionResponse":{"id":"` + calls[0].ID + `","name":"read_file","response":{"output":"package main"}}},` +
		`{"functionResponse":{"id":"` + calls[1].ID + `","name":"list_todos","response":{"error":"no todos"}}}],"role":"user"}`
	if results != wantResults {
		t.Errorf("results:\n got %s\nwant %s", results, wantResults)
	}
	tools := canonicalJSON(t, body["tools"])
	wantTools := `[{"functionDeclarations":[{"description":"Reads a file.","name":"read_file","parametersJsonSchema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}},` +
		`{"description":"Lists todos.","name":"list_todos"}]}]`
	if tools != wantTools {
		t.Errorf("tools:\n got %s\nwant %s", tools, wantTools)
	}
	if got := canonicalJSON(t, body["toolConfig"]); got != `{"functionCallingConfig":{"mode":"AUTO"}}` {
		t.Errorf("toolConfig = %s", got)
	}
}

func TestToolChoice(t *testing.T) {
	tools := []llm.ToolSpec{{Name: "a"}, {Name: "b"}}
	for choice, want := range map[llm.ToolChoice]string{
		{Mode: llm.ToolChoiceNone}:                `{"mode":"NONE"}`,
		{Mode: llm.ToolChoiceRequired}:            `{"mode":"ANY"}`,
		{Mode: llm.ToolChoiceFunction, Name: "b"}: `{"allowedFunctionNames":["b"],"mode":"ANY"}`,
	} {
		cfg, err := buildRequest(llm.Request{Tools: tools, ToolChoice: choice})
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalJSON(t, cfg.ToolConfig.FunctionCallingConfig); got != want {
			t.Errorf("%+v: %s, want %s", choice, got, want)
		}
	}
	if _, err := buildRequest(llm.Request{Tools: []llm.ToolSpec{{Name: "x", Parameters: json.RawMessage(`"str"`)}}}); err == nil {
		t.Error("a schema that is not an object was accepted")
	}
}

// Vertex AI with a bearer token: the project's path, the token, no API key.
func TestVertexWithAccessToken(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	p := New(Options{BaseURL: s.URL, Project: "my-proj", Location: "europe-west9", AccessToken: "ya29.token", Timeout: testTimeout})
	if _, _, err := stream(t, p, hello()); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if r.Path != "/v1beta1/projects/my-proj/locations/europe-west9/publishers/google/models/gemini-2.5-flash:streamGenerateContent" ||
		r.Header.Get("Authorization") != "Bearer ya29.token" || r.Header.Get("X-Goog-Api-Key") != "" {
		t.Errorf("request %s %v", r.Path, r.Header)
	}
}

// A text answer's signature goes back on its text part; the thought summary,
// which Gemini does not need, is not sent.
func TestTextSignatureSentBack(t *testing.T) {
	s := providertest.New(t, providertest.SSE("testdata/text.sse"), providertest.SSE("testdata/text.sse"))
	p := newProvider(s)
	req := hello()
	resp, _, err := stream(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: "Again"})
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatal(err)
	}
	contents := s.Requests()[1].JSON(t)["contents"].([]any)
	want := `{"parts":[{"text":"Hello there!","thoughtSignature":"Cp0BAdHtim9dnHc6tWzG"}],"role":"model"}`
	if got := canonicalJSON(t, contents[1]); got != want {
		t.Errorf("model turn:\n got %s\nwant %s", got, want)
	}
}
