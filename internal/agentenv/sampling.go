package agentenv

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/tool/mcp"
)

// offerSampling lets the MCP servers' sampling requests reach this run until the
// returned func is called: its model, through the provider its own calls use (rate
// limits and retries included), its approver (the same dialog, ACP request or
// refusal as a tool call), and its usage totals.
func (e *Env) offerSampling(a *agent.Agent, provider llm.Provider, m config.Model, approver agent.Approver) func() {
	if e.mcp == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	host := &mcp.SamplingHost{
		Provider: provider, Model: m.WireName, Temperature: m.Temperature, Context: ctx,
		Approve: sampleApprover(approver),
		Spent: func(wire string, u llm.Usage) {
			priced := m
			if other, err := e.Config.Model(wire); err == nil {
				priced = other // the fallback answered
			}
			a.AddUsage(u, AgentModel(priced).Cost(u))
		},
	}
	withdraw := e.mcp.offerSampling(host)
	return func() {
		withdraw()
		cancel()
	}
}

// offerSampling makes h the host of sampling requests until the returned func is
// called: the latest run's wins, and an earlier run still open takes over when it
// closes.
func (m *mcpServers) offerSampling(h *mcp.SamplingHost) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.samplers = append(m.samplers, h)
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		for i, s := range m.samplers {
			if s == h {
				m.samplers = append(m.samplers[:i], m.samplers[i+1:]...)
				break
			}
		}
	}
}

// sampler is the host of sampling requests now; nil between runs.
func (m *mcpServers) sampler() *mcp.SamplingHost {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.samplers) == 0 {
		return nil
	}
	return m.samplers[len(m.samplers)-1]
}

// sampleCalls numbers the approval requests of sampling, which have no tool call ID.
var sampleCalls atomic.Int64

// sampleApprover puts a sampling request to the run's approver as a call of its
// own; nil when the run has nobody to ask.
func sampleApprover(a agent.Approver) func(context.Context, mcp.SampleRequest) (mcp.Approval, error) {
	if a == nil {
		return nil
	}
	return func(ctx context.Context, r mcp.SampleRequest) (mcp.Approval, error) {
		d, err := a.Approve(ctx, sampleEvent(r))
		return mcp.Approval{Allow: d.Allow, ForSession: d.ForSession, Feedback: d.Feedback}, err
	}
}

// sampleEvent shows a sampling request the way faces show a tool call: a name that
// says who asks, the request as arguments, and the reason in words.
func sampleEvent(r mcp.SampleRequest) agent.ToolEvent {
	type message struct {
		Role string `json:"role"`
		Text string `json:"text"`
	}
	args := struct {
		Server        string             `json:"server"`
		Model         string             `json:"model"`
		SystemPrompt  string             `json:"system_prompt,omitempty"`
		Messages      []message          `json:"messages"`
		MaxTokens     int                `json:"max_tokens"`
		StopSequences []string           `json:"stop_sequences,omitempty"`
		Temperature   *float64           `json:"temperature,omitempty"`
		ModelHints    []string           `json:"model_hints,omitempty"`
		Priorities    map[string]float64 `json:"model_priorities,omitempty"`
	}{Server: r.Server, Model: r.Model, SystemPrompt: r.SystemPrompt, MaxTokens: r.MaxTokens, StopSequences: r.StopSequences,
		Temperature: r.Temperature, ModelHints: r.ModelHints, Priorities: r.Priorities}
	for _, m := range r.Messages {
		args.Messages = append(args.Messages, message{Role: string(m.Role), Text: m.Content})
	}
	raw, _ := json.Marshal(args)
	reason := fmt.Sprintf("MCP server %s asks %s to answer %s, in up to %s spent from your quota; no tool runs, and the answer goes to the server",
		r.Server, r.Model, counted(len(r.Messages), "message"), counted(r.MaxTokens, "token"))
	if len(r.ModelHints) > 0 {
		reason += fmt.Sprintf(" (it would prefer %s)", strings.Join(r.ModelHints, ", "))
	}
	return agent.ToolEvent{
		ID:   fmt.Sprintf("mcp-sampling-%d", sampleCalls.Add(1)),
		Name: fmt.Sprintf("sampling (MCP server %s)", r.Server), Arguments: raw, Reason: reason,
	}
}

// counted is "1 message", "2 messages".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
