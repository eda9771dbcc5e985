package tool

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Invoke runs t with the guarantees the agent loop relies on: a panic in the tool
// becomes a model-visible error (and a log line with the stack), an infrastructure
// error becomes a failed result naming it, and Progress is never nil. The returned
// error is the infrastructure error, for the face to show; the Result is always the
// one to send to the model.
func Invoke(ctx context.Context, t Tool, call Call) (res Result, err error) {
	if call.Progress == nil {
		call.Progress = func(string) {}
	}
	name := t.Info().Name
	defer func() {
		if r := recover(); r != nil {
			slog.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
			res = Errorf("tool %s crashed: %v", name, r)
			err = fmt.Errorf("tool %s panicked: %v", name, r)
		}
	}()
	res, err = t.Run(ctx, call)
	if err != nil {
		if ctx.Err() != nil {
			return Errorf("tool %s was cancelled", name), err
		}
		return Errorf("tool %s failed: %v", name, err), err
	}
	return res, nil
}
