package fakemodel

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func postMessages(t *testing.T, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp
}

func messagesBody(stream bool) string {
	return fmt.Sprintf(`{"model":"claude-test","max_tokens":1024,"stream":%t,"messages":[{"role":"user","content":"hi"}]}`, stream)
}

// sseEvent is one named event of an Anthropic stream.
type sseEvent struct {
	name string
	data map[string]any
}

// readAnthropicSSE parses strictly: every event is an "event:" line, a "data:"
// line whose JSON "type" repeats the event name, then a blank line.
func readAnthropicSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, ok := strings.CutPrefix(sc.Text(), "event: ")
		if !ok {
			t.Fatalf("want an event: line, got %q", sc.Text())
		}
		if !sc.Scan() {
			t.Fatalf("event %s has no data line", name)
		}
		payload, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			t.Fatalf("event %s: want a data: line, got %q", name, sc.Text())
		}
		if !sc.Scan() || sc.Text() != "" {
			t.Fatalf("event %s not followed by a blank line", name)
		}
		var data map[string]any
		if err := json.Unmarshal([]byte(payload), &data); err != nil {
			t.Fatalf("event %s: %v", name, err)
		}
		if data["type"] != name {
			t.Fatalf("event %s carries type %v", name, data["type"])
		}
		out = append(out, sseEvent{name, data})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read stream: %v", err)
	}
	return out
}

func TestAnthropicStream(t *testing.T) {
	t.Parallel()
	turn := Turn{
		Reasoning: []string{"let me ", "think"},
		Text:      []string{"Running ", "a command."},
		ToolCalls: []ToolCall{{ID: "toolu_1", Name: "Bash", Arguments: `{"command":"ls -la"}`, Fragments: 4}, {Name: "Read", Arguments: `{"path":"é.go"}`}},
		Usage:     &Usage{PromptTokens: 120, CompletionTokens: 30, CachedTokens: 100},
	}
	s := NewTest(t, Script{Turns: []Turn{turn}})
	resp := postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages?beta=true", messagesBody(true))
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("Content-Type = %q", ct)
	}
	evs := readAnthropicSSE(t, resp.Body)
	var names []string
	for _, e := range evs {
		names = append(names, e.name)
	}
	wantNames := "message_start " +
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_stop " + // thinking + signature
		"content_block_start content_block_delta content_block_delta content_block_stop " + // text
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_delta content_block_stop " + // Bash, 4 pieces
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_stop " + // Read, 3 pieces
		"message_delta message_stop"
	if got := strings.Join(names, " "); got != wantNames {
		t.Fatalf("events:\n%s\nwant:\n%s", got, wantNames)
	}
	start := evs[0].data["message"].(map[string]any)
	if start["id"] != "msg_fake_0" || start["model"] != "claude-test" || start["role"] != "assistant" || start["stop_reason"] != nil {
		t.Errorf("message_start = %v", start)
	}
	// Rebuild each block as a client does, by index.
	type block struct {
		typ, text, id, name string
	}
	blocks := map[int]*block{}
	for _, e := range evs {
		idx, _ := e.data["index"].(float64)
		switch e.name {
		case "content_block_start":
			cb := e.data["content_block"].(map[string]any)
			b := &block{typ: cb["type"].(string)}
			b.id, _ = cb["id"].(string)
			b.name, _ = cb["name"].(string)
			blocks[int(idx)] = b
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			b := blocks[int(idx)]
			switch d["type"] {
			case "text_delta":
				b.text += d["text"].(string)
			case "thinking_delta":
				b.text += d["thinking"].(string)
			case "input_json_delta":
				b.text += d["partial_json"].(string)
			case "signature_delta":
			default:
				t.Errorf("unexpected delta %v", d)
			}
		}
	}
	want := []block{
		{typ: "thinking", text: "let me think"},
		{typ: "text", text: "Running a command."},
		{typ: "tool_use", text: `{"command":"ls -la"}`, id: "toolu_1", name: "Bash"},
		{typ: "tool_use", text: `{"path":"é.go"}`, id: "toolu_fake_0_1", name: "Read"},
	}
	for i, w := range want {
		if b := blocks[i]; b == nil || *b != w {
			t.Errorf("block %d = %+v, want %+v", i, b, w)
		}
	}
	md := evs[len(evs)-2].data
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Errorf("message_delta = %v", md)
	}
	u := md["usage"].(map[string]any)
	if u["input_tokens"] != 120.0 || u["output_tokens"] != 30.0 || u["cache_read_input_tokens"] != 100.0 {
		t.Errorf("usage = %v", u)
	}
}

