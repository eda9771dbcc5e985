package codex

import (
	"encoding/json"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// codexRecord holds the fields read from the records of `codex exec --json`:
// thread.started, turn.started, item.started/updated/completed, turn.completed,
// turn.failed and error. Items are whole when they come: Codex prints no deltas.
type codexRecord struct {
	Type     string          `json:"type"`
	ThreadID string          `json:"thread_id"`
	Item     *codexItem      `json:"item"`
	Usage    json.RawMessage `json:"usage"`
	Message  string          `json:"message"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type codexItem struct {
	ID               string `json:"id"`
	Type             string `json:"type"`
	Text             string `json:"text"`
	Command          string `json:"command"`
	AggregatedOutput string `json:"aggregated_output"`
	ExitCode         *int   `json:"exit_code"`
	Status           string `json:"status"`
}

func (r *codexRecord) errorText() string {
	if r.Error != nil && r.Error.Message != "" {
		return r.Error.Message
	}
	return r.Message
}

// codexRecordTypes are the record types of codex exec 0.169.0; another type is
// reported once, so a newer Codex is noticed rather than half read.
var codexRecordTypes = []string{"thread.started", "turn.started", "turn.completed", "turn.failed",
	"item.started", "item.updated", "item.completed", "error"}

// codexReader reads one run's records, for ParseOutput (whole) and as a Stream
// (line by line): both give the same answer.
//
// The answer is the agent messages after the run's last tool use: messages before a
// tool are narration ("Running the tests."), streamed as reasoning. Since a
// message's role is known only by what follows it, streamed messages wait for the
// next record: a tool makes them narration, the turn's end makes them the answer.
type codexReader struct {
	ephemeral  bool
	home       string // CODEX_HOME, to read a resumed thread's usage before this run
	res        backend.Result
	answer     []string // messages since the last tool use
	completed  bool
	turnFailed string
	lastError  string
	types      *cli.RecordTypes
	problems   cli.Problems // lines that could not be read, for OutputError
}

func newCodexReader(req *backend.Request) *codexReader {
	return &codexReader{ephemeral: codexEphemeral(req), home: req.Env["CODEX_HOME"],
		types: cli.NewRecordTypes("codex", "codex 0.169.0", codexRecordTypes...)}
}

// Line reads one line and returns its events.
func (p *codexReader) Line(line []byte) []backend.Event {
	return p.line(line)
}

func (p *codexReader) line(line []byte) []backend.Event {
	var r codexRecord
	if err := cli.ReadRecord("codex", line, &r); err != nil {
		return p.problems.Add(err)
	}
	switch r.Type {
	case "thread.started":
		// An ephemeral thread leaves no rollout: its id resumes nothing, so it is
		// not reported, and a retry restates the task instead of resuming.
		if p.ephemeral {
			return nil
		}
		p.res.SessionID = r.ThreadID
		return []backend.Event{{Kind: backend.EventSession, SessionID: r.ThreadID}}
	case "item.started":
		if r.Item != nil && r.Item.Type == "command_execution" {
			evs := p.narration()
			args, _ := json.Marshal(map[string]string{"command": r.Item.Command})
			return append(evs, backend.Event{Kind: backend.EventToolCall, Tool: &backend.ToolUse{ID: r.Item.ID, Name: "shell", Arguments: args}})
		}
	case "item.completed":
		return p.item(r.Item)
	case "turn.completed":
		p.completed = true
		u := cli.UsageFrom(r.Usage)
		if !p.ephemeral {
			u = usageMinus(u, codexUsageBefore(p.home, p.res.SessionID))
		}
		p.res.Usage.Add(u)
		evs := p.final()
		return append(evs, backend.Event{Kind: backend.EventUsage, Usage: &u})
	case "turn.failed":
		p.turnFailed = r.errorText()
		return []backend.Event{{Kind: backend.EventError, Text: codexReason(p.turnFailed), ErrorKind: codexErrorKind(p.turnFailed)}}
	case "error":
		p.lastError = r.errorText()
		return []backend.Event{{Kind: backend.EventError, Text: codexReason(p.lastError), ErrorKind: codexErrorKind(p.lastError)}}
	default:
		return p.problems.Add(p.types.Check(r.Type, line))
	}
	return nil
}

// item reads a completed item: an agent message joins the answer so far; a tool
// use makes the messages before it narration.
func (p *codexReader) item(it *codexItem) []backend.Event {
	if it == nil {
		return nil
	}
	switch it.Type {
	case "agent_message":
		p.answer = append(p.answer, it.Text)
		return nil
	case "reasoning":
		return []backend.Event{{Kind: backend.EventReasoning, Text: it.Text}}
	case "error":
		return nil // a warning of Codex's own (unknown model metadata), not the run's failure
	case "command_execution":
		evs := p.narration()
		use := &backend.ToolUse{ID: it.ID, Name: "shell", Output: it.AggregatedOutput, IsError: it.ExitCode == nil || *it.ExitCode != 0}
		return append(evs, backend.Event{Kind: backend.EventToolResult, Tool: use})
	default:
		// file_change, mcp_tool_call, web_search, todo_list...: the agent used a tool.
		return p.narration()
	}
}

// narration turns the waiting messages into reasoning: a tool use followed them.
func (p *codexReader) narration() []backend.Event {
	var evs []backend.Event
	for _, m := range p.answer {
		evs = append(evs, backend.Event{Kind: backend.EventReasoning, Text: m})
	}
	p.answer = nil
	return evs
}

// final streams the waiting messages as the answer: the turn ended after them.
func (p *codexReader) final() []backend.Event {
	var evs []backend.Event
	for i, m := range p.answer {
		if i > 0 {
			m = "\n" + m
		}
		evs = append(evs, backend.Event{Kind: backend.EventDelta, Text: m})
	}
	return evs
}

// result is the run's Result. A provider error is read from Codex's own records,
// whatever its exit code: turn.failed, or an error record with no completed turn
// after it (one followed by a completed turn was a reconnection that worked).
func (p *codexReader) result() backend.Result {
	res := p.res
	res.Text = strings.Join(p.answer, "\n")
	failure := p.turnFailed
	if failure == "" && !p.completed {
		failure = p.lastError
	}
	if failure != "" {
		res.ProviderError, res.ErrorKind = codexReason(failure), codexErrorKind(failure)
	}
	problems := p.problems
	switch {
	case p.completed:
		res.StopReason = "stop"
	case p.turnFailed == "":
		problems = append(problems, "codex's output ended without turn.completed or turn.failed: the answer is what came before")
	}
	res.OutputError = problems.String()
	return res
}

// codexReason is the provider's own message when Codex passed its error body on
// verbatim ({"error": {"message", "code"}}), else Codex's text.
func codexReason(msg string) string {
	var body struct {
		Error struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(msg), &body) != nil || body.Error.Message == "" {
		return msg
	}
	if body.Error.Code != "" {
		return body.Error.Message + " (" + body.Error.Code + ")"
	}
	return body.Error.Message
}

// codexErrorKind classifies Codex's error text; Codex writes the provider's HTTP
// status into it ("last status: 429 Too Many Requests", "unexpected status 401").
func codexErrorKind(msg string) backend.ErrorKind {
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(msg, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("429 Too Many Requests", "rate_limit_exceeded", "insufficient_quota", "Quota exceeded"):
		return backend.ErrorRateLimit
	case has("401 Unauthorized", "403 Forbidden", "invalid_api_key"):
		return backend.ErrorAuth
	case has("stream disconnected", "error sending request", "Connection refused", "timed out"):
		return backend.ErrorUnreachable
	}
	return backend.ErrorProvider
}
