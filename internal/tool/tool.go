// Package tool defines the one contract every tool meets (built-in, MCP proxy or code
// graph), the registry the agent looks tools up in, and the rules that turn a model's
// raw arguments into typed parameters or a model-visible error.
package tool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Kind groups tools the way editors show them (ACP's tool kinds).
type Kind string

const (
	KindRead    Kind = "read"
	KindEdit    Kind = "edit"
	KindDelete  Kind = "delete"
	KindSearch  Kind = "search"
	KindExecute Kind = "execute"
	KindFetch   Kind = "fetch"
	KindThink   Kind = "think"
	KindOther   Kind = "other"
)

// Info describes a tool.
type Info struct {
	Name        string
	Description string
	// Schema is the JSON Schema object of the arguments.
	Schema json.RawMessage
	// ReadOnly tools change nothing outside the agent: calls to them may run in
	// parallel and they are the only ones a read-only profile keeps.
	ReadOnly bool
	Kind     Kind
}

// Spec is the part of Info the model sees.
func (i Info) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: i.Name, Description: i.Description, Parameters: i.Schema}
}

// Call is one invocation.
type Call struct {
	ID   string
	Args json.RawMessage
	// Progress streams partial output (a command's output as it comes) to the face.
	// Never nil when the call comes through Invoke.
	Progress func(text string)
}

// Result is what a tool returns.
type Result struct {
	// Output is what the model reads.
	Output string
	// IsError marks a failure the model caused or can fix: a bad path, a non-unique
	// edit, a command that exited non-zero. The turn goes on.
	IsError bool
	// Truncated says Output was capped (the marker is in Output too).
	Truncated bool
	// Display is rich data for faces (a diff, a todo list); the model never sees it.
	Display any
}

// Tool is anything the model can call. Run returns a Result for outcomes the model
// should see, and an error only for real infrastructure failures (the error is shown
// to the user and reported to the model as a failed call).
type Tool interface {
	Info() Info
	Run(ctx context.Context, call Call) (Result, error)
}

// Pather is implemented by tools whose calls touch files, so the permission policy can
// check path globs and escapes from the workspace before the call runs.
type Pather interface {
	Paths(args json.RawMessage) []string
}

// Errorf builds a model-visible error result.
func Errorf(format string, args ...any) Result {
	return Result{Output: fmt.Sprintf(format, args...), IsError: true}
}

// Text builds a plain successful result.
func Text(s string) Result { return Result{Output: s} }
