// Package albertcode drives this program as a subprocess (albert-code -p --output
// stream-json) and reads its stream-json.
package albertcode

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/agent"
)

// Adapter drives this program as a subprocess (`albert-code -p --output
// stream-json`): for a server that wants the agent out of its own process, or another
// version of it. The prompt goes on stdin, not in argv: no ARG_MAX, no prompt read as
// a flag because it starts with "-", and nothing in ps. The workspace is trusted and
// every tool approved, as a server has no one to ask.
type Adapter struct {
	// Binary is the program to run; empty means "albert-code".
	Binary string
}

func (a *Adapter) Name() string { return "albert-code" }

// Run runs the agent as a supervised process (RunProcess).
func (a *Adapter) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, a, req, emit)
}

// Validate refuses what the command line cannot express; profiles and configuration
// files cover these.
func (a *Adapter) Validate(req *backend.Request) error {
	var unsupported []string
	if req.SystemPrompt != "" || req.AppendSystemPrompt != "" {
		unsupported = append(unsupported, "systemPrompt/appendSystemPrompt (use an agent profile)")
	}
	if req.Thinking != "" {
		unsupported = append(unsupported, "thinking (set it in the model's configuration)")
	}
	if req.NoTools {
		unsupported = append(unsupported, "noTools (send a toolsAllowlist, or use the plan profile through extraArgs)")
	}
	if len(unsupported) > 0 {
		return errors.New("albert-code adapter cannot take " + strings.Join(unsupported, "; "))
	}
	return nil
}

func (a *Adapter) BuildArgv(req *backend.Request) ([]string, error) {
	argv := []string{cmp.Or(a.Binary, "albert-code"), "-p", "--output", "stream-json",
		"--trust", "--agent", "auto-approve"}
	if req.Model != "" {
		argv = append(argv, "--model", req.Model)
	}
	switch {
	case req.Resume != "":
		argv = append(argv, "--resume", req.Resume)
	case req.Continue:
		argv = append(argv, "--continue")
	}
	if len(req.ToolsAllowlist) > 0 {
		argv = append(argv, "--enabled-tools", strings.Join(req.ToolsAllowlist, ","))
	}
	return append(argv, req.ExtraArgs...), nil
}

// albertResultType is the type of the summary record that ends headless stream-json
// output (internal/headless.Summary).
const albertResultType = "result"

// albertRecord holds the fields read from an agent.Event line or the final summary.
type albertRecord struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	SessionID  string          `json:"session_id"`
	StopReason string          `json:"stop_reason"`
	Usage      json.RawMessage `json:"usage"`
	Cost       float64         `json:"cost"`
	Error      string          `json:"error"`
}

func (r *albertRecord) usage() backend.Usage {
	u := cli.UsageFrom(r.Usage)
	if r.Cost > 0 {
		u.Cost, u.Currency = r.Cost, "EUR" // the shipped price tables are in euros
	}
	return u
}

// ParseOutput takes the tokens from the per-call usage records: the summary's usage
// and cost are the whole session's, earlier runs included when the run continued one.
// The cost is kept only for a fresh session, where the two agree. A line that is not
// a record, a record cut short, or output without its summary is said in OutputError,
// quoting the line; event types are not checked, since this program's own stream-json
// (docs/headless.md) is what it reads.
func (a *Adapter) ParseOutput(stdout []byte, req *backend.Request) backend.Result {
	var res backend.Result
	var deltas strings.Builder
	var calls backend.Usage
	summary, sawCalls := false, false
	var problems cli.Problems
	for line := range cli.Lines(stdout) {
		var r albertRecord
		if err := cli.ReadRecord("albert-code", line, &r); err != nil {
			problems.Add(err)
			continue
		}
		switch r.Type {
		case string(agent.EventTextDelta):
			deltas.WriteString(r.Text)
		case string(agent.EventUsage):
			calls.Add(cli.UsageFrom(r.Usage))
			sawCalls = true
		case albertResultType:
			summary = true
			res.Text, res.SessionID, res.StopReason = r.Text, r.SessionID, r.StopReason
			res.Usage = r.usage()
			if r.StopReason == string(agent.StopError) {
				res.ProviderError = r.Error
			}
		}
	}
	if !summary {
		res.Text = deltas.String() // killed before its summary: keep what it said
		problems = append(problems, "albert-code's output ended without its result record: the answer is the text streamed before")
	}
	if sawCalls {
		fresh := req.Resume == "" && !req.Continue
		cost, currency := res.Usage.Cost, res.Usage.Currency
		res.Usage = calls
		if fresh {
			res.Usage.Cost, res.Usage.Currency = cost, currency
		}
	}
	res.OutputError = problems.String()
	return res
}

func (a *Adapter) NewStream(*backend.Request) cli.Stream { return albertStream{} }

type albertStream struct{}

func (albertStream) Line(line []byte) []backend.Event {
	var r albertRecord
	if err := cli.ReadRecord("albert-code", line, &r); err != nil {
		return []backend.Event{{Kind: backend.EventError, Text: err.Error()}}
	}
	switch r.Type {
	case string(agent.EventTextDelta):
		return []backend.Event{{Kind: backend.EventDelta, Text: r.Text}}
	case string(agent.EventUsage):
		if len(r.Usage) > 0 {
			u := cli.UsageFrom(r.Usage)
			return []backend.Event{{Kind: backend.EventUsage, Usage: &u}}
		}
	case string(agent.EventError):
		return []backend.Event{{Kind: backend.EventError, Text: r.Text}}
	case albertResultType:
		if r.SessionID != "" {
			return []backend.Event{{Kind: backend.EventSession, SessionID: r.SessionID}}
		}
	}
	return nil
}
