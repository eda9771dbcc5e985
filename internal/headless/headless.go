// Package headless is the face for scripts and CI (`albert-code -p`): it runs one prompt
// and prints the answer as plain text, as one JSON object, or as a stream of JSON
// events ending with that same object. Nobody can answer a permission request here,
// so the agent is given no Approver and refuses such calls with a message to the model.
package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/termsafe"
)

// Format is an output format.
type Format string

const (
	FormatText       Format = "text"
	FormatJSON       Format = "json"
	FormatStreamJSON Format = "stream-json"
)

// ParseFormat checks an --output value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatText, FormatJSON, FormatStreamJSON:
		return f, nil
	}
	return "", fmt.Errorf("--output %q: want text, json or stream-json", s)
}

// Runner is what headless drives: the agent, or anything with the same Run.
type Runner interface {
	Run(ctx context.Context, prompt string, emit func(agent.Event)) agent.Result
}

// Options configure one headless run.
type Options struct {
	Format    Format
	SessionID string
	Model     string
	// ModelName maps the wire name of the model that answered to its configured
	// name, for the summary; nil leaves the wire name.
	ModelName func(wire string) string
	Stdout    io.Writer
	// Stderr receives notices and errors in text mode.
	Stderr io.Writer
}

// Summary is the final record, printed by json and ending stream-json. Its fields are
// a stable interface for scripts: add, never rename.
type Summary struct {
	Type       string           `json:"type"`
	Text       string           `json:"text"`
	SessionID  string           `json:"session_id"`
	StopReason agent.StopReason `json:"stop_reason"`
	Turns      int              `json:"turns"`
	Usage      usageJSON        `json:"usage"`
	Cost       float64          `json:"cost"`
	Model      string           `json:"model,omitempty"`
	DurationMS int64            `json:"duration_ms"`
	Error      string           `json:"error,omitempty"`
	// Refused lists the calls that did not run because something refused them. The
	// exit code stays 0 (docs/headless.md says why): scripts check this list.
	Refused []RefusedCall `json:"refused,omitempty"`
}

// RefusedCall is one tool call that did not run, and why.
type RefusedCall struct {
	ID        string          `json:"id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Reason    string          `json:"reason"`
}

type usageJSON struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Run sends prompt through r and prints what opts.Format asks for. The summary is
// printed whatever the outcome: a limit, a cancel or an error still give scripts
// their record.
func Run(ctx context.Context, r Runner, prompt string, opts Options) (agent.Result, error) {
	start := time.Now()
	enc := json.NewEncoder(opts.Stdout)
	enc.SetEscapeHTML(false)
	var writeErr error
	var refused []RefusedCall
	emit := func(ev agent.Event) {
		if ev.Kind == agent.EventToolCallResult && ev.Tool != nil && ev.Tool.Refused {
			refused = append(refused, RefusedCall{ID: ev.Tool.ID, Tool: ev.Tool.Name, Arguments: ev.Tool.Arguments, Reason: ev.Tool.Output})
			if opts.Format == FormatText {
				fmt.Fprintf(opts.Stderr, "albert-code: refused %s: %s\n", ev.Tool.Name, termsafe.Printable(firstLine(ev.Tool.Output)))
			}
		}
		switch opts.Format {
		case FormatStreamJSON:
			if ev.Kind == agent.EventTurnEnd {
				return // the summary below is the last line
			}
			if err := enc.Encode(ev); err != nil && writeErr == nil {
				writeErr = err
			}
		case FormatText:
			switch ev.Kind {
			case agent.EventNotice, agent.EventRetry:
				fmt.Fprintln(opts.Stderr, "albert-code:", termsafe.Printable(ev.Text))
			case agent.EventRateLimitWait:
				fmt.Fprintf(opts.Stderr, "albert-code: waiting %s: %s\n", waitLength(ev.WaitSeconds), termsafe.Printable(ev.Text))
			case agent.EventError:
				fmt.Fprintln(opts.Stderr, "albert-code: error:", termsafe.Printable(ev.Text))
			}
		}
	}
	res := r.Run(ctx, prompt, emit)
	if writeErr != nil {
		return res, fmt.Errorf("write output: %w", writeErr)
	}
	sum := summarize(res, opts, time.Since(start))
	sum.Refused = refused
	switch opts.Format {
	case FormatText:
		if res.Text != "" {
			_, err := fmt.Fprintln(opts.Stdout, strings.TrimRight(termsafe.Printable(res.Text), "\n"))
			return res, err
		}
		return res, nil
	default:
		return res, enc.Encode(sum)
	}
}

func summarize(res agent.Result, opts Options, d time.Duration) Summary {
	s := Summary{
		Type:       "result",
		Text:       res.Text,
		SessionID:  opts.SessionID,
		StopReason: res.Stop,
		Turns:      res.Stats.Turns,
		Usage:      usage(res.Stats.Usage),
		Cost:       res.Stats.Cost,
		Model:      opts.Model,
		DurationMS: d.Milliseconds(),
	}
	if res.Model != "" {
		s.Model = res.Model
		if opts.ModelName != nil {
			s.Model = opts.ModelName(res.Model)
		}
	}
	if res.Err != nil {
		s.Error = res.Err.Error()
	}
	return s
}

// waitLength reads a wait in seconds as a duration to the tenth of a second.
func waitLength(seconds float64) time.Duration {
	return time.Duration(seconds * float64(time.Second)).Round(100 * time.Millisecond)
}

func usage(u llm.Usage) usageJSON {
	return usageJSON{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
}

// firstLine keeps a refusal to one line of stderr: the reason comes first.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
