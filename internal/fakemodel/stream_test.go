package fakemodel

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestStreamFraming(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Reasoning: []string{"hm"}, Text: []string{"Hel", "lo"}}}})
	resp := post(t, t.Context(), s.URL(), chatBody(true, false))
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	got := readSSE(resp.Body)
	if got.err != nil || !got.done {
		t.Fatalf("stream ended with err=%v done=%v, want a clean [DONE]", got.err, got.done)
	}
	// role, reasoning, 2 text deltas, finish
	if len(got.events) != 5 {
		t.Fatalf("got %d events, want 5: %q", len(got.events), got.events)
	}
	var text, reasoning strings.Builder
	for i, e := range got.events {
		c := decodeChunk(t, e)
		if c.Object != "chat.completion.chunk" || c.ID != "chatcmpl-fake-0" || c.Model != "m1" {
			t.Errorf("event %d header = %q %q %q", i, c.Object, c.ID, c.Model)
		}
		if len(c.Choices) != 1 {
			t.Fatalf("event %d has %d choices", i, len(c.Choices))
		}
		ch := c.Choices[0]
		if i == 0 && ch.Delta.Role != "assistant" {
			t.Errorf("first delta role = %q, want assistant", ch.Delta.Role)
		}
		if ch.Delta.Content != nil {
			text.WriteString(*ch.Delta.Content)
		}
		if ch.Delta.ReasoningContent != nil {
			reasoning.WriteString(*ch.Delta.ReasoningContent)
		}
		last := i == len(got.events)-1
		if last != (ch.FinishReason != nil) {
			t.Errorf("event %d finish_reason = %v, want it only on the last event", i, ch.FinishReason)
		}
		if last && *ch.FinishReason != "stop" {
			t.Errorf("finish_reason = %q, want stop", *ch.FinishReason)
		}
	}
	if text.String() != "Hello" || reasoning.String() != "hm" {
		t.Errorf("text %q reasoning %q, want Hello and hm", text.String(), reasoning.String())
	}
}

// assembled is a tool call put back together the way a careful client does:
// by index, or by "a delta with an id starts a new call" when index is absent.
type assembled struct{ id, name, args string }

func assembleToolCalls(t *testing.T, events []string) (calls []assembled, sawIndex bool) {
	t.Helper()
	byIndex := map[int]int{} // wire index -> position in calls
	for _, e := range events {
		for _, ch := range decodeChunk(t, e).Choices {
			for _, tc := range ch.Delta.ToolCalls {
				pos := len(calls) - 1
				switch {
				case tc.Index != nil:
					sawIndex = true
					p, ok := byIndex[*tc.Index]
					if !ok {
						p = len(calls)
						byIndex[*tc.Index] = p
						calls = append(calls, assembled{})
					}
					pos = p
				case tc.ID != "":
					calls = append(calls, assembled{})
					pos = len(calls) - 1
				}
				if pos < 0 {
					t.Fatalf("argument fragment before any call head: %s", e)
				}
				if tc.ID != "" {
					calls[pos].id = tc.ID
				}
				calls[pos].name += tc.Function.Name
				if tc.Function.Arguments != nil {
					calls[pos].args += *tc.Function.Arguments
				}
			}
		}
	}
	return calls, sawIndex
}

