// Package pi drives pi-coding-agent in print mode and reads its JSON events.
package pi

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Adapter drives pi-coding-agent in print mode with its JSON event stream
// (`pi -p --mode json`), which streams true token deltas.
type Adapter struct {
	// Binary is the program to run; empty means "pi".
	Binary string
	// Getenv reads the server's environment; nil means os.Getenv.
	Getenv func(string) string
}

func (p *Adapter) Name() string { return "pi" }

// Run runs the agent as a supervised process (RunProcess).
func (p *Adapter) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, p, req, emit)
}

func (p *Adapter) ThinkingLevels() []string {
	return []string{"off", "minimal", "low", "medium", "high", "xhigh"}
}

// schemaDirective asks pi, which cannot enforce a schema, for a bare JSON answer; the
// caller still validates it.
const schemaDirective = "Your final answer must be a single JSON document that conforms to the JSON Schema below. " +
	"Write nothing else: no prose, no Markdown code fences.\n\nSchema:\n"

func (p *Adapter) BuildArgv(req *backend.Request) ([]string, error) {
	argv := []string{cmp.Or(p.Binary, "pi"), "-p", "--mode", "json"}
	for _, f := range []struct{ flag, value string }{
		{"--model", req.Model}, {"--thinking", req.Thinking},
		{"--system-prompt", req.SystemPrompt}, {"--append-system-prompt", req.AppendSystemPrompt},
	} {
		if f.value != "" {
			argv = append(argv, f.flag, f.value)
		}
	}
	if len(req.JSONSchema) > 0 {
		argv = append(argv, "--append-system-prompt", schemaDirective+cli.CompactJSON(req.JSONSchema))
	}
	switch {
	case req.Resume != "":
		argv = append(argv, "--session", req.Resume)
	case req.Continue:
		argv = append(argv, "--continue")
	default:
		argv = append(argv, "--no-session")
	}
	switch {
	case req.NoTools:
		argv = append(argv, "--no-tools")
	case len(req.ToolsAllowlist) > 0:
		argv = append(argv, "--tools", strings.Join(req.ToolsAllowlist, ","))
	}
	argv = append(argv, req.ExtraArgs...)
	// With an Anthropic endpoint configured, say so: pi would otherwise give glm-*
	// model names to its zai provider.
	if p.env(req, "ANTHROPIC_BASE_URL") != "" && !slices.Contains(argv, "--provider") {
		argv = append(argv, "--provider", "anthropic")
	}
	return argv, nil
}

func (p *Adapter) env(req *backend.Request, name string) string {
	if v, ok := req.Env[name]; ok {
		return v
	}
	if p.Getenv != nil {
		return p.Getenv(name)
	}
	return os.Getenv(name)
}

// piMessage is an AgentMessage of pi's events.
type piMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Usage        json.RawMessage `json:"usage"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
}

// piRecord holds the fields read from pi's events: session, message_update,
// message_end, turn_end and agent_end.
type piRecord struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Message   *piMessage      `json:"message"`
	Usage     json.RawMessage `json:"usage"`
	Messages  []piMessage     `json:"messages"`
	Assistant *struct {
		Type  string `json:"type"`
		Delta string `json:"delta"`
	} `json:"assistantMessageEvent"`
}

// piRecordTypes are the events of pi 0.73.1's JSON mode (its docs/json.md): those
// read here and the rest (lifecycle, tool execution, queue, compaction, retries).
// Another type is reported once, so a newer pi is noticed.
var piRecordTypes = []string{"session", "agent_start", "agent_end", "turn_start", "turn_end",
	"message_start", "message_update", "message_end",
	"tool_execution_start", "tool_execution_update", "tool_execution_end",
	"queue_update", "compaction_start", "compaction_end", "auto_retry_start", "auto_retry_end"}

func newPiTypes() *cli.RecordTypes { return cli.NewRecordTypes("pi", "pi 0.73.1", piRecordTypes...) }

// ParseOutput reads the run from pi's events; a line that cannot be read, or an
// event of a type pi 0.73.1 did not print, is quoted in OutputError and the rest
// read as usual.
func (p *Adapter) ParseOutput(stdout []byte, _ *backend.Request) backend.Result {
	var res backend.Result
	var texts []string
	var turnUsage backend.Usage
	var problems cli.Problems
	types := newPiTypes()
	messageUsage := false
	for line := range cli.Lines(stdout) {
		var r piRecord
		if err := cli.ReadRecord("pi", line, &r); err != nil {
			problems.Add(err)
			continue
		}
		problems.Add(types.Check(r.Type, line))
		switch r.Type {
		case "session":
			res.SessionID = r.ID
		case "message_end":
			m := r.Message
			if m == nil || m.Role != "assistant" {
				continue
			}
			if t := cli.TextOf(m.Content); t != "" {
				texts = append(texts, t)
			}
			if len(m.Usage) > 0 {
				res.Usage.Add(cli.UsageFrom(m.Usage))
				messageUsage = true
			}
			res.StopReason = m.StopReason
			if m.StopReason == "error" && m.ErrorMessage != "" {
				res.ProviderError = m.ErrorMessage
			}
		case "turn_end":
			// The turn repeats its message's usage: counted only when no message had one.
			if r.Message != nil && len(r.Message.Usage) > 0 {
				turnUsage.Add(cli.UsageFrom(r.Message.Usage))
			} else if len(r.Usage) > 0 {
				turnUsage.Add(cli.UsageFrom(r.Usage))
			}
		}
	}
	if !messageUsage {
		res.Usage = turnUsage
	}
	if res.Usage.Cost > 0 {
		res.Usage.Currency = "USD"
	}
	res.Text = strings.Join(texts, "\n")
	res.OutputError = problems.String()
	return res
}

func (p *Adapter) NewStream(*backend.Request) cli.Stream { return &piStream{types: newPiTypes()} }

type piStream struct{ types *cli.RecordTypes }

func (s *piStream) Line(line []byte) []backend.Event {
	var r piRecord
	if err := cli.ReadRecord("pi", line, &r); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	if err := s.types.Check(r.Type, line); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	switch r.Type {
	case "session":
		return []backend.Event{{Kind: backend.EventSession, SessionID: r.ID}}
	case "message_update":
		// Text only: thinking and tool-call deltas are not part of the answer.
		if r.Assistant != nil && r.Assistant.Type == "text_delta" && r.Assistant.Delta != "" {
			return []backend.Event{{Kind: backend.EventDelta, Text: r.Assistant.Delta}}
		}
	case "message_end":
		if m := r.Message; m != nil && m.Role == "assistant" && m.StopReason == "error" && m.ErrorMessage != "" {
			return []backend.Event{{Kind: backend.EventError, Text: m.ErrorMessage}}
		}
	case "turn_end":
		raw := r.Usage
		if r.Message != nil && len(r.Message.Usage) > 0 {
			raw = r.Message.Usage
		}
		if len(raw) > 0 {
			u := cli.UsageFrom(raw)
			if u.Cost > 0 {
				u.Currency = "USD"
			}
			return []backend.Event{{Kind: backend.EventUsage, Usage: &u}}
		}
	}
	return nil
}
