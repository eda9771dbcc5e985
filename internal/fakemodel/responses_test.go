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

// respEvent is one Responses SSE event: its event: name and decoded data.
type respEvent struct {
	name string
	data map[string]any
	raw  string
}

// postResponses sends a Responses request; stream picks SSE or one JSON object.
func postResponses(t *testing.T, ctx context.Context, url string, stream bool) *http.Response {
	t.Helper()
	body := fmt.Sprintf(`{"model":"m1","input":[{"role":"user","content":"hi"}],"stream":%t}`, stream)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/responses", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s/responses: %v", url, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readResponsesSSE parses strictly: every event is an event: line, a data: line
// whose "type" repeats the name, and a blank line; sequence numbers count up from 0.
func readResponsesSSE(t *testing.T, r io.Reader) ([]respEvent, error) {
	t.Helper()
	var out []respEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, ok := strings.CutPrefix(sc.Text(), "event: ")
		if !ok {
			return out, fmt.Errorf("want an event: line, got %q", sc.Text())
		}
		if !sc.Scan() {
			return out, fmt.Errorf("event %s has no data line", name)
		}
		payload, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			return out, fmt.Errorf("event %s: want a data: line, got %q", name, sc.Text())
		}
		if !sc.Scan() || sc.Text() != "" {
			return out, fmt.Errorf("event %s not followed by a blank line", name)
		}
		var data map[string]any
		if err := json.Unmarshal([]byte(payload), &data); err != nil {
			return out, fmt.Errorf("event %s data: %v", name, err)
		}
		if data["type"] != name {
			return out, fmt.Errorf("event %s carries type %v", name, data["type"])
		}
		if data["sequence_number"] != float64(len(out)) {
			return out, fmt.Errorf("event %s sequence_number %v, want %d", name, data["sequence_number"], len(out))
		}
		out = append(out, respEvent{name: name, data: data, raw: payload})
	}
	return out, sc.Err()
}

func names(evs []respEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.name)
	}
	return out
}

func joined(evs []respEvent, name, field string) string {
	var b strings.Builder
	for _, e := range evs {
		if e.name == name {
			b.WriteString(e.data[field].(string))
		}
	}
	return b.String()
}

func TestResponsesStreamsReasoningTextAndUsage(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	s := NewTest(t, Script{Turns: []Turn{{
		Reasoning: []string{"hm", "m"}, Text: []string{"Hel", "lo"},
		Usage: &Usage{PromptTokens: 120, CompletionTokens: 9, CachedTokens: 20, ReasoningTokens: 3},
	}}})
	resp := postResponses(t, ctx, s.URL(), true)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("Content-Type = %q", ct)
	}
	evs, err := readResponsesSSE(t, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"response.created", "response.in_progress",
		"response.output_item.added", "response.reasoning_summary_part.added",
		"response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
		"response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
		"response.output_item.added", "response.content_part.added",
		"response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.completed",
	}
	if got := names(evs); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("events:\n got %q\nwant %q", got, want)
	}
	if got := joined(evs, "response.output_text.delta", "delta"); got != "Hello" {
		t.Errorf("text deltas = %q, want Hello", got)
	}
	if got := joined(evs, "response.reasoning_summary_text.delta", "delta"); got != "hmm" {
		t.Errorf("reasoning deltas = %q, want hmm", got)
	}
	final := evs[len(evs)-1].data["response"].(map[string]any)
	if final["status"] != "completed" || final["id"] != "resp_fake_0" || final["model"] != "m1" {
		t.Errorf("final response = %v", final)
	}
	usage := mustJSON(final["usage"])
	wantUsage := `{"input_tokens":120,"input_tokens_details":{"cached_tokens":20},"output_tokens":9,"output_tokens_details":{"reasoning_tokens":3},"total_tokens":129}`
	if usage != wantUsage {
		t.Errorf("usage = %s, want %s", usage, wantUsage)
	}
	output := mustJSON(final["output"])
	if !strings.Contains(output, `"text":"Hello"`) || !strings.Contains(output, `"summary":[{"text":"hmm","type":"summary_text"}]`) {
		t.Errorf("final output lacks the message or the reasoning: %s", output)
	}
}

