package vertex

import (
	"context"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// BenchmarkStream measures one call over loopback: building the request from the
// shared benchmark history and assembling a recorded answer with two function
// calls.
func BenchmarkStream(b *testing.B) {
	srv := providertest.Repeating(b, "testdata/function_calls.sse")
	p := New(Options{BaseURL: srv.URL, APIKey: "k"})
	req := providertest.BenchRequest("gemini-3-pro-preview")
	for b.Loop() {
		resp, err := p.Stream(context.Background(), req, func(llm.StreamEvent) {})
		if err != nil || len(resp.Message.ToolCalls) != 2 {
			b.Fatal(resp, err)
		}
	}
}
