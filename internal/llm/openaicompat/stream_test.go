package openaicompat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func TestStreamTextReasoningUsage(t *testing.T) {
	t.Parallel()
	s := newServer(t, sseHandler(
		chunk(`{"role":"assistant","content":""}`, ""),
		": keep-alive",
		chunk(`{"reasoning_content":"Let me "}`, ""),
		// newer vLLM sends both fields with the same text: counted once.
		chunk(`{"reasoning":"think.","reasoning_content":"think."}`, ""),
		chunk(`{"reasoning":" Done."}`, ""),
		textChunk("Hel"),
		textChunk("lo, "),
		chunk(`{"content":"world","reasoning_content":null}`, ""),
		stopChunk("stop"),
		usageChunk(120, 7, 100, 3),
		done,
	))
	events, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "asked-model"})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	want := []llm.StreamEvent{
		{Kind: llm.EventReasoningDelta, Text: "Let me "},
		{Kind: llm.EventReasoningDelta, Text: "think."},
		{Kind: llm.EventReasoningDelta, Text: " Done."},
		{Kind: llm.EventTextDelta, Text: "Hel"},
		{Kind: llm.EventTextDelta, Text: "lo, "},
		{Kind: llm.EventTextDelta, Text: "world"},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v\nwant %+v", events, want)
	}
	wantUsage := llm.Usage{InputTokens: 120, OutputTokens: 7, CachedInputTokens: 100, ReasoningTokens: 3}
	wantMsg := llm.Message{Role: llm.RoleAssistant, Content: "Hello, world", Reasoning: "Let me think. Done.",
		Model: "served-model", Usage: &wantUsage}
	if !reflect.DeepEqual(resp.Message, wantMsg) || resp.Usage != wantUsage || resp.FinishReason != "stop" {
		t.Errorf("response = %+v (usage %+v), want message %+v, usage %+v, finish stop", resp, resp.Usage, wantMsg, wantUsage)
	}
}

// toolDelta is one tool_calls fragment; a negative index leaves the field out, as
// vLLM does.
func toolDelta(index int, id, name, args string) string {
	fields := []string{}
	if index >= 0 {
		fields = append(fields, fmt.Sprintf(`"index":%d`, index))
	}
	if id != "" {
		fields = append(fields, `"id":`+js(id), `"type":"function"`)
	}
	fn := []string{}
	if name != "" {
		fn = append(fn, `"name":`+js(name))
	}
	fn = append(fn, `"arguments":`+js(args))
	fields = append(fields, `"function":{`+strings.Join(fn, ",")+`}`)
	return chunk(`{"tool_calls":[{`+strings.Join(fields, ",")+`}]}`, "")
}

func TestStreamParallelToolCalls(t *testing.T) {
	t.Parallel()
	argsA := `{"path": "internal/llm/message.go", "limit": 200}`
	argsB := `{"pattern": "func New", "glob": "**/*.go"}`
	payloads := []string{textChunk("Reading both."),
		toolDelta(0, "call_a", "read_file", ""),
		toolDelta(1, "call_b", "grep", ""),
	}
	// Interleave the two calls' arguments in 3-byte fragments, as OpenAI does.
	fa, fb := fragments(argsA, 3), fragments(argsB, 3)
	for i := 0; i < max(len(fa), len(fb)); i++ {
		if i < len(fa) {
			payloads = append(payloads, toolDelta(0, "", "", fa[i]))
		}
		if i < len(fb) {
			payloads = append(payloads, toolDelta(1, "", "", fb[i]))
		}
	}
	payloads = append(payloads, stopChunk("tool_calls"), usageChunk(10, 20, 0, 0), done)
	s := newServer(t, sseHandler(payloads...))

	events, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "m"})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	wantCalls := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: argsA},
		{ID: "call_b", Name: "grep", Arguments: argsB},
	}
	if !reflect.DeepEqual(resp.Message.ToolCalls, wantCalls) || resp.FinishReason != "tool_calls" {
		t.Fatalf("tool calls = %+v finish %q, want %+v", resp.Message.ToolCalls, resp.FinishReason, wantCalls)
	}
	checkCallEvents(t, events, wantCalls)
	deltas := 0
	for _, e := range events {
		if e.Kind == llm.EventToolCallDelta {
			deltas++
		}
	}
	if n := deltas; n != len(fa)+len(fb) {
		t.Errorf("arguments came in %d delta events, want them streamed fragment by fragment", n)
	}
}