func TestAnthropicNonStream(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{
		{Text: []string{"po", "ng"}, Usage: &Usage{PromptTokens: 5, CompletionTokens: 1}},
		{ToolCalls: []ToolCall{{ID: "toolu_9", Name: "Bash", Arguments: `{"command":"true"}`}}},
		{Text: []string{"cut"}, FinishReason: "length"},
	}})
	want := []string{
		`{"id":"msg_fake_0","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"pong"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}`,
		`{"id":"msg_fake_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"toolu_9","name":"Bash","input":{"command":"true"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}}`,
		`{"id":"msg_fake_2","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"cut"}],"stop_reason":"max_tokens","stop_sequence":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}}`,
	}
	for i, w := range want {
		resp := postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages", messagesBody(false))
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != w {
			t.Errorf("answer %d: %d %s\nwant %s", i, resp.StatusCode, body, w)
		}
	}
}

func TestAnthropicErrors(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{
		AnthropicError(400, "invalid_request_error", "Output blocked by content filtering policy").WithHeader("x-should-retry", "false"),
	}})
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"scripted, even when streaming", "POST", "/v1/messages?beta=true", messagesBody(true), 400,
			`{"error":{"message":"Output blocked by content filtering policy","type":"invalid_request_error"},"type":"error"}`},
		{"script exhausted", "POST", "/v1/messages", messagesBody(true), 500,
			`{"error":{"message":"fake model: script exhausted after 1 requests","type":"api_error"},"type":"error"}`},
		{"not JSON", "POST", "/v1/messages", "{", 400,
			`{"error":{"message":"fake model: request body is not a JSON object: unexpected end of JSON input","type":"invalid_request_error"},"type":"error"}`},
		{"wrong method", "GET", "/v1/messages", "", 405,
			`{"error":{"message":"fake model: method GET not allowed on /v1/messages","type":"invalid_request_error"},"type":"error"}`},
	}
	// In order: the first consumes the only turn, the second finds none left.
	for _, tt := range tests {
		req, _ := http.NewRequestWithContext(t.Context(), tt.method, s.AnthropicURL()+tt.path, strings.NewReader(tt.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || string(body) != tt.want {
			t.Errorf("%s: %d %s\nwant %d %s", tt.name, resp.StatusCode, body, tt.status, tt.want)
		}
		if resp.Header.Get("request-id") == "" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: headers %v", tt.name, resp.Header)
		}
	}
}

func TestAnthropicCountTokensConsumesNoTurn(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"ok"}}}})
	resp := postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages/count_tokens?beta=true", messagesBody(false))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var got struct {
		InputTokens int `json:"input_tokens"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil || got.InputTokens <= 0 {
		t.Fatalf("count_tokens: %d %s", resp.StatusCode, body)
	}
	resp = postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages", messagesBody(false))
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the turn was consumed by count_tokens: %d", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Turn != -1 || reqs[1].Turn != 0 || reqs[0].Path != "/v1/messages/count_tokens" {
		t.Errorf("recorded %+v", reqs)
	}
	if reqs[1].JSON["model"] != "claude-test" || reqs[1].Header.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("recorded request lost its body or headers: %+v", reqs[1])
	}
}

func TestAnthropicDelaysHangAndDrop(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{
		{Text: []string{"a", "b"}, FirstByteDelay: 50 * time.Millisecond, ChunkDelay: 30 * time.Millisecond},
		{Text: []string{"partial"}, Drop: true},
		{Text: []string{"partial"}, Hang: true},
	}})
	begin := time.Now()
	resp := postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages", messagesBody(true))
	evs := readAnthropicSSE(t, resp.Body)
	resp.Body.Close()
	if took := time.Since(begin); took < 110*time.Millisecond || evs[len(evs)-1].name != "message_stop" {
		t.Errorf("delayed turn took %v (want ≥ 110ms) and ended with %s", took, evs[len(evs)-1].name)
	}

	resp = postMessages(t, t.Context(), s.AnthropicURL()+"/v1/messages", messagesBody(true))
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || strings.Contains(string(body), "message_stop") || !strings.Contains(string(body), "partial") {
		t.Errorf("dropped stream: err %v, body %s", err, body)
	}

	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	hangCtx, stop := context.WithCancel(ctx)
	resp = postMessages(t, hangCtx, s.AnthropicURL()+"/v1/messages", messagesBody(true))
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	if line != "event: message_start\n" {
		t.Errorf("hanging stream began with %q", line)
	}
	stop()
	resp.Body.Close()
	waitIdle(t, s)
}
