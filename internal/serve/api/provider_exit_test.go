package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// exitingRefusal plays a real CLI refused by its provider: codex and Claude Code
// exit 1 and say why in their own records.
type exitingRefusal struct{}

func (exitingRefusal) Name() string { return "refused" }

func (exitingRefusal) Run(context.Context, *backend.Request, func(backend.Event)) (backend.Result, error) {
	return backend.Result{ExitCode: 1, Stopped: "exited", ProviderError: "Invalid schema for response_format (invalid_json_schema)",
		ErrorKind: backend.ErrorProvider}, nil
}

// A provider's refusal is a providerError with its reason whatever the CLI's exit
// code, with a schema or without: not a 500 "the agent exited with code 1".
func TestProviderRefusalWithAnExitCodeIsTheProvidersError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, setup{backend: exitingRefusal{}})
	for _, body := range []map[string]any{
		{"prompt": "hi"},
		{"prompt": "hi", "jsonSchema": map[string]any{"type": "object"}},
	} {
		var out map[string]any
		resp, raw := h.do("POST", "/run", body, &out)
		wantStatus(t, resp, raw, http.StatusBadRequest)
		if out["providerError"] != "Invalid schema for response_format (invalid_json_schema)" || out["errorKind"] != "provider" {
			t.Errorf("%s", raw)
		}
	}
}

// ownFailure plays an agent that stopped on its own limit, exiting 0: no answer.
type ownFailure struct{}

func (ownFailure) Name() string { return "own-failure" }

func (ownFailure) Run(context.Context, *backend.Request, func(backend.Event)) (backend.Result, error) {
	return backend.Result{Stopped: "exited", AgentError: "claude stopped: error_max_turns: Reached maximum number of turns (1)",
		ErrorKind: backend.ErrorAgent}, nil
}

// The agent's own failure is no answer whatever its exit code, and never the
// provider's: 500 with agentError, with a schema or without (no retry).
func TestAgentsOwnFailureIsNotAnAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, setup{backend: ownFailure{}})
	for _, body := range []map[string]any{
		{"prompt": "hi"},
		{"prompt": "hi", "jsonSchema": map[string]any{"type": "object"}},
	} {
		var out runResponse
		resp, raw := h.do("POST", "/run", body, &out)
		wantStatus(t, resp, raw, http.StatusInternalServerError)
		if !strings.Contains(out.AgentError, "error_max_turns") || out.ErrorKind != backend.ErrorAgent || out.ProviderError != "" ||
			!strings.Contains(out.Detail, "failed on its own: claude stopped: error_max_turns") || out.JSONRetries != 0 {
			t.Errorf("%s", raw)
		}
	}
}
