package cli

import (
	"bytes"
	"encoding/json"
	"iter"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Lines yields the non-blank lines of out, without their line ends.
func Lines(out []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for line := range bytes.Lines(out) {
			line = bytes.TrimSpace(line)
			if len(line) > 0 && !yield(line) {
				return
			}
		}
	}
}

// isObject reports whether line looks like a JSON object, before paying to decode it.
func isObject(line []byte) bool { return len(line) > 1 && line[0] == '{' }

// TextOf reads message content that is either a string or a list of blocks, keeping
// the text blocks, concatenated.
func TextOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

// usageKeys lists every spelling of each counter seen in the agents' output: Claude
// Code and Codex (snake case), pi (short camel case), OpenAI-style servers.
var usageKeys = []struct {
	names []string
	field func(*backend.Usage) *int64
}{
	{[]string{"input_tokens", "inputTokens", "input", "prompt_tokens"}, func(u *backend.Usage) *int64 { return &u.InputTokens }},
	{[]string{"output_tokens", "outputTokens", "output", "completion_tokens"}, func(u *backend.Usage) *int64 { return &u.OutputTokens }},
	{[]string{"cache_read_input_tokens", "cached_input_tokens", "cacheRead", "cache_read_tokens"}, func(u *backend.Usage) *int64 { return &u.CacheReadTokens }},
	{[]string{"cache_creation_input_tokens", "cache_write_input_tokens", "cacheWrite", "cache_write_tokens"}, func(u *backend.Usage) *int64 { return &u.CacheWriteTokens }},
	{[]string{"reasoning_output_tokens", "reasoning_tokens", "reasoningTokens"}, func(u *backend.Usage) *int64 { return &u.ReasoningTokens }},
}

// UsageFrom reads a usage object under any of the agents' spellings. A "cost" is a
// number or pi's {"total": n}; its currency is the caller's to set.
func UsageFrom(raw json.RawMessage) backend.Usage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return backend.Usage{}
	}
	var u backend.Usage
	for _, k := range usageKeys {
		for _, name := range k.names {
			var n float64
			if v, ok := m[name]; ok && json.Unmarshal(v, &n) == nil {
				*k.field(&u) = int64(n)
				break
			}
		}
	}
	if v, ok := m["cost"]; ok {
		var c float64
		var total struct {
			Total float64 `json:"total"`
		}
		if json.Unmarshal(v, &c) == nil {
			u.Cost = c
		} else if json.Unmarshal(v, &total) == nil {
			u.Cost = total.Total
		}
	}
	return u
}

// CompactJSON returns raw without insignificant spaces, or raw itself if it is not JSON.
func CompactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
