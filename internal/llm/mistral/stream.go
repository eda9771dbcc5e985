package mistral

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLine bounds one line of the stream, as openaicompat's reader does.
const maxLine = 32 << 20

// streamRewriter passes Mistral's event stream through, rewriting the chunks that
// openaicompat would misread: content given as a list of chunks (Magistral's
// {"type":"thinking"} parts become reasoning_content) and tool call arguments
// given as an object rather than a JSON string. Other lines are copied unchanged.
type streamRewriter struct {
	src  io.ReadCloser
	r    *bufio.Reader
	out  bytes.Buffer
	err  error
	line []byte
	// maxLine is the package's maxLine; tests lower it.
	maxLine int
}

func newStreamRewriter(body io.ReadCloser) *streamRewriter {
	return &streamRewriter{src: body, r: bufio.NewReaderSize(body, 64<<10), maxLine: maxLine}
}

func (s *streamRewriter) Read(p []byte) (int, error) {
	for s.out.Len() == 0 && s.err == nil {
		s.fill()
	}
	if s.out.Len() > 0 {
		return s.out.Read(p)
	}
	return 0, s.err
}

func (s *streamRewriter) Close() error { return s.src.Close() }

// fill moves one line to out, rewritten when it is a chunk that needs it.
func (s *streamRewriter) fill() {
	s.line = s.line[:0]
	for {
		part, err := s.r.ReadSlice('\n')
		s.line = append(s.line, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(s.line) <= s.maxLine {
				continue
			}
			err = fmt.Errorf("stream line longer than %d bytes", s.maxLine)
		}
		if err != nil {
			s.err = err
		}
		break
	}
	if data, ok := bytes.CutPrefix(s.line, []byte("data:")); ok {
		if fixed, changed := rewriteChunk(bytes.TrimSpace(data)); changed {
			s.out.WriteString("data: ")
			s.out.Write(fixed)
			s.out.WriteByte('\n')
			return
		}
	}
	s.out.Write(s.line)
}

// chunkShape is just enough of a chunk to see whether it needs rewriting.
type chunkShape struct {
	Choices []struct {
		Delta struct {
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
}

// rewriteChunk returns the chunk rewritten and true when it has list content or
// object arguments. Anything it cannot read is left for openaicompat to report.
func rewriteChunk(data []byte) ([]byte, bool) {
	if !bytes.Contains(data, []byte(`[`)) && !bytes.Contains(data, []byte(`{"`)) {
		return nil, false
	}
	var shape chunkShape
	if json.Unmarshal(data, &shape) != nil || !needsRewrite(&shape) {
		return nil, false
	}
	var chunk map[string]any
	if json.Unmarshal(data, &chunk) != nil {
		return nil, false
	}
	choices, _ := chunk["choices"].([]any)
	for _, c := range choices {
		choice, _ := c.(map[string]any)
		delta, _ := choice["delta"].(map[string]any)
		if delta == nil {
			continue
		}
		if parts, ok := delta["content"].([]any); ok {
			text, thinking := flattenContent(parts)
			delta["content"] = text
			if thinking != "" {
				delta["reasoning_content"] = thinking
			}
		}
		calls, _ := delta["tool_calls"].([]any)
		for _, tc := range calls {
			call, _ := tc.(map[string]any)
			fn, _ := call["function"].(map[string]any)
			if args, ok := fn["arguments"].(map[string]any); ok {
				raw, _ := marshal(args)
				fn["arguments"] = string(raw)
			}
		}
	}
	out, err := marshal(chunk)
	if err != nil {
		return nil, false
	}
	return out, true
}

func needsRewrite(shape *chunkShape) bool {
	for _, c := range shape.Choices {
		if content := bytes.TrimSpace(c.Delta.Content); len(content) > 0 && content[0] == '[' {
			return true
		}
		for _, tc := range c.Delta.ToolCalls {
			if args := bytes.TrimSpace(tc.Function.Arguments); len(args) > 0 && args[0] == '{' {
				return true
			}
		}
	}
	return false
}

// flattenContent splits Mistral content chunks into answer text and thinking:
// {"type":"text","text":...} and {"type":"thinking","thinking":[{"type":"text",...}]}.
func flattenContent(parts []any) (text, thinking string) {
	var t, th strings.Builder
	for _, p := range parts {
		part, _ := p.(map[string]any)
		switch part["type"] {
		case "text":
			s, _ := part["text"].(string)
			t.WriteString(s)
		case "thinking":
			inner, _ := part["thinking"].([]any)
			for _, q := range inner {
				sub, _ := q.(map[string]any)
				s, _ := sub["text"].(string)
				th.WriteString(s)
			}
		}
	}
	return t.String(), th.String()
}