func TestToolCallFragmentsReassemble(t *testing.T) {
	t.Parallel()
	calls := []ToolCall{
		{ID: "call_a", Name: "read", Arguments: `{"path":"été/main.go"}`, Fragments: 5},
		{Name: "bash", Arguments: `{"command":"ls -la"}`},
		{ID: "call_c", Name: "noargs"},
	}
	tests := []struct {
		name           string
		turn           Turn
		wantIndex      bool
		wantInterleave bool
	}{
		{"interleaved by default", Turn{ToolCalls: calls}, true, true},
		{"sequential", Turn{ToolCalls: calls, SequentialToolCalls: true}, true, false},
		{"vLLM omits index", Turn{ToolCalls: calls, OmitIndex: true}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewTest(t, Script{Turns: []Turn{tt.turn}})
			resp := post(t, t.Context(), s.URL(), chatBody(true, false))
			defer resp.Body.Close()
			got := readSSE(resp.Body)
			if got.err != nil || !got.done {
				t.Fatalf("stream err=%v done=%v", got.err, got.done)
			}
			asm, sawIndex := assembleToolCalls(t, got.events)
			if sawIndex != tt.wantIndex {
				t.Errorf("index present = %v, want %v", sawIndex, tt.wantIndex)
			}
			want := []assembled{
				{"call_a", "read", calls[0].Arguments},
				{"call_0_1", "bash", calls[1].Arguments},
				{"call_c", "noargs", ""},
			}
			if len(asm) != len(want) {
				t.Fatalf("reassembled %d calls, want %d: %+v", len(asm), len(want), asm)
			}
			for i := range want {
				if asm[i] != want[i] {
					t.Errorf("call %d = %+v, want %+v", i, asm[i], want[i])
				}
			}
			// Fragments per call: head + pieces; the 5-piece call proves splitting happened.
			var heads []string
			for _, e := range got.events {
				for _, ch := range decodeChunk(t, e).Choices {
					for _, tc := range ch.Delta.ToolCalls {
						heads = append(heads, tc.ID)
					}
					if n := len(ch.Delta.ToolCalls); n > 1 {
						t.Errorf("chunk carries %d tool-call fragments, want 1", n)
					}
				}
			}
			if len(heads) != (1+5)+(1+3)+1 {
				t.Errorf("got %d tool-call fragments, want 11", len(heads))
			}
			interleaved := len(heads) > 1 && heads[0] != "" && heads[1] != ""
			if interleaved != tt.wantInterleave {
				t.Errorf("second fragment is a call head = %v, want %v (fragment ids %q)", interleaved, tt.wantInterleave, heads)
			}
			last := decodeChunk(t, got.events[len(got.events)-1]).Choices[0].FinishReason
			if last == nil || *last != "tool_calls" {
				t.Errorf("finish_reason = %v, want tool_calls", last)
			}
		})
	}
}

func TestUsageChunkOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	usage := &Usage{PromptTokens: 11, CompletionTokens: 7}
	tests := []struct {
		name         string
		includeUsage bool
		usage        *Usage
		wantUsage    bool
		wantTotal    int
	}{
		{"asked, scripted", true, usage, true, 18},
		{"asked, unscripted is zero", true, nil, true, 0},
		{"not asked", false, usage, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewTest(t, Script{Turns: []Turn{{Text: []string{"x"}, Usage: tt.usage}}})
			resp := post(t, t.Context(), s.URL(), chatBody(true, tt.includeUsage))
			defer resp.Body.Close()
			got := readSSE(resp.Body)
			if got.err != nil || !got.done {
				t.Fatalf("stream err=%v done=%v", got.err, got.done)
			}
			last := got.events[len(got.events)-1]
			c := decodeChunk(t, last)
			hasUsageChunk := len(c.Choices) == 0 && c.Usage != nil
			if hasUsageChunk != tt.wantUsage {
				t.Fatalf("final chunk %s: usage chunk = %v, want %v", last, hasUsageChunk, tt.wantUsage)
			}
			if tt.wantUsage && c.Usage.TotalTokens != tt.wantTotal {
				t.Errorf("total_tokens = %d, want %d", c.Usage.TotalTokens, tt.wantTotal)
			}
			if !strings.Contains(last, `"choices":[]`) && tt.wantUsage {
				t.Errorf("usage chunk must carry choices: [], got %s", last)
			}
			for _, e := range got.events[:len(got.events)-1] {
				var raw map[string]json.RawMessage
				_ = json.Unmarshal([]byte(e), &raw)
				u, present := raw["usage"]
				// OpenAI: usage is null on every other chunk when asked, absent otherwise.
				if present != tt.includeUsage || present && string(u) != "null" {
					t.Errorf("chunk %s: usage present=%v value=%s, want present=%v and null", e, present, u, tt.includeUsage)
				}
			}
		})
	}
}

func TestNonStreamAlwaysHasUsage(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{
		Text:      []string{"a", "b"},
		ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: `{"x":1}`}},
		Usage:     &Usage{PromptTokens: 3, CompletionTokens: 4},
	}}})
	resp := post(t, t.Context(), s.URL(), chatBody(false, false))
	defer resp.Body.Close()
	var got struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Object != "chat.completion" || len(got.Choices) != 1 {
		t.Fatalf("got %+v", got)
	}
	m := got.Choices[0]
	if m.Message.Content != "ab" || len(m.Message.ToolCalls) != 1 || m.Message.ToolCalls[0].Function.Arguments != `{"x":1}` ||
		m.FinishReason != "tool_calls" || got.Usage.TotalTokens != 7 {
		t.Errorf("got %+v", got)
	}
}

