//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577) yet keeps it for at least a year; these tests exercise it.

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// sampleArgs make the fake server's sample tool send one sampling/createMessage.
type sampleArgs struct {
	Prompt      string   `json:"prompt"`
	System      string   `json:"system,omitempty"`
	MaxTokens   int64    `json:"max_tokens"`
	Stop        []string `json:"stop,omitempty"`
	Temperature float64  `json:"temperature,omitempty"`
	Hint        string   `json:"hint,omitempty"`
	Image       bool     `json:"image,omitempty"`
	// Tool offers the model a tool, as a server may since the 2025-11-25 revision.
	Tool bool `json:"tool,omitempty"`
}

// addSampleTool gives the fake server a tool that asks the client for a sample the
// way the 2026-07-28 protocol asks servers to: its first answer is the request (an
// input-required result), and the client calls again with the model's answer. The
// tool returns "capability yes|no", then that answer as JSON. A server told the
// client cannot sample does not ask.
func addSampleTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "sample", Description: "asks the client's model"},
		func(ctx context.Context, req *sdk.CallToolRequest, a sampleArgs) (*sdk.CallToolResult, any, error) {
			caps := req.Session.InitializeParams().Capabilities
			if caps == nil || caps.Sampling == nil {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "capability no"}}}, nil, nil
			}
			if answer, ok := req.Params.InputResponses["sample"]; ok {
				b, _ := json.Marshal(answer)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "capability yes\n" + string(b)}}}, nil, nil
			}
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"sample": sampleParams(a)}}, nil, nil
		})
}

func sampleParams(a sampleArgs) sdk.InputRequest {
	var content sdk.Content = &sdk.TextContent{Text: a.Prompt}
	if a.Image {
		content = &sdk.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	}
	msgs := []*sdk.SamplingMessage{
		{Role: "user", Content: &sdk.TextContent{Text: "Earlier question"}},
		{Role: "assistant", Content: &sdk.TextContent{Text: "Earlier answer"}},
		{Role: "user", Content: content},
	}
	var prefs *sdk.ModelPreferences
	if a.Hint != "" {
		prefs = &sdk.ModelPreferences{Hints: []*sdk.ModelHint{{Name: a.Hint}}, CostPriority: 0.3}
	}
	if a.Tool {
		var v2 []*sdk.SamplingMessageV2
		for _, m := range msgs {
			v2 = append(v2, &sdk.SamplingMessageV2{Role: m.Role, Content: []sdk.Content{m.Content}})
		}
		return &sdk.CreateMessageWithToolsParams{Messages: v2, MaxTokens: a.MaxTokens,
			Tools: []*sdk.Tool{{Name: "delete_everything", InputSchema: map[string]any{"type": "object"}}}}
	}
	return &sdk.CreateMessageParams{Messages: msgs, SystemPrompt: a.System, MaxTokens: a.MaxTokens,
		StopSequences: a.Stop, Temperature: a.Temperature, ModelPreferences: prefs}
}

// samplingRig is the fake MCP server in sampling mode mode, and the fake model
// answering for the session.
type samplingRig struct {
	model *fakemodel.Server
	tool  func(args string) tool.Result

	mu     sync.Mutex
	asked  []SampleRequest
	spent  []llm.Usage
	answer Approval
}

func newSamplingRig(t *testing.T, mode string, approve bool, script fakemodel.Script) *samplingRig {
	t.Helper()
	r := &samplingRig{model: fakemodel.NewTest(t, script), answer: Approval{Allow: true}}
	configured := 0.5
	host := &SamplingHost{
		Provider:    openaicompat.New(openaicompat.Options{BaseURL: r.model.URL(), Timeout: 10 * time.Second}),
		Model:       "albert-small",
		Temperature: &configured,
		Spent: func(_ string, u llm.Usage) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.spent = append(r.spent, u)
		},
	}
	if approve {
		host.Approve = func(_ context.Context, req SampleRequest) (Approval, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.asked = append(r.asked, req)
			return r.answer, nil
		}
	}
	srv := fakeServer(t, "fake", "sampling")
	srv.Sampling = mode
	set := startSet(t, Options{Sampling: func() *SamplingHost { return host }}, srv)
	sample := findTool(t, set, "fake_sample")
	r.tool = func(args string) tool.Result {
		t.Helper()
		return call(t, sample, args)
	}
	return r
}

func (r *samplingRig) questions() []SampleRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]SampleRequest(nil), r.asked...)
}

// sampleResult reads the sample tool's result: whether sampling was declared, and
// the answer the server got; or, when albert-code gave none, the call's error text.
func sampleResult(t *testing.T, res tool.Result) (declared bool, answer map[string]any, refusal string) {
	t.Helper()
	if res.IsError {
		return true, nil, res.Output
	}
	first, rest, _ := strings.Cut(res.Output, "\n")
	if first != "capability yes" {
		return false, nil, ""
	}
	if err := json.Unmarshal([]byte(rest), &answer); err != nil {
		t.Fatalf("sample output %q: %v", res.Output, err)
	}
	return true, answer, ""
}

