//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577) yet keeps it for at least a year; these tests exercise it.

package agentenv

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/tool/mcp"
)

// addSampleTool gives the fake server a tool that needs the client's model: its
// first answer asks for a sample (the 2026-07-28 multi round-trip), the second
// returns what the model said.
func addSampleTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "sample", Description: "Asks the client's model."},
		func(_ context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			if answer, ok := req.Params.InputResponses["q"]; ok {
				b, _ := json.Marshal(answer)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil, nil
			}
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"q": &sdk.CreateMessageParams{
				SystemPrompt: "Be brief.", MaxTokens: 50,
				Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "Summarise the README."}}},
			}}}, nil, nil
		})
}

// sampleApproverFake answers every request with allow (or a refusal) and keeps
// what it was asked.
type sampleApproverFake struct {
	allow bool
	mu    sync.Mutex
	asked []agent.ToolEvent
}

func (a *sampleApproverFake) Approve(_ context.Context, call agent.ToolEvent) (agent.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, call)
	return agent.Decision{Allow: a.allow, Feedback: "not now"}, nil
}

// lastToolResult is the content of the last tool message the model was sent.
func lastToolResult(t *testing.T, r fakemodel.Recorded) string {
	t.Helper()
	msgs, _ := r.JSON["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i].(map[string]any); m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("no tool message in %s", r.Body)
	return ""
}

// A server's sampling request goes through the run: the run's approver (none in
// -p, so it is refused unless sampling = "allow"), the run's model, and the
// session's usage.
func TestMCPSamplingGoesThroughTheRun(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sampleCall := fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{Name: "counter_sample", Arguments: `{}`}}, Usage: &fakemodel.Usage{PromptTokens: 10, CompletionTokens: 1}}
	sampled := fakemodel.Turn{Text: []string{"The README explains the tool."}, Usage: &fakemodel.Usage{PromptTokens: 300, CompletionTokens: 20}}
	done := fakemodel.Turn{Text: []string{"done"}, Usage: &fakemodel.Usage{PromptTokens: 10, CompletionTokens: 1}}
	tests := []struct {
		name     string
		mode     string
		approver *sampleApproverFake // nil: a face with nobody to ask
		answered bool
		refusal  string
	}{
		{"approved", "ask", &sampleApproverFake{allow: true}, true, ""},
		{"refused by the user", "ask", &sampleApproverFake{}, false, "the user refused it: not now"},
		{"headless", "ask", nil, false, `nobody can approve it in this mode (the user may set [mcp_servers.counter] sampling = "allow" to allow it)`},
		{"allowed by the configuration", "allow", nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			script := fakemodel.Script{Turns: []fakemodel.Turn{sampleCall, done}}
			if tt.answered {
				script.Turns = []fakemodel.Turn{sampleCall, sampled, done}
			}
			x := newExtEnv(t, fmt.Sprintf(`[mcp_servers.counter]
command = %q
env = { %s = "1" }
sampling = %q

[tools.counter_sample]
permission = "always"
`, exe, fakeMCPEnv, tt.mode), script)
			e := x.load(t, true)
			opts := RunOptions{}
			if tt.approver != nil {
				opts.Approver = tt.approver
			}
			run, err := e.NewRun(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			res := runPrompt(t, run, "summarise")

			reqs := x.srv.ModelRequests()
			if len(reqs) != len(script.Turns) {
				t.Fatalf("%d model calls, want %d", len(reqs), len(script.Turns))
			}
			result := lastToolResult(t, reqs[len(reqs)-1])
			if tt.answered {
				if !strings.Contains(result, "The README explains the tool.") || !strings.Contains(result, `"role":"assistant"`) {
					t.Errorf("tool result = %q, want the model's answer", result)
				}
				sample := reqs[1]
				if sample.JSON["tools"] != nil || sample.JSON["max_tokens"] != float64(50) || !strings.Contains(sample.Body, "Be brief.") {
					t.Errorf("sampling call = %s", sample.Body)
				}
				if res.Stats.Usage.InputTokens != 320 || res.Stats.Usage.OutputTokens != 22 {
					t.Errorf("session usage = %+v, want the sample's 300 + 20 tokens counted", res.Stats.Usage)
				}
				// The rate limiter counted the sample as one of the model's calls.
				rpm := int64(-1)
				for _, c := range e.RateGauge() {
					if c.Name == "rpm" {
						rpm = c.Used
					}
				}
				if rpm != 3 {
					t.Errorf("rpm used = %d, want the 3 calls (the sample among them)", rpm)
				}
			} else if !strings.Contains(result, tt.refusal) {
				t.Errorf("tool result = %q, want %q", result, tt.refusal)
			}
			if tt.approver == nil || tt.mode == "allow" {
				return
			}
			if len(tt.approver.asked) != 1 {
				t.Fatalf("asked %d times, want once", len(tt.approver.asked))
			}
			ev := tt.approver.asked[0]
			if ev.Name != "sampling (MCP server counter)" || !strings.Contains(ev.Reason, "MCP server counter asks") ||
				!strings.Contains(ev.Reason, "1 message, in up to 50 tokens") || !strings.Contains(string(ev.Arguments), `"system_prompt":"Be brief."`) ||
				!strings.Contains(string(ev.Arguments), "Summarise the README.") {
				t.Errorf("approval request = %+v (%s)", ev, ev.Arguments)
			}
		})
	}
}

// The latest open run answers; when it closes, the one still open takes over, and
// none is left once both closed.
func TestSamplingGoesToTheLatestOpenRun(t *testing.T) {
	t.Parallel()
	m := newMCPServers()
	first, second := &mcp.SamplingHost{Model: "first"}, &mcp.SamplingHost{Model: "second"}
	withdrawFirst := m.offerSampling(first)
	withdrawSecond := m.offerSampling(second)
	if got := m.sampler(); got != second {
		t.Fatalf("sampler = %+v, want the second run's", got)
	}
	withdrawSecond()
	if got := m.sampler(); got != first {
		t.Fatalf("sampler = %+v after the second run closed, want the first's", got)
	}
	withdrawFirst()
	if got := m.sampler(); got != nil {
		t.Fatalf("sampler = %+v with no run open", got)
	}
}
