package fakemodel

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAnthropicSDK checks the Messages wire with the official Anthropic
// TypeScript SDK (bench/node_modules, pinned in bench/package-lock.json): its
// stream accumulator rebuilds thinking, text and a fragmented tool_use, and
// its error class reads the status and Anthropic's error envelope. It fails,
// never skips, when Node or the SDK is missing: .ci/run runs npm ci in bench.
func TestAnthropicSDK(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: the Anthropic SDK test needs Node 20+")
	}
	modules, _ := filepath.Abs("../../bench/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@anthropic-ai", "sdk")); err != nil {
		t.Fatalf("@anthropic-ai/sdk is not installed: run `npm ci --prefix bench` (%v)", err)
	}
	turn := Turn{
		Reasoning: []string{"think", "ing"},
		Text:      []string{"Hel", "lo"},
		ToolCalls: []ToolCall{{ID: "toolu_1", Name: "Bash", Arguments: `{"command":"go test ./...","timeout":60}`, Fragments: 5}},
		Usage:     &Usage{PromptTokens: 40, CompletionTokens: 12, CachedTokens: 8},
	}
	s := NewTest(t, Script{Turns: []Turn{turn, turn, AnthropicError(429, "rate_limit_error", "slow down")}})

	// Judgement: Node starts in a fraction of a second; a loaded CI machine may take ten times that.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "testdata/anthropic-sdk.cjs", modules, s.AnthropicURL()).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	type block struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking string          `json:"thinking"`
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Input    json.RawMessage `json:"input"`
	}
	type sdkLine struct {
		Kind    string `json:"kind"`
		Text    string `json:"text"`
		Message struct {
			Content    []block `json:"content"`
			StopReason string  `json:"stop_reason"`
			Usage      struct {
				InputTokens     int `json:"input_tokens"`
				OutputTokens    int `json:"output_tokens"`
				CacheReadTokens int `json:"cache_read_input_tokens"`
			} `json:"usage"`
		} `json:"message"`
		Status     int    `json:"status"`
		Type       string `json:"type"`
		ErrMessage string `json:"errMessage"`
		SDKError   string `json:"sdkError"`
		Error      string `json:"error"`
	}
	var got []sdkLine
	for line := range strings.Lines(string(out)) {
		var l sdkLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("not a JSON line from the SDK script: %q", line)
		}
		got = append(got, l)
	}
	if len(got) != 3 {
		t.Fatalf("the SDK script printed %d lines, want 3:\n%s", len(got), out)
	}
	for _, l := range got[:2] {
		m := l.Message
		want := []block{
			{Type: "thinking", Thinking: "thinking"},
			{Type: "text", Text: "Hello"},
			{Type: "tool_use", ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"go test ./...","timeout":60}`)},
		}
		if len(m.Content) != len(want) {
			t.Fatalf("%s: content %+v", l.Kind, m.Content)
		}
		for i, w := range want {
			g := m.Content[i]
			if g.Type != w.Type || g.Text != w.Text || g.Thinking != w.Thinking || g.ID != w.ID || g.Name != w.Name ||
				(w.Input != nil && compact(t, g.Input) != string(w.Input)) {
				t.Errorf("%s: block %d = %+v (input %s), want %+v", l.Kind, i, g, g.Input, w)
			}
		}
		if m.StopReason != "tool_use" || m.Usage.InputTokens != 40 || m.Usage.OutputTokens != 12 || m.Usage.CacheReadTokens != 8 {
			t.Errorf("%s: stop %q usage %+v", l.Kind, m.StopReason, m.Usage)
		}
	}
	if got[0].Text != "Hello" {
		t.Errorf("streamed text events gave %q", got[0].Text)
	}
	if e := got[2]; e.Status != 429 || e.Type != "rate_limit_error" || e.ErrMessage != "slow down" || e.SDKError != "RateLimitError" {
		t.Errorf("error seen by the SDK: %+v", e)
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("tool input %s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
