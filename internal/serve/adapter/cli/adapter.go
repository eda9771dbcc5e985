// Package cli is how serve drives a CLI agent: the Adapter contract each agent's
// package implements (three required methods, optional ones with defaults), the
// supervised process that runs it (RunProcess, every adapter's Run), and the helpers
// that read agents' JSONL output.
package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// Adapter drives one CLI agent: how to call it, and how to read what it printed.
// The prompt goes on stdin and the agent runs in Request.Workspace unless an optional
// interface below says otherwise. It is a backend.Backend: its Run is RunProcess. A
// type that wraps an Adapter to read differently defines its own Run calling
// RunProcess with itself: the embedded Run would read with the wrapped Adapter.
type Adapter interface {
	backend.Backend
	// BuildArgv returns the program and its arguments for req.
	BuildArgv(req *backend.Request) ([]string, error)
	// ParseOutput reads the agent's whole stdout into a Result. Lines it does not
	// understand are skipped: agents print banners and warnings among their records.
	ParseOutput(stdout []byte, req *backend.Request) backend.Result
}

// Validator checks a request before anything runs; its error is the client's fault
// (HTTP 422) and says what to change.
type Validator interface {
	Validate(req *backend.Request) error
}

// Environ builds the agent's environment from the server's (base). The default is
// base, then req.Env.
type Environ interface {
	Env(req *backend.Request, base []string) []string
}

// Streamer turns stdout lines into events while the agent runs. The default makes
// each non-empty line a delta (a plain-text agent's answer, streamed line by line).
type Streamer interface {
	NewStream(req *backend.Request) Stream
}

// Stream parses one run's lines, in order; it may keep state between them.
type Stream interface {
	Line(line []byte) []backend.Event
}

// Modeler lists the models an agent offers; none means any name is passed through.
type Modeler interface {
	Models() []string
}

// ThinkingLeveler lists the reasoning levels an agent accepts; none means free text.
type ThinkingLeveler interface {
	ThinkingLevels() []string
}

// PromptReader gives what the agent reads on stdin; nil means nothing (the prompt is
// in argv). The default is the prompt.
type PromptReader interface {
	Stdin(req *backend.Request) io.Reader
}

// Validate checks what every adapter needs, then the adapter's own rules.
func Validate(a Adapter, req *backend.Request) error {
	switch req.EventMode {
	case "", backend.EventsNone, backend.EventsFull:
	default:
		return fmt.Errorf("eventMode %q: want %q or %q", req.EventMode, backend.EventsNone, backend.EventsFull)
	}
	if req.NoTools && len(req.ToolsAllowlist) > 0 {
		return fmt.Errorf("noTools and toolsAllowlist together: send one or the other")
	}
	if levels := ThinkingLevels(a); req.Thinking != "" && len(levels) > 0 && !slices.Contains(levels, req.Thinking) {
		return fmt.Errorf("thinking %q is not a level of %s: want one of %s", req.Thinking, a.Name(), strings.Join(levels, ", "))
	}
	if v, ok := a.(Validator); ok {
		return v.Validate(req)
	}
	return nil
}

// Env returns the agent's environment for req.
func Env(a Adapter, req *backend.Request, base []string) []string {
	if e, ok := a.(Environ); ok {
		return e.Env(req, base)
	}
	return MergeEnv(base, req.Env)
}

// NewStream returns the adapter's stream parser, or the line-per-delta default.
func NewStream(a Adapter, req *backend.Request) Stream {
	if s, ok := a.(Streamer); ok {
		return s.NewStream(req)
	}
	return LineDeltas{}
}

// Models returns the adapter's models, or none.
func Models(a Adapter) []string {
	if m, ok := a.(Modeler); ok {
		return m.Models()
	}
	return nil
}

// ThinkingLevels returns the adapter's thinking levels, or none.
func ThinkingLevels(a Adapter) []string {
	if t, ok := a.(ThinkingLeveler); ok {
		return t.ThinkingLevels()
	}
	return nil
}

// Stdin returns what the agent reads on stdin for req.
func Stdin(a Adapter, req *backend.Request) io.Reader {
	if p, ok := a.(PromptReader); ok {
		return p.Stdin(req)
	}
	return strings.NewReader(req.Prompt)
}

type LineDeltas struct{}

func (LineDeltas) Line(line []byte) []backend.Event {
	if len(strings.TrimSpace(string(line))) == 0 {
		return nil
	}
	return []backend.Event{{Kind: backend.EventDelta, Text: string(line) + "\n"}}
}

// MergeEnv returns base with vars set, replacing earlier values of the same name.
func MergeEnv(base []string, vars map[string]string) []string {
	if len(vars) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(vars))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := vars[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		out = append(out, k+"="+vars[k])
	}
	return out
}