func TestDelays(t *testing.T) {
	t.Parallel()
	turn := Turn{Text: []string{"a", "b"}, FirstByteDelay: 30 * time.Millisecond, ChunkDelay: 20 * time.Millisecond}
	if d := turn.Delay(); d != 70*time.Millisecond {
		t.Fatalf("Delay() = %v, want 70ms", d)
	}
	for _, streamed := range []bool{true, false} {
		s := NewTest(t, Script{Turns: []Turn{turn}})
		start := time.Now()
		resp := post(t, t.Context(), s.URL(), chatBody(streamed, false))
		_ = readSSE(resp.Body)
		resp.Body.Close()
		if el := time.Since(start); el < turn.Delay() {
			t.Errorf("stream=%v answered in %v, want at least %v", streamed, el, turn.Delay())
		}
	}
}

func TestHangReleasedOnClientCancel(t *testing.T) {
	t.Parallel()
	s := NewTest(t, Script{Turns: []Turn{{Text: []string{"partial"}, Hang: true}}})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	resp := post(t, ctx, s.URL(), chatBody(true, false))
	defer resp.Body.Close()

	events := make(chan string, 64)
	result := make(chan stream, 1)
	go func() {
		result <- readSSE(teeEvents{resp.Body, events})
	}()
	// The scripted deltas arrive, then nothing: the server is hanging.
	var seen strings.Builder
	for !strings.Contains(seen.String(), "partial") {
		select {
		case e := <-events:
			seen.WriteString(e)
		case <-ctx.Done():
			t.Fatalf("scripted delta never arrived; saw %q", seen.String())
		}
	}
	select {
	case r := <-result:
		t.Fatalf("stream ended while it should hang: done=%v err=%v", r.done, r.err)
	case <-time.After(150 * time.Millisecond):
	}
	if s.active.Load() != 1 {
		t.Fatalf("active handlers = %d, want 1 hanging", s.active.Load())
	}

	cancel()
	select {
	case r := <-result:
		if r.done || r.err == nil {
			t.Errorf("after cancel: done=%v err=%v, want a broken stream", r.done, r.err)
		}
	case <-time.After(testTimeout):
		t.Fatal("client read did not return after cancel")
	}
	waitIdle(t, s)
}

func TestHangReleasedOnClose(t *testing.T) {
	t.Parallel()
	s, err := Start(Script{Turns: []Turn{{Hang: true}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	resp := post(t, ctx, s.URL(), chatBody(true, false))
	defer resp.Body.Close()

	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close blocked on a hanging answer")
	}
	if got := readSSE(resp.Body); got.done || got.err == nil {
		t.Errorf("after Close: done=%v err=%v, want a broken stream", got.done, got.err)
	}
}

func TestDrop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		stream bool
	}{{"stream", true}, {"non-stream", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewTest(t, Script{Turns: []Turn{{Text: []string{"a", "b"}, Drop: true}}})
			ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
			defer cancel()
			resp, err := postErr(ctx, s.URL(), chatBody(tt.stream, false))
			if !tt.stream {
				if err == nil {
					resp.Body.Close()
					t.Fatalf("non-stream drop answered %s, want a transport error", resp.Status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got := readSSE(resp.Body)
			if got.done || got.err == nil {
				t.Fatalf("done=%v err=%v, want a stream broken before [DONE]", got.done, got.err)
			}
			if len(got.events) != 3 {
				t.Errorf("got %d events before the drop, want role + 2 deltas: %q", len(got.events), got.events)
			}
		})
	}
}

// teeEvents forwards each line read to a channel, so a test can watch a
// stream's progress while another goroutine parses it.
type teeEvents struct {
	r      interface{ Read([]byte) (int, error) }
	events chan<- string
}

func (te teeEvents) Read(p []byte) (int, error) {
	n, err := te.r.Read(p)
	if n > 0 {
		select {
		case te.events <- string(p[:n]):
		default:
		}
	}
	return n, err
}