func TestApprovedSampleIsAnsweredByTheSessionModel(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAsk, true, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{"Paris, ", "STOP then more"}, Usage: &fakemodel.Usage{PromptTokens: 31, CompletionTokens: 7}},
	}})
	out := r.tool(`{"prompt":"Capital of France?","system":"Answer in one word.","max_tokens":64,"stop":["STOP"],"temperature":0.2,"hint":"claude-3-haiku"}`)
	declared, res, refusal := sampleResult(t, out)
	if !declared || refusal != "" {
		t.Fatalf("declared %v, refusal %q", declared, refusal)
	}
	content, _ := res["content"].(map[string]any)
	if res["model"] != "albert-small" || res["role"] != "assistant" || res["stopReason"] != "stopSequence" ||
		content["type"] != "text" || content["text"] != "Paris, " {
		t.Errorf("result = %v, want the model's text cut at the stop sequence", res)
	}

	asked := r.questions()
	if len(asked) != 1 {
		t.Fatalf("asked %d times, want once", len(asked))
	}
	q := asked[0]
	if q.Server != "fake" || q.SystemPrompt != "Answer in one word." || q.MaxTokens != 64 || len(q.Messages) != 3 ||
		q.Model != "albert-small" || strings.Join(q.ModelHints, ",") != "claude-3-haiku" || q.Priorities["cost"] != 0.3 {
		t.Errorf("the user was asked about %+v", q)
	}

	reqs := r.model.ModelRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(reqs))
	}
	body := reqs[0].JSON
	if body["model"] != "albert-small" || body["max_tokens"] != float64(64) || body["temperature"] != 0.2 || body["tools"] != nil {
		t.Errorf("model request = %s", reqs[0].Body)
	}
	msgs, _ := body["messages"].([]any)
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" || !strings.Contains(reqs[0].Body, "Capital of France?") {
		t.Errorf("messages = %v in %s", roles, reqs[0].Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.spent) != 1 || r.spent[0].InputTokens != 31 || r.spent[0].OutputTokens != 7 {
		t.Errorf("usage counted = %+v, want the call's 31 + 7 tokens", r.spent)
	}
}

func TestRefusedSampleIsAnErrorTheServerReads(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAsk, true, fakemodel.Script{})
	r.answer = Approval{Feedback: "not with my quota"}
	_, _, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`))
	if refusal != "MCP server fake: sample needed an answer from the model (sampling) and got none: albert-code refused the sampling request: the user refused it: not with my quota" {
		t.Errorf("the model read %q", refusal)
	}
	if n := len(r.model.ModelRequests()); n != 0 {
		t.Errorf("%d model calls after a refusal", n)
	}
}

func TestSampleWithNobodyToAskIsRefusedNamingTheSetting(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAsk, false, fakemodel.Script{})
	_, _, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`))
	if !strings.Contains(refusal, `nobody can approve it`) || !strings.Contains(refusal, `[mcp_servers.fake] sampling = "allow"`) {
		t.Errorf("the model read %q", refusal)
	}
	if n := len(r.model.ModelRequests()); n != 0 {
		t.Errorf("%d model calls without approval", n)
	}
}

func TestSamplingAllowAnswersWithoutAsking(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAllow, false, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"yes"}}}})
	_, res, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`))
	if refusal != "" || res["stopReason"] != "endTurn" {
		t.Errorf("result %v, refusal %q", res, refusal)
	}
	// The server sent no temperature: the model's configured one is used.
	if reqs := r.model.ModelRequests(); len(reqs) != 1 || reqs[0].JSON["temperature"] != 0.5 {
		t.Errorf("model requests = %+v, want one at the configured temperature", reqs)
	}
}

func TestSamplingDenyDeclaresNoCapability(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingDeny, true, fakemodel.Script{})
	if declared, _, _ := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`)); declared {
		t.Error("a server set to deny was told it may ask")
	}
	if len(r.questions()) != 0 || len(r.model.ModelRequests()) != 0 {
		t.Error("a denied server's request reached the user or the model")
	}
}

func TestSampleAllowedForTheSessionIsNotAskedAgain(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAsk, true, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"a"}}, {Text: []string{"b"}}}})
	r.answer = Approval{Allow: true, ForSession: true}
	for range 2 {
		if _, _, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`)); refusal != "" {
			t.Fatal(refusal)
		}
	}
	if n := len(r.questions()); n != 1 {
		t.Errorf("asked %d times, want once", n)
	}
}

func TestSampleOfferingToolsNeverReachesTheModelWithThem(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAllow, false, fakemodel.Script{Turns: []fakemodel.Turn{{Text: []string{"text only"}}}})
	out := r.tool(`{"prompt":"clean up","max_tokens":10,"tool":true}`)
	for _, req := range r.model.ModelRequests() {
		if req.JSON["tools"] != nil {
			t.Errorf("the model was offered tools: %s", req.Body)
		}
	}
	if _, res, _ := sampleResult(t, out); !strings.Contains(fmt.Sprint(res["content"]), "text only") {
		t.Errorf("result %+v", out)
	}
}

func TestSampleWithAnImageIsRefusedAsInvalid(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAllow, false, fakemodel.Script{})
	_, _, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10,"image":true}`))
	want := "albert-code cannot answer this sampling request: message 3: it holds an image (image/png), which albert-code cannot pass to the model"
	if !strings.Contains(refusal, want) {
		t.Errorf("the model read %q, want %q", refusal, want)
	}
	if n := len(r.model.ModelRequests()); n != 0 {
		t.Errorf("%d model calls for a request that cannot be passed on", n)
	}
}