func TestResponsesFragmentsFunctionCallArguments(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	args := `{"cmd":"sleep 300","workdir":"/tmp"}`
	s := NewTest(t, Script{Turns: []Turn{{ToolCalls: []ToolCall{
		{ID: "call_a", Name: "exec_command", Arguments: args, Fragments: 4},
		{Name: "view_image", Arguments: `{"path":"é.png"}`},
	}}}})
	evs, err := readResponsesSSE(t, postResponses(t, ctx, s.URL(), true).Body)
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	var done []map[string]any
	for _, e := range evs {
		switch e.name {
		case "response.function_call_arguments.delta":
			if e.data["item_id"] == "fc_fake_0_0" {
				deltas = append(deltas, e.data["delta"].(string))
			}
		case "response.output_item.done":
			done = append(done, e.data["item"].(map[string]any))
		}
	}
	if len(deltas) != 4 || strings.Join(deltas, "") != args {
		t.Errorf("first call's argument deltas = %q, want 4 pieces of %s", deltas, args)
	}
	if len(done) != 2 {
		t.Fatalf("%d items done, want 2", len(done))
	}
	first, second := done[0], done[1]
	if first["type"] != "function_call" || first["call_id"] != "call_a" || first["name"] != "exec_command" || first["arguments"] != args {
		t.Errorf("first call = %v", first)
	}
	if second["call_id"] != "call_0_1" || second["arguments"] != `{"path":"é.png"}` {
		t.Errorf("second call = %v (want the default id call_0_1, arguments whole)", second)
	}
}

func TestResponsesStreamFailure(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	s := NewTest(t, Script{Turns: []Turn{
		{Text: []string{"par"}, StreamFailure: &StreamFailure{Code: "insufficient_quota", Message: "quota spent"}},
		{StreamFailure: &StreamFailure{Message: "boom"}},
	}})
	for i, wantCode := range []string{"insufficient_quota", "server_error"} {
		evs, err := readResponsesSSE(t, postResponses(t, ctx, s.URL(), true).Body)
		if err != nil {
			t.Fatal(err)
		}
		last := evs[len(evs)-1]
		if last.name != "response.failed" {
			t.Fatalf("turn %d ends with %s, want response.failed", i, last.name)
		}
		e := last.data["response"].(map[string]any)["error"].(map[string]any)
		if e["code"] != wantCode {
			t.Errorf("turn %d error = %v, want code %s", i, e, wantCode)
		}
	}
}

func TestResponsesHTTPErrorAndNonStreamed(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	s := NewTest(t, Script{Turns: []Turn{
		OpenAIError(400, "bad request: no such model", "invalid_request_error", "model_not_found"),
		{Text: []string{"a", "b"}, ToolCalls: []ToolCall{{Name: "f", Arguments: `{}`}}, Usage: &Usage{PromptTokens: 5, CompletionTokens: 2}},
	}})
	resp := postResponses(t, ctx, s.URL(), true)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"code":"model_not_found"`) {
		t.Errorf("error turn: %d %s", resp.StatusCode, body)
	}
	resp = postResponses(t, ctx, s.URL(), false)
	var got struct {
		Status string `json:"status"`
		Output []struct {
			Type    string `json:"type"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Arguments string `json:"arguments"`
		} `json:"output"`
		Usage struct {
			Total int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "completed" || len(got.Output) != 2 || got.Output[0].Content[0].Text != "ab" ||
		got.Output[1].Type != "function_call" || got.Output[1].Arguments != "{}" || got.Usage.Total != 7 {
		t.Errorf("non-streamed response = %+v", got)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Turn != 0 || reqs[1].Turn != 1 || reqs[1].Path != "/v1/responses" {
		t.Errorf("recorded %+v, want two /v1/responses requests consuming turns 0 and 1", reqs)
	}
}

func TestResponsesDelaysAndDrop(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	turn := Turn{Text: []string{"a", "b"}, ToolCalls: []ToolCall{{Name: "f", Arguments: "{}", Fragments: 1}},
		FirstByteDelay: 20 * time.Millisecond, ChunkDelay: 10 * time.Millisecond}
	s := NewTest(t, Script{Turns: []Turn{turn, {Text: []string{"x"}, Drop: true}}})
	start := time.Now()
	if _, err := readResponsesSSE(t, postResponses(t, ctx, s.URL(), true).Body); err != nil {
		t.Fatal(err)
	}
	if took, want := time.Since(start), turn.Delay(); took < want {
		t.Errorf("the stream took %v, less than the scripted %v", took, want)
	}
	evs, err := readResponsesSSE(t, postResponses(t, ctx, s.URL(), true).Body)
	if err == nil {
		t.Errorf("a dropped stream read cleanly")
	}
	for _, e := range evs {
		if e.name == "response.completed" {
			t.Errorf("a dropped stream sent response.completed")
		}
	}
	waitIdle(t, s)
}
