//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577) yet keeps it for at least a year, and servers still ask for it.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
)

// SamplingHost is the session's side of a server's sampling/createMessage request:
// the model that answers it and the person who approves it. The face's current run
// provides it (see Options.Sampling).
type SamplingHost struct {
	// Provider is the client the agent's own calls go through (rate limits,
	// retries, fallback), so a sample counts against the same limits.
	Provider llm.Provider
	// Model is the wire name of the session's current model.
	Model string
	// Temperature is the model's configured temperature, sent when the server asks
	// for none.
	Temperature *float64
	// Approve asks the user about a request; nil when nobody can be asked (-p), so
	// requests of a server whose sampling is "ask" are refused.
	Approve func(ctx context.Context, r SampleRequest) (Approval, error)
	// Spent receives what each answered request consumed, for the session's totals.
	Spent func(model string, u llm.Usage)
	// Context ends with the run: a request still waiting for the user or the model
	// is then abandoned. Nil never ends.
	Context context.Context
}

// SampleRequest is a server's request as the user is asked about it, its messages
// already in our model's terms.
type SampleRequest struct {
	Server       string
	SystemPrompt string
	Messages     []llm.Message // user and assistant turns, text only
	MaxTokens    int
	// StopSequences end the answer where the first of them appears.
	StopSequences []string
	// Temperature is the server's, nil when it sent none.
	Temperature *float64
	// ModelHints and Priorities are the server's model preferences: the session's
	// model answers anyway, but the user sees what the server wanted.
	ModelHints []string
	Priorities map[string]float64 // cost, speed, intelligence, each in [0, 1]
	// Model is the wire name of the model that will answer.
	Model string
}

// Approval is the user's answer to a sampling request.
type Approval struct {
	Allow bool
	// ForSession answers the server's later requests without asking, until the
	// servers stop.
	ForSession bool
	// Feedback, on a refusal, is passed on to the server.
	Feedback string
}

// codeRefused is the error code the MCP specification's example gives a sampling
// request the user rejected.
const codeRefused = -1

// samplingEnabled says whether s declares the sampling capability: a server set to
// "deny" is never told it may ask, so it hides what needs it.
func samplingEnabled(cfg config.MCPServer, o Options) bool {
	return o.Sampling != nil && cfg.Sampling != config.SamplingDeny
}

// createMessage answers sampling/createMessage: the request is mapped to our
// model's messages, approved (unless sampling = "allow" or the user allowed the
// server for the session) and sent to the session's current model, with no tools.
// Every refusal is a JSON-RPC error that says why.
func (s *Server) createMessage(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	host := s.sampling()
	if host == nil {
		return nil, refused("no session of albert-code is running to answer it")
	}
	sample, err := toSampleRequest(s.cfg.Name, req.Params)
	if err != nil {
		return nil, &sampleError{&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("albert-code cannot answer this sampling request: %v", err)}}
	}
	sample.Model = host.Model
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if host.Context != nil {
		stop := context.AfterFunc(host.Context, cancel)
		defer stop()
	}
	if err := s.approveSample(ctx, host, sample); err != nil {
		return nil, err
	}
	return answerSample(ctx, host, sample)
}

// approveSample asks the user unless the configuration or an earlier answer allows
// the server's requests.
func (s *Server) approveSample(ctx context.Context, host *SamplingHost, r SampleRequest) error {
	if s.cfg.Sampling == config.SamplingAllow || s.samplingGranted.Load() {
		return nil
	}
	key := fmt.Sprintf("[mcp_servers.%s] sampling = %q", s.cfg.Name, config.SamplingAllow)
	if host.Approve == nil {
		return refused(fmt.Sprintf("nobody can approve it in this mode (the user may set %s to allow it)", key))
	}
	a, err := host.Approve(ctx, r)
	switch {
	case err != nil && ctx.Err() != nil:
		return refused("the request was abandoned before the user answered")
	case err != nil:
		return refused(fmt.Sprintf("could not ask the user: %v", err))
	case !a.Allow:
		msg := "the user refused it"
		if a.Feedback != "" {
			msg += ": " + a.Feedback
		}
		return refused(msg)
	}
	if a.ForSession {
		s.samplingGranted.Store(true)
	}
	return nil
}

