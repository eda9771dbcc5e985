package mistral

import (
	"io"
	"strings"
	"testing"
)

func TestStreamRewriterKeepsOtherLines(t *testing.T) {
	in := ": keep-alive\r\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"plain"}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"a<b"}]}}]}` + "\n\n" +
		"data: [DONE]\n\n" +
		"data: trailing without newline"
	out, err := io.ReadAll(newStreamRewriter(io.NopCloser(strings.NewReader(in))))
	if err != nil {
		t.Fatal(err)
	}
	want := ": keep-alive\r\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"plain"}}]}` + "\n\n" +
		`data: {"choices":[{"delta":{"content":"a<b"},"index":0}]}` + "\n\n" +
		"data: [DONE]\n\n" +
		"data: trailing without newline"
	if string(out) != want {
		t.Errorf("rewritten:\n%q\nwant\n%q", out, want)
	}
}

func TestStreamRewriterBoundsALine(t *testing.T) {
	r := newStreamRewriter(io.NopCloser(strings.NewReader("data: " + strings.Repeat("x", 200<<10) + "\n")))
	r.maxLine = 100 << 10
	_, err := io.ReadAll(r)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("err = %v", err)
	}
}