// checkCallEvents verifies that each call is announced once, before its argument
// deltas, and that the deltas add up to its arguments.
func checkCallEvents(t *testing.T, events []llm.StreamEvent, want []llm.ToolCall) {
	t.Helper()
	started := map[int]bool{}
	for _, e := range events {
		switch e.Kind {
		case llm.EventToolCallStart:
			if started[e.Index] || e.Index >= len(want) || e.ID != want[e.Index].ID || e.Name != want[e.Index].Name {
				t.Errorf("unexpected start %+v", e)
			}
			started[e.Index] = true
		case llm.EventToolCallDelta:
			if !started[e.Index] {
				t.Errorf("argument delta %+v before its start", e)
			}
		}
	}
	args := argsByIndex(events)
	for i, c := range want {
		if !started[i] || args[i] != c.Arguments {
			t.Errorf("call %d: started %v, streamed arguments %q, want %q", i, started[i], args[i], c.Arguments)
		}
	}
}

func TestStreamToolCallsWithoutIndex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		payloads []string
		want     []llm.ToolCall
	}{
		{
			name: "vLLM: no index, id on the first fragment of each call",
			payloads: []string{
				toolDelta(-1, "chatcmpl-tool-1", "ls", `{"dir"`),
				toolDelta(-1, "", "", `: "src"}`),
				toolDelta(-1, "chatcmpl-tool-2", "cat", `{"file": `),
				toolDelta(-1, "", "", `"a.go"}`),
			},
			want: []llm.ToolCall{
				{ID: "chatcmpl-tool-1", Name: "ls", Arguments: `{"dir": "src"}`},
				{ID: "chatcmpl-tool-2", Name: "cat", Arguments: `{"file": "a.go"}`},
			},
		},
		{
			name: "no index, interleaved fragments that repeat their id",
			payloads: []string{
				toolDelta(-1, "A", "ls", `{"dir":`),
				toolDelta(-1, "B", "cat", `{"file":`),
				toolDelta(-1, "A", "", `"src"}`),
				toolDelta(-1, "B", "", `"a.go"}`),
			},
			want: []llm.ToolCall{
				{ID: "A", Name: "ls", Arguments: `{"dir":"src"}`},
				{ID: "B", Name: "cat", Arguments: `{"file":"a.go"}`},
			},
		},
		{
			name: "every call numbered 0 with distinct ids",
			payloads: []string{
				toolDelta(0, "id-1", "ls", `{}`),
				toolDelta(0, "id-2", "pwd", `{}`),
			},
			want: []llm.ToolCall{{ID: "id-1", Name: "ls", Arguments: `{}`}, {ID: "id-2", Name: "pwd", Arguments: `{}`}},
		},
		{
			name: "whole call in one fragment, name repeated in every fragment",
			payloads: []string{
				toolDelta(0, "id-1", "bash", `{"command":`),
				toolDelta(0, "", "bash", `"ls"}`),
			},
			want: []llm.ToolCall{{ID: "id-1", Name: "bash", Arguments: `{"command":"ls"}`}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			payloads := append(append([]string{}, tc.payloads...), stopChunk("tool_calls"), done)
			s := newServer(t, sseHandler(payloads...))
			events, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "m"})
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if !reflect.DeepEqual(resp.Message.ToolCalls, tc.want) {
				t.Fatalf("tool calls = %+v, want %+v", resp.Message.ToolCalls, tc.want)
			}
			checkCallEvents(t, events, tc.want)
		})
	}
}

