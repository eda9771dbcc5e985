package fakemodel

import (
	"fmt"
	"unicode/utf8"
)

// deltas turns a scripted turn into the ordered list of streamed deltas:
// reasoning, then text, then tool-call fragments. turnIndex only feeds default
// tool-call ids.
func (t Turn) deltas(turnIndex int) []delta {
	var out []delta
	for _, r := range t.Reasoning {
		out = append(out, delta{ReasoningContent: &r})
	}
	for _, s := range t.Text {
		out = append(out, delta{Content: &s})
	}
	for _, tc := range t.toolCallFragments(turnIndex) {
		out = append(out, delta{ToolCalls: []toolCallDelta{tc}})
	}
	return out
}

// toolCallFragments splits every call into a head fragment (index, id, type,
// name, "" arguments) and its argument pieces, then orders them: round-robin
// across calls by default, call after call when asked or when indices are omitted.
func (t Turn) toolCallFragments(turnIndex int) []toolCallDelta {
	perCall := make([][]toolCallDelta, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		var index *int
		if !t.OmitIndex {
			index = &i
		}
		frags := []toolCallDelta{{
			Index:    index,
			ID:       c.id(turnIndex, i),
			Type:     "function",
			Function: functionDelta{Name: c.Name},
		}}
		for _, piece := range splitRunes(c.Arguments, c.fragments()) {
			frags = append(frags, toolCallDelta{Index: index, Function: functionDelta{Arguments: piece}})
		}
		perCall[i] = frags
	}
	if t.SequentialToolCalls || t.OmitIndex {
		var out []toolCallDelta
		for _, frags := range perCall {
			out = append(out, frags...)
		}
		return out
	}
	return roundRobin(perCall)
}

// roundRobin returns perCall[0][0], perCall[1][0], ..., perCall[0][1], ...
func roundRobin(perCall [][]toolCallDelta) []toolCallDelta {
	var out []toolCallDelta
	for k := 0; ; k++ {
		emitted := false
		for _, frags := range perCall {
			if k < len(frags) {
				out = append(out, frags[k])
				emitted = true
			}
		}
		if !emitted {
			return out
		}
	}
}

func (c ToolCall) id(turnIndex, callIndex int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("call_%d_%d", turnIndex, callIndex)
}

// splitRunes cuts s into n pieces of near-equal rune counts, never inside a
// rune, so each piece stays valid UTF-8 once JSON-encoded. Pieces may be empty
// when s has fewer runes than n; empty argument deltas are legal on the wire.
func splitRunes(s string, n int) []string {
	if n <= 0 {
		return nil
	}
	total := utf8.RuneCountInString(s)
	pieces := make([]string, 0, n)
	start, runes := 0, 0
	for i := 1; i <= n; i++ {
		want := total * i / n
		end := start
		for runes < want {
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
			runes++
		}
		pieces = append(pieces, s[start:end])
		start = end
	}
	return pieces
}
