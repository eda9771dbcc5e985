package claude

import (
	"cmp"
	"encoding/json"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// claudeRecord holds the fields read from Claude Code's records: system/init,
// assistant, user, stream_event (partial messages) and result. Other types are
// skipped here and kept, like every record, in Result.Records.
type claudeRecord struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	Message   *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`

	// result
	Result       string          `json:"result"`
	IsError      bool            `json:"is_error"`
	Usage        json.RawMessage `json:"usage"`
	TotalCostUSD float64         `json:"total_cost_usd"`
	StopReason   string          `json:"stop_reason"`
	// APIErrorStatus is the provider's HTTP status when the run ended on its error.
	APIErrorStatus *int `json:"api_error_status"`
	// Errors are the messages of a result whose subtype is an error_* of Claude
	// Code's own, which has no result text.
	Errors           []string        `json:"errors"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	// SinceLastResult is this run's own usage per model, where total_cost_usd is the
	// session's running total (Claude Code 2.1.328 prints both).
	SinceLastResult map[string]struct {
		CostUSD float64 `json:"costUSD"`
	} `json:"model_usage_since_last_result"`

	Event *claudeStreamEvent `json:"event"`
}

type claudeStreamEvent struct {
	Type  string `json:"type"`
	Delta struct {
		Type       string `json:"type"`
		Text       string `json:"text"`
		Thinking   string `json:"thinking"`
		StopReason string `json:"stop_reason"`
	} `json:"delta"`
}

// claudeBlock is a content block of an assistant or user message.
type claudeBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// claudeRecordTypes are the message types Claude Code 2.1.328 prints in
// stream-json: those read here, and those it prints that carry nothing a run
// needs (progress, rate-limit notices, suggestions; control_* and keep_alive in
// its SDK mode). Another type is reported once, so a newer Claude Code is noticed.
var claudeRecordTypes = []string{"system", "assistant", "user", "stream_event", "result",
	"tool_progress", "tool_use_summary", "auth_status", "rate_limit_event", "prompt_suggestion",
	"keep_alive", "control_request", "control_response", "control_cancel_request"}

func newClaudeTypes() *cli.RecordTypes {
	return cli.NewRecordTypes("claude", "Claude Code 2.1.328", claudeRecordTypes...)
}

// answer is the run's answer as the result record gives it: the structured
// output when a schema asked for one, else the final message's text.
func (r *claudeRecord) answer() string {
	if len(r.StructuredOutput) > 0 && string(r.StructuredOutput) != "null" {
		return cli.CompactJSON(r.StructuredOutput)
	}
	if r.IsError {
		return ""
	}
	return strings.TrimSpace(r.Result)
}

// usage is the run's own usage: the result's token counts are the run's, but
// total_cost_usd is the session's running total, so a continued session would be
// billed again for every earlier run. The run's own figure is used when printed;
// else the total, which is the run's own only in a fresh session.
func (r *claudeRecord) usage(req *backend.Request) backend.Usage {
	u := cli.UsageFrom(r.Usage)
	cost := r.TotalCostUSD
	switch {
	case r.SinceLastResult != nil:
		cost = 0
		for _, m := range r.SinceLastResult {
			cost += m.CostUSD
		}
	case req.Resume == "" && !req.Continue:
	case u.IsZero():
		cost = 0 // no tokens in this run: nothing of the total is its own
	}
	if cost > 0 {
		u.Cost, u.Currency = cost, "USD"
	}
	return u
}

// agentError is the failure of Claude Code's own a result record reports: its
// subtype and messages, or "". Claude Code 2.1.328 gives such results an error_*
// subtype (error_max_turns, error_during_execution, error_max_budget_usd,
// error_max_structured_output_retries) and no result text; a provider's error is
// subtype "success" with is_error and the provider's message as its result.
func (r *claudeRecord) agentError() string {
	if !r.IsError || !strings.HasPrefix(r.Subtype, "error_") {
		return ""
	}
	var msgs []string
	for _, e := range r.Errors {
		if e = strings.TrimSpace(e); e != "" {
			msgs = append(msgs, e)
		}
	}
	if t := strings.TrimSpace(r.Result); t != "" {
		msgs = append(msgs, t)
	}
	if len(msgs) == 0 {
		return "claude stopped: " + r.Subtype
	}
	return "claude stopped: " + r.Subtype + ": " + strings.Join(msgs, "; ")
}

// providerError is the provider's failure a result record reports, and its kind
// from the provider's status, or "" for a run that succeeded or failed on its own.
func (r *claudeRecord) providerError() (string, backend.ErrorKind) {
	if !r.IsError || r.agentError() != "" {
		return "", ""
	}
	msg := cmp.Or(strings.TrimSpace(r.Result), r.Subtype)
	if r.APIErrorStatus == nil {
		return msg, ""
	}
	switch *r.APIErrorStatus {
	case 429:
		return msg, backend.ErrorRateLimit
	case 401, 403:
		return msg, backend.ErrorAuth
	default:
		return msg, backend.ErrorProvider
	}
}

func (r *claudeRecord) blocks() []claudeBlock {
	if r.Message == nil {
		return nil
	}
	var bs []claudeBlock
	if json.Unmarshal(r.Message.Content, &bs) != nil {
		return nil
	}
	return bs
}

// ParseOutput reads the run from Claude Code's records. The answer is the final
// result record's, not every assistant message: the narration before a tool call
// stays in the records. A run cut before its result keeps the last assistant text,
// and OutputError says so; an unreadable line is quoted there too.
func (c *Adapter) ParseOutput(stdout []byte, req *backend.Request) backend.Result {
	var res backend.Result
	var problems cli.Problems
	types := newClaudeTypes()
	lastText, sawResult := "", false
	for line := range cli.Lines(stdout) {
		var r claudeRecord
		if err := cli.ReadRecord("claude", line, &r); err != nil {
			problems.Add(err)
			continue
		}
		problems.Add(types.Check(r.Type, line))
		if res.SessionID == "" && r.SessionID != "" {
			res.SessionID = r.SessionID // system/init comes first; any record carries it
		}
		switch r.Type {
		case "assistant":
			if r.Message != nil {
				if t := strings.TrimSpace(cli.TextOf(r.Message.Content)); t != "" {
					lastText = t
				}
			}
		case "result":
			sawResult = true
			res.Usage = r.usage(req)
			res.StopReason = r.StopReason
			// The original never read is_error: a refused request came back as an
			// empty success.
			res.ProviderError, res.ErrorKind = r.providerError()
			if res.AgentError = r.agentError(); res.AgentError != "" {
				res.ErrorKind = backend.ErrorAgent
			}
			res.Text = r.answer()
		}
	}
	if !sawResult {
		res.Text = lastText
		problems = append(problems, "claude's output ended without its result record: the answer is its last message")
	}
	res.OutputError = problems.String()
	return res
}
