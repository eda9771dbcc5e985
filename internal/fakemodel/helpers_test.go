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

// testTimeout bounds every wait in these tests, so a broken hang or drop fails
// the test instead of stalling the suite.
const testTimeout = 5 * time.Second

// post sends a chat request and fails the test on transport errors.
func post(t *testing.T, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	resp, err := postErr(ctx, url, body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp
}

func postErr(ctx context.Context, url, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultClient.Do(req)
}

func chatBody(stream, includeUsage bool) string {
	b := map[string]any{"model": "m1", "messages": []any{map[string]any{"role": "user", "content": "hi"}}, "stream": stream}
	if includeUsage {
		b["stream_options"] = map[string]any{"include_usage": true}
	}
	out, _ := json.Marshal(b)
	return string(out)
}

// stream is a parsed SSE body: the data payloads before [DONE], whether
// [DONE] arrived, and the read error that ended it, if any.
type stream struct {
	events []string
	done   bool
	err    error
}

// readSSE parses strictly: every event must be exactly one "data: " line
// followed by a blank line, and nothing may follow [DONE].
func readSSE(r io.Reader) stream {
	var s stream
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if s.done {
			s.err = fmt.Errorf("data after [DONE]: %q", line)
			return s
		}
		payload, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			s.err = fmt.Errorf("want a data: line, got %q", line)
			return s
		}
		if !sc.Scan() || sc.Text() != "" {
			s.err = fmt.Errorf("event %q not followed by a blank line", payload)
			return s
		}
		if payload == "[DONE]" {
			s.done = true
			continue
		}
		s.events = append(s.events, payload)
	}
	s.err = sc.Err()
	return s
}

// wireChunk decodes a chunk independently of the server's own types, with
// pointers where absence and null must be told apart.
type wireChunkTest struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string  `json:"name"`
					Arguments *string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

func decodeChunk(t *testing.T, payload string) wireChunkTest {
	t.Helper()
	var c wireChunkTest
	if err := json.Unmarshal([]byte(payload), &c); err != nil {
		t.Fatalf("decode chunk %s: %v", payload, err)
	}
	return c
}

// waitIdle waits until no handler is running, proving a hang was released.
func waitIdle(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for s.active.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d handlers still running after %v", s.active.Load(), testTimeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func unmarshalString(raw string, out *string) error {
	return json.Unmarshal([]byte(raw), out)
}
