package fakemodel

import (
	"errors"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// The official Go SDK is the reference client: if its accumulator rebuilds
// the scripted turn, our wire format is what OpenAI clients expect.

func sdkClient(s *Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(s.URL()), option.WithAPIKey("k"), option.WithMaxRetries(0))
}

func sdkParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:         "qwen3-coder",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("read main.go")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
}

func TestOpenAISDKStreamAccumulates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		turn Turn
	}{
		{"interleaved", Turn{}},
		{"sequential", Turn{SequentialToolCalls: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			turn := tt.turn
			turn.Reasoning = []string{"need ", "the file"}
			turn.Text = []string{"Reading ", "two ", "files."}
			turn.ToolCalls = []ToolCall{
				{ID: "call_1", Name: "read", Arguments: `{"path":"main.go","limit":200}`, Fragments: 7},
				{ID: "call_2", Name: "bash", Arguments: `{"command":"go test ./..."}`},
			}
			turn.Usage = &Usage{PromptTokens: 1200, CompletionTokens: 40, CachedTokens: 1024}
			s := NewTest(t, Script{Turns: []Turn{turn}})

			client := sdkClient(s)
			stream := client.Chat.Completions.NewStreaming(t.Context(), sdkParams())
			var acc openai.ChatCompletionAccumulator
			var reasoning string
			for stream.Next() {
				chunk := stream.Current()
				if !acc.AddChunk(chunk) {
					t.Fatalf("accumulator rejected chunk %s", chunk.RawJSON())
				}
				if len(chunk.Choices) > 0 {
					if f, ok := chunk.Choices[0].Delta.JSON.ExtraFields["reasoning_content"]; ok {
						var part string
						if err := unmarshalString(f.Raw(), &part); err != nil {
							t.Fatal(err)
						}
						reasoning += part
					}
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("stream: %v", err)
			}
			if len(acc.Choices) != 1 {
				t.Fatalf("accumulated %d choices", len(acc.Choices))
			}
			msg := acc.Choices[0].Message
			if msg.Content != "Reading two files." || reasoning != "need the file" {
				t.Errorf("content %q reasoning %q", msg.Content, reasoning)
			}
			if len(msg.ToolCalls) != 2 {
				t.Fatalf("accumulated %d tool calls, want 2: %+v", len(msg.ToolCalls), msg.ToolCalls)
			}
			for i, want := range turn.ToolCalls {
				got := msg.ToolCalls[i]
				if got.ID != want.ID || got.Function.Name != want.Name || got.Function.Arguments != want.Arguments {
					t.Errorf("tool call %d = %s %s %s, want %s %s %s", i,
						got.ID, got.Function.Name, got.Function.Arguments, want.ID, want.Name, want.Arguments)
				}
			}
			if acc.Choices[0].FinishReason != "tool_calls" {
				t.Errorf("finish_reason = %q", acc.Choices[0].FinishReason)
			}
			u := acc.Usage
			if u.PromptTokens != 1200 || u.CompletionTokens != 40 || u.TotalTokens != 1240 || u.PromptTokensDetails.CachedTokens != 1024 {
				t.Errorf("usage = %+v", u)
			}
			if acc.Model != "qwen3-coder" {
				t.Errorf("model = %q, want the requested model echoed", acc.Model)
			}
		})
	}
}

func TestOpenAISDKNonStream(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"po", "ng"}, Usage: &Usage{PromptTokens: 5, CompletionTokens: 1}}}})
	client := sdkClient(s)
	res, err := client.Chat.Completions.New(t.Context(), sdkParams())
	if err != nil {
		t.Fatal(err)
	}
	if res.Choices[0].Message.Content != "pong" || res.Choices[0].FinishReason != "stop" || res.Usage.TotalTokens != 6 {
		t.Errorf("got %s", res.RawJSON())
	}
}

func TestOpenAISDKSeesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		turn       Turn
		wantStatus int
		wantCode   string
	}{
		{"OpenAI envelope", OpenAIError(429, "slow down", "requests", "rate_limit_exceeded"), 429, "rate_limit_exceeded"},
		{"Albert detail", AlbertError(503, "Model is too busy, please try again later.").WithHeader("Retry-After", "10"), 503, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewTest(t, Script{Turns: []Turn{tt.turn}})
			client := sdkClient(s)
			stream := client.Chat.Completions.NewStreaming(t.Context(), sdkParams())
			for stream.Next() {
				t.Fatal("got a chunk from an error answer")
			}
			var apiErr *openai.Error
			if !errors.As(stream.Err(), &apiErr) {
				t.Fatalf("stream error %v is not an *openai.Error", stream.Err())
			}
			if apiErr.StatusCode != tt.wantStatus || apiErr.Code != tt.wantCode {
				t.Errorf("status %d code %q, want %d %q", apiErr.StatusCode, apiErr.Code, tt.wantStatus, tt.wantCode)
			}
			if len(s.Requests()) != 1 {
				t.Errorf("SDK sent %d requests, want 1 (retries are off)", len(s.Requests()))
			}
		})
	}
}

func TestOpenAISDKScriptExhausted(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{})
	// Default retries: x-should-retry: false must stop the SDK from retrying.
	client := openai.NewClient(option.WithBaseURL(s.URL()), option.WithAPIKey("k"))
	_, err := client.Chat.Completions.New(t.Context(), sdkParams())
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || apiErr.Message != "fake model: script exhausted after 0 requests" {
		t.Fatalf("err = %v, want the exhausted-script 500", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("SDK sent %d requests, want 1", n)
	}
}
