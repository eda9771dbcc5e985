package mcp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
)

// The reference server's trigger-sampling-request tool speaks the 2025-11-25
// protocol: it sends sampling/createMessage while its call is in flight, and reads
// the answer, or the JSON-RPC error, itself.
func TestEverythingSamplesThroughTheSessionModel(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	model := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"Bonjour from the fake model"}}}})
	host := &SamplingHost{Provider: openaicompat.New(openaicompat.Options{BaseURL: model.URL(), Timeout: 10 * time.Second}), Model: "albert-small"}
	allowed := stdioServer("everything", bin, "stdio")
	allowed.Sampling = config.SamplingAllow
	asking := stdioServer("asking", bin, "stdio")
	asking.Sampling = config.SamplingAsk
	set := startSet(t, Options{Sampling: func() *SamplingHost { return host }}, allowed, asking)

	res := call(t, findTool(t, set, "everything_trigger-sampling-request"), `{"prompt":"say hello","maxTokens":40}`)
	for _, want := range []string{"Bonjour from the fake model", `"model": "albert-small"`, `"role": "assistant"`, `"stopReason": "endTurn"`} {
		if res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("result lacks %q: %+v", want, res)
		}
	}
	reqs := model.ModelRequests()
	if len(reqs) != 1 || reqs[0].JSON["max_tokens"] != float64(40) || !strings.Contains(reqs[0].Body, "You are a helpful test server.") {
		t.Fatalf("model requests = %+v", reqs)
	}

	// Nobody can approve the second server's request: the server reads why.
	res = call(t, findTool(t, set, "asking_trigger-sampling-request"), `{"prompt":"say hello","maxTokens":40}`)
	if !res.IsError || !strings.Contains(res.Output, "albert-code refused the sampling request: nobody can approve it") {
		t.Errorf("refused request = %+v", res)
	}
	if n := len(model.ModelRequests()); n != 1 {
		t.Errorf("%d model calls, want only the allowed one", n)
	}
}

// Over Streamable HTTP the server's request arrives on the stream of the call's own
// POST, and the answer goes back in a POST of its own.
func TestEverythingSamplesOverHTTP(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	port := freePort(t)
	stop := everythingHTTP(t, bin, port)
	defer stop()
	model := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"Answered over HTTP"}}}})
	host := &SamplingHost{Provider: openaicompat.New(openaicompat.Options{BaseURL: model.URL(), Timeout: 10 * time.Second}), Model: "albert-small"}
	srv := config.MCPServer{Name: "ev", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Sampling: config.SamplingAllow,
		StartupTimeout: 20 * time.Second, ToolTimeout: 20 * time.Second, EnabledTools: []string{"trigger-sampling-request"}}
	set := startSet(t, Options{Sampling: func() *SamplingHost { return host }}, srv)
	res := call(t, findTool(t, set, "ev_trigger-sampling-request"), `{"prompt":"say hello","maxTokens":40}`)
	if res.IsError || !strings.Contains(res.Output, "Answered over HTTP") {
		t.Errorf("result = %+v", res)
	}
}
