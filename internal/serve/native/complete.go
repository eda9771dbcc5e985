package native

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// TurnRequest is one model call for the OpenAI-compatible endpoint: the client's
// conversation and function tools go to the model as they are.
type TurnRequest struct {
	// Model is a configured model name; empty means the configured default.
	Model    string
	Messages []llm.Message
	// Tools are the client's functions. The model's calls to them are returned,
	// never run: executing them is the client's business.
	Tools      []llm.ToolSpec
	ToolChoice llm.ToolChoice
	// Thinking is a level of ThinkingLevels, sent as reasoning_effort.
	Thinking    string
	Temperature *float64
	MaxTokens   int
}

// modelProvider is a configured model and the provider that serves it.
type modelProvider struct {
	model    config.Model
	provider llm.Provider
}

// Complete makes one model call. emit receives every delta as it arrives, in order:
// text, reasoning, and the model's tool calls as EventToolCallStart (index, id, name)
// followed by EventToolCallDelta argument fragments, ready to be sent on as OpenAI
// tool_calls deltas; an EventRetry means the provider starts the call again, and what
// was streamed so far is void. The Response holds the whole message, its usage and
// the finish reason ("tool_calls" when the model called tools). A request the client
// can fix wraps backend.ErrInvalidRequest; ErrorKindOf classifies the others.
func (n *Native) Complete(ctx context.Context, req TurnRequest, emit func(llm.StreamEvent)) (*llm.Response, error) {
	if err := req.ToolChoice.Check(req.Tools); err != nil {
		return nil, invalid(err)
	}
	if req.Thinking != "" && !slices.Contains(thinkingLevels, req.Thinking) {
		return nil, invalid(fmt.Errorf("thinking %q: want one of %s", req.Thinking, strings.Join(thinkingLevels, ", ")))
	}
	if len(req.Messages) == 0 {
		return nil, invalid(fmt.Errorf("messages: the conversation is empty"))
	}
	mp, err := n.modelProvider(req.Model)
	if err != nil {
		return nil, err
	}
	temp := req.Temperature
	if temp == nil {
		temp = mp.model.Temperature
	}
	if emit == nil {
		emit = func(llm.StreamEvent) {}
	}
	resp, err := mp.provider.Stream(ctx, llm.Request{
		Model: mp.model.WireName, Messages: req.Messages, Tools: req.Tools, ToolChoice: req.ToolChoice,
		ReasoningEffort: req.Thinking, Temperature: temp, MaxTokens: req.MaxTokens,
	}, emit)
	if err != nil {
		return nil, err
	}
	resp.Message.Role = llm.RoleAssistant
	if resp.Message.Model == "" {
		resp.Message.Model = mp.model.Name
	}
	return resp, nil
}

// modelProvider returns the provider of a configured model, built on first use and
// kept: its idle connections make the next call's first byte come sooner.
func (n *Native) modelProvider(name string) (modelProvider, error) {
	env, err := n.baseEnv()
	if err != nil {
		return modelProvider{}, fmt.Errorf("load configuration: %w", err)
	}
	if name == "" {
		name = env.Config.ModelName
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if mp, ok := n.providers[name]; ok {
		return mp, nil
	}
	m, err := env.Config.Model(name)
	if err != nil {
		return modelProvider{}, invalid(err)
	}
	p, err := env.Config.Provider(m.Provider)
	if err != nil {
		return modelProvider{}, err
	}
	provider, err := env.NewProvider(p)
	if err != nil {
		return modelProvider{}, err
	}
	mp := modelProvider{model: m, provider: provider}
	n.providers[name] = mp
	return mp, nil
}