func TestStreamMissingToolCallID(t *testing.T) {
	t.Parallel()
	s := newServer(t, sseHandler(toolDelta(0, "", "ls", `{}`), stopChunk("tool_calls"), done))
	_, resp, err := collect(t, s.provider(Options{}), llm.Request{Model: "m"})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if calls := resp.Message.ToolCalls; len(calls) != 1 || !strings.HasPrefix(calls[0].ID, "call_") || len(calls[0].ID) != len("call_")+12 {
		t.Fatalf("tool calls = %+v, want one with a generated call_<12 hex> id", calls)
	}
}

func TestStreamXMLToolCalls(t *testing.T) {
	t.Parallel()
	xml := "I will list it.\n<tool_call>\n<function=ls>\n<parameter=dir>\nsrc\n</parameter>\n" +
		"<parameter=depth>\n2\n</parameter>\n</function>\n</tool_call>\n" +
		"<function=write_file><parameter=path>42</parameter><parameter=content>{\"a\": 1}</parameter></function></tool_call>"
	var payloads []string
	for _, f := range fragments(xml, 2) {
		payloads = append(payloads, textChunk(f))
	}
	payloads = append(payloads, toolDelta(0, "native-1", "pwd", `{}`), stopChunk("stop"), usageChunk(1, 1, 0, 0), done)
	writeSchema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}`)
	req := llm.Request{Model: "Qwen/Qwen3-Coder-30B-A3B-Instruct", Tools: []llm.ToolSpec{{Name: "write_file", Parameters: writeSchema}}}

	t.Run("on", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, sseHandler(payloads...))
		events, resp, err := collect(t, s.provider(Options{XMLToolCalls: true}), req)
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		if text := textOf(events, llm.EventTextDelta); text != "I will list it.\n\n" || text != resp.Message.Content {
			t.Errorf("streamed text %q, content %q; want the prose without XML", text, resp.Message.Content)
		}
		calls := resp.Message.ToolCalls
		if len(calls) != 3 {
			t.Fatalf("tool calls = %+v, want 3", calls)
		}
		want := []llm.ToolCall{
			{ID: calls[0].ID, Name: "ls", Arguments: `{"dir":"src","depth":2}`},
			{ID: calls[1].ID, Name: "write_file", Arguments: `{"path":"42","content":"{\"a\": 1}"}`},
			{ID: "native-1", Name: "pwd", Arguments: `{}`},
		}
		if !reflect.DeepEqual(calls, want) {
			t.Errorf("tool calls = %+v\nwant %+v", calls, want)
		}
		for _, c := range calls[:2] {
			if !strings.HasPrefix(c.ID, "call_xml_") {
				t.Errorf("recovered call id %q, want call_xml_ prefix", c.ID)
			}
		}
		if calls[0].ID == calls[1].ID {
			t.Errorf("recovered calls share id %q", calls[0].ID)
		}
		checkCallEvents(t, events, want)
		if resp.FinishReason != "tool_calls" {
			t.Errorf("finish = %q, want tool_calls once calls were recovered", resp.FinishReason)
		}
	})
	t.Run("off leaves the text alone", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, sseHandler(payloads...))
		_, resp, err := collect(t, s.provider(Options{}), req)
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		if resp.Message.Content != xml || len(resp.Message.ToolCalls) != 1 || resp.FinishReason != "stop" {
			t.Errorf("content %q, calls %+v, finish %q; want the raw XML text and only the native call",
				resp.Message.Content, resp.Message.ToolCalls, resp.FinishReason)
		}
	})
	t.Run("truncated call at the end of the stream", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, sseHandler(
			textChunk("<tool_call><function=ls><parameter=dir>src</parameter><parameter=de"),
			stopChunk("length"), done))
		_, resp, err := collect(t, s.provider(Options{XMLToolCalls: true}), req)
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		if c := resp.Message.ToolCalls; len(c) != 1 || c[0].Name != "ls" || c[0].Arguments != `{"dir":"src"}` || resp.Message.Content != "" {
			t.Errorf("calls %+v content %q; want ls {dir: src} and no text", c, resp.Message.Content)
		}
	})
}
