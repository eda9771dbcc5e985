package runner

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// direct stands for the in-process agent: events without a process.
type direct struct {
	err error
}

func (direct) Name() string { return "native" }

func (d direct) Run(_ context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	emit(backend.Event{Kind: backend.EventSession, SessionID: "s-1"})
	emit(backend.Event{Kind: backend.EventDelta, Text: req.Prompt})
	emit(backend.Event{Kind: backend.EventStop, StopReason: "its own stop, dropped"})
	return backend.Result{Text: req.Prompt, StopReason: "end_turn", Usage: backend.Usage{InputTokens: 3}}, d.err
}

func TestDirectBackendGetsTheSameEnding(t *testing.T) {
	t.Parallel()
	var kinds []backend.EventKind
	var last backend.Event
	res, err := New(Options{}).Run(t.Context(), direct{}, backend.Request{Prompt: "hi"}, func(e backend.Event) {
		kinds = append(kinds, e.Kind)
		last = e
	})
	if err != nil || res.Text != "hi" {
		t.Fatalf("%v %+v", err, res)
	}
	if len(kinds) != 3 || kinds[2] != backend.EventStop || last.StopReason != "end_turn" || last.Usage.InputTokens != 3 || last.ExitCode != nil {
		t.Errorf("events %v, stop %+v", kinds, last)
	}
}

func TestDirectBackendFailure(t *testing.T) {
	t.Parallel()
	boom := errors.New("provider unreachable")
	var kinds []backend.EventKind
	_, err := New(Options{}).Run(t.Context(), direct{err: boom}, backend.Request{}, func(e backend.Event) { kinds = append(kinds, e.Kind) })
	if !errors.Is(err, boom) || len(kinds) != 4 || kinds[2] != backend.EventError || kinds[3] != backend.EventStop {
		t.Errorf("err %v events %v", err, kinds)
	}
}

func TestStopReason(t *testing.T) {
	t.Parallel()
	tests := []struct {
		res  backend.Result
		want string
	}{
		{backend.Result{Stopped: "exited", StopReason: "end_turn"}, "end_turn"},
		{backend.Result{Stopped: "exited"}, "stop"},
		{backend.Result{Stopped: "exited", ExitCode: 1, StopReason: "end_turn"}, "error"},
		{backend.Result{Stopped: "exited", ProviderError: "quota"}, "error"},
		{backend.Result{Stopped: "exited", AgentError: "claude stopped: error_max_turns", StopReason: "tool_use"}, "error"},
		{backend.Result{Stopped: "idle", ExitCode: -1}, "idle"},
		{backend.Result{Stopped: "timeout", StopReason: "end_turn"}, "timeout"},
		{backend.Result{Stopped: "cancelled"}, "cancelled"},
	}
	for _, tc := range tests {
		if got := stopEvent(tc.res).StopReason; got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.res, got, tc.want)
		}
	}
}

// notStarted fails before its agent starts, as a CLI adapter refusing a request.
type notStarted struct{}

func (notStarted) Name() string { return "cli" }

func (notStarted) Run(context.Context, *backend.Request, func(backend.Event)) (backend.Result, error) {
	return backend.Result{}, backend.NotStarted(fmt.Errorf("%w: codex cannot restrict its tools by name", backend.ErrInvalidRequest))
}

// TestRunThatNeverStartedHasNoEvents: a backend that failed before its agent
// started gets no error nor stop event from the runner, and its error keeps its
// message and its kind.
func TestRunThatNeverStartedHasNoEvents(t *testing.T) {
	t.Parallel()
	var evs []backend.Event
	_, err := New(Options{}).Run(t.Context(), notStarted{}, backend.Request{}, func(e backend.Event) { evs = append(evs, e) })
	if !errors.Is(err, backend.ErrInvalidRequest) || !errors.Is(err, backend.ErrNotStarted) || len(evs) != 0 {
		t.Errorf("err %v, events %+v", err, evs)
	}
	if err.Error() != "invalid request: codex cannot restrict its tools by name" {
		t.Errorf("message %q", err.Error())
	}
}