func TestSampleTheModelCannotAnswerSaysWhy(t *testing.T) {
	t.Parallel()
	r := newSamplingRig(t, config.SamplingAllow, false, fakemodel.Script{Turns: []fakemodel.Turn{
		{Error: &fakemodel.ErrorAnswer{Status: 400, Body: `{"error":{"message":"context too long"}}`}},
	}})
	_, _, refusal := sampleResult(t, r.tool(`{"prompt":"hi","max_tokens":10}`))
	if !strings.Contains(refusal, "the model could not answer the sampling request: ") || !strings.Contains(refusal, "context too long") {
		t.Errorf("the model read %q", refusal)
	}
}

func TestSampleBetweenRunsIsRefused(t *testing.T) {
	t.Parallel()
	srv := fakeServer(t, "fake", "sampling")
	set := startSet(t, Options{Sampling: func() *SamplingHost { return nil }}, srv)
	_, _, refusal := sampleResult(t, call(t, findTool(t, set, "fake_sample"), `{"prompt":"hi","max_tokens":10}`))
	if !strings.Contains(refusal, "no session of albert-code is running") {
		t.Errorf("the model read %q", refusal)
	}
}

func TestSampleRequestMapping(t *testing.T) {
	t.Parallel()
	text := func(role sdk.Role, s string) *sdk.SamplingMessage {
		return &sdk.SamplingMessage{Role: role, Content: &sdk.TextContent{Text: s}}
	}
	tests := []struct {
		name    string
		params  *sdk.CreateMessageParams
		want    []llm.Message
		wantErr string
	}{
		{"text turns", &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{text("user", "q"), text("assistant", "a"), text("user", "q2")}},
			[]llm.Message{{Role: llm.RoleUser, Content: "q"}, {Role: llm.RoleAssistant, Content: "a"}, {Role: llm.RoleUser, Content: "q2"}}, ""},
		{"no messages", &sdk.CreateMessageParams{MaxTokens: 5}, nil, "it has no messages"},
		{"no max tokens", &sdk.CreateMessageParams{Messages: []*sdk.SamplingMessage{text("user", "q")}}, nil, "maxTokens is 0; it must be a positive number"},
		{"unknown role", &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{text("system", "q")}}, nil, `message 1: role "system" is neither user nor assistant`},
		{"audio", &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.AudioContent{MIMEType: "audio/wav"}}}}, nil, "message 1: it holds audio (audio/wav)"},
		{"no content", &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{{Role: "user"}}}, nil, "message 1: it has no content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := toSampleRequest("srv", tt.params)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(r.Messages) != fmt.Sprint(tt.want) || r.Temperature != nil {
				t.Errorf("messages = %+v, temperature %v", r.Messages, r.Temperature)
			}
		})
	}
}

func TestSampleAnswerShape(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text   string
		stops  []string
		finish string
		want   string
		reason string
	}{
		{"all of it", nil, "stop", "all of it", "endTurn"},
		{"cut short", nil, "length", "cut short", "maxTokens"},
		{"a; b. c", []string{".", ";"}, "stop", "a", "stopSequence"},
		{"no stop here", []string{"", "###"}, "stop", "no stop here", "endTurn"},
		{"odd", nil, "content_filter", "odd", "content_filter"},
	} {
		got, cut := cutAtStop(tt.text, tt.stops)
		reason := stopReason(tt.finish)
		if cut {
			reason = "stopSequence"
		}
		if got != tt.want || reason != tt.reason {
			t.Errorf("%q %v %s: got %q %s, want %q %s", tt.text, tt.stops, tt.finish, got, reason, tt.want, tt.reason)
		}
	}
}

// A request still waiting for the user when the run ends is abandoned, and the call
// returns instead of waiting for an answer that will not come.
func TestSampleWaitingWhenTheRunEndsIsAbandoned(t *testing.T) {
	t.Parallel()
	runCtx, endRun := context.WithCancel(context.Background())
	waiting := make(chan struct{})
	host := &SamplingHost{Model: "albert-small", Context: runCtx,
		Approve: func(ctx context.Context, _ SampleRequest) (Approval, error) {
			close(waiting)
			<-ctx.Done()
			return Approval{}, ctx.Err()
		}}
	set := startSet(t, Options{Sampling: func() *SamplingHost { return host }}, fakeServer(t, "fake", "sampling"))
	go func() {
		<-waiting
		endRun()
	}()
	_, _, refusal := sampleResult(t, call(t, findTool(t, set, "fake_sample"), `{"prompt":"hi","max_tokens":10}`))
	if !strings.Contains(refusal, "the request was abandoned before the user answered") {
		t.Errorf("the model read %q", refusal)
	}
}
