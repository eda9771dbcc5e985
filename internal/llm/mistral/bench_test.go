package mistral

import (
	"context"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// BenchmarkStream measures one call over loopback, with both rewrites at work:
// the request's foreign ids, and a chunk whose arguments are an object.
func BenchmarkStream(b *testing.B) {
	srv := providertest.Repeating(b, "testdata/tool_calls.sse")
	p := New(Options{BaseURL: srv.URL + "/v1", APIKey: "k"})
	req := providertest.BenchRequest("mistral-large-latest")
	for b.Loop() {
		resp, err := p.Stream(context.Background(), req, func(llm.StreamEvent) {})
		if err != nil || len(resp.Message.ToolCalls) != 2 {
			b.Fatal(resp, err)
		}
	}
}