// answerSample sends r to the host's model and shapes the answer for the server.
func answerSample(ctx context.Context, host *SamplingHost, r SampleRequest) (*sdk.CreateMessageResult, error) {
	msgs := r.Messages
	if r.SystemPrompt != "" {
		msgs = append([]llm.Message{{Role: llm.RoleSystem, Content: r.SystemPrompt}}, msgs...)
	}
	temp := r.Temperature
	if temp == nil {
		temp = host.Temperature
	}
	// No tools: a server's request must never make the agent act.
	resp, err := host.Provider.Stream(ctx, llm.Request{Model: host.Model, Messages: msgs, MaxTokens: r.MaxTokens, Temperature: temp},
		func(llm.StreamEvent) {})
	if err != nil {
		if ctx.Err() != nil {
			return nil, refused("the request was abandoned before the model answered")
		}
		return nil, &sampleError{&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the model could not answer the sampling request: %v", err)}}
	}
	model := resp.Message.Model
	if model == "" {
		model = host.Model
	}
	if host.Spent != nil {
		host.Spent(model, resp.Usage)
	}
	text, stop := cutAtStop(resp.Message.Content, r.StopSequences)
	reason := stopReason(resp.FinishReason)
	if stop {
		reason = "stopSequence"
	}
	return &sdk.CreateMessageResult{Model: model, Role: "assistant", Content: &sdk.TextContent{Text: text}, StopReason: reason}, nil
}

// cutAtStop ends text before the earliest stop sequence. Our providers send none to
// the server, so the answer is cut here: the tokens past it are spent, bounded by
// maxTokens.
func cutAtStop(text string, stops []string) (string, bool) {
	cut := -1
	for _, s := range stops {
		if i := strings.Index(text, s); s != "" && i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		return text, false
	}
	return text[:cut], true
}

// stopReason maps the server's finish reason, as our providers report it (OpenAI's
// words), to MCP's.
func stopReason(finish string) string {
	switch finish {
	case "", "stop", "end_turn":
		return "endTurn"
	case "length", "max_tokens":
		return "maxTokens"
	}
	return finish
}

// toSampleRequest checks p and maps its messages. Content our model cannot be given
// (images, audio) is refused rather than dropped: the answer would be wrong without
// it, and the server can read why.
func toSampleRequest(server string, p *sdk.CreateMessageParams) (SampleRequest, error) {
	if p == nil || len(p.Messages) == 0 {
		return SampleRequest{}, errors.New("it has no messages")
	}
	if p.MaxTokens <= 0 {
		return SampleRequest{}, fmt.Errorf("maxTokens is %d; it must be a positive number of tokens", p.MaxTokens)
	}
	r := SampleRequest{Server: server, SystemPrompt: p.SystemPrompt, MaxTokens: int(p.MaxTokens), StopSequences: p.StopSequences}
	if p.Temperature != 0 {
		t := p.Temperature
		r.Temperature = &t
	}
	for i, m := range p.Messages {
		msg, err := toMessage(m)
		if err != nil {
			return SampleRequest{}, fmt.Errorf("message %d: %w", i+1, err)
		}
		r.Messages = append(r.Messages, msg)
	}
	if mp := p.ModelPreferences; mp != nil {
		for _, h := range mp.Hints {
			if h != nil && h.Name != "" {
				r.ModelHints = append(r.ModelHints, h.Name)
			}
		}
		r.Priorities = map[string]float64{}
		for name, v := range map[string]float64{"cost": mp.CostPriority, "speed": mp.SpeedPriority, "intelligence": mp.IntelligencePriority} {
			if v != 0 {
				r.Priorities[name] = v
			}
		}
	}
	return r, nil
}

func toMessage(m *sdk.SamplingMessage) (llm.Message, error) {
	if m == nil {
		return llm.Message{}, errors.New("it is null")
	}
	var role llm.Role
	switch m.Role {
	case "user":
		role = llm.RoleUser
	case "assistant":
		role = llm.RoleAssistant
	default:
		return llm.Message{}, fmt.Errorf("role %q is neither user nor assistant", m.Role)
	}
	switch c := m.Content.(type) {
	case *sdk.TextContent:
		return llm.Message{Role: role, Content: c.Text}, nil
	case *sdk.ImageContent:
		return llm.Message{}, fmt.Errorf("it holds an image (%s), which albert-code cannot pass to the model: it sends text only", c.MIMEType)
	case *sdk.AudioContent:
		return llm.Message{}, fmt.Errorf("it holds audio (%s), which albert-code cannot pass to the model: it sends text only", c.MIMEType)
	case nil:
		return llm.Message{}, errors.New("it has no content")
	default:
		return llm.Message{}, fmt.Errorf("its %T content cannot be passed to the model: albert-code sends text only", c)
	}
}

// sampleError is a sampling request albert-code did not answer. A server that
// asked while serving no request of ours (or on a protocol before 2026-07-28) reads
// the JSON-RPC error; one that returned the request with a tool's result
// (multi round-trip, SEP-2322) never hears back, so the call's result says it.
type sampleError struct{ rpc *jsonrpc.Error }

func (e *sampleError) Error() string { return e.rpc.Message }
func (e *sampleError) Unwrap() error { return e.rpc }

// refused is the error of a request the user, the configuration or the moment
// did not allow.
func refused(why string) error {
	return &sampleError{&jsonrpc.Error{Code: codeRefused, Message: "albert-code refused the sampling request: " + why}}
}

// unansweredSample is the result of a call whose server needed a sample albert-code
// did not give: the model reads why, as for a refused call.
func unansweredSample(server, name string, err error) (*sdk.CallToolResult, bool) {
	var e *sampleError
	if !errors.As(err, &e) {
		return nil, false
	}
	text := fmt.Sprintf("MCP server %s: %s needed an answer from the model (sampling) and got none: %s", server, name, e.Error())
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}, true
}
