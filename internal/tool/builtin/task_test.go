package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/etalab-ia/albert-code/internal/tool"
)

func callWith(t *testing.T, args any) tool.Call {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Call{Args: raw, Progress: func(string) {}}
}

func TestTask(t *testing.T) {
	t.Parallel()
	t.Run("delegates and returns the final text", func(t *testing.T) {
		t.Parallel()
		var got SubAgentRequest
		runner := SubAgentFunc(func(ctx context.Context, req SubAgentRequest) (string, error) {
			got = req
			req.Progress("working")
			return "found 3 call sites", nil
		})
		res := run(t, Task(runner), TaskParams{Description: "find callers", Prompt: "list callers of Foo", Agent: "explore"})
		wantOK(t, res)
		if res.Output != "found 3 call sites" {
			t.Errorf("output = %q", res.Output)
		}
		if got.Description != "find callers" || got.Prompt != "list callers of Foo" || got.Agent != "explore" {
			t.Errorf("request = %+v", got)
		}
	})
	t.Run("no runner", func(t *testing.T) {
		t.Parallel()
		wantError(t, run(t, Task(nil), TaskParams{Description: "x", Prompt: "y"}), "sub-agents are not available")
	})
	t.Run("runner failure is model-visible", func(t *testing.T) {
		t.Parallel()
		runner := SubAgentFunc(func(context.Context, SubAgentRequest) (string, error) {
			return "", errors.New("unknown agent \"nope\"")
		})
		wantError(t, run(t, Task(runner), TaskParams{Description: "x", Prompt: "y", Agent: "nope"}), `the sub-agent failed: unknown agent "nope"`)
	})
	t.Run("cancel is infrastructure", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		runner := SubAgentFunc(func(ctx context.Context, _ SubAgentRequest) (string, error) {
			cancel()
			<-ctx.Done()
			return "", ctx.Err()
		})
		if _, err := Task(runner).Run(ctx, callWith(t, TaskParams{Description: "x", Prompt: "y"})); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}
