package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/supervisor"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// apiError is an answer in OpenAI's error shape:
// {"error":{"message","type","param","code"}}, with its HTTP status.
type apiError struct {
	Status  int     `json:"-"`
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
	// ExitCode is a CLI agent's exit code, when it failed or could not start (127).
	ExitCode *int `json:"exit_code,omitempty"`
	// RetryAfter is sent as the Retry-After header when positive.
	RetryAfter time.Duration `json:"-"`
}

func (e *apiError) Error() string { return e.Message }

// OpenAI's error types.
const (
	typeInvalid   = "invalid_request_error"
	typeRateLimit = "rate_limit_error"
	typeServer    = "server_error"
)

// badRequest is a 400 naming the field at fault (param, as OpenAI names it).
func badRequest(param, format string, args ...any) *apiError {
	e := &apiError{Status: http.StatusBadRequest, Type: typeInvalid, Message: fmt.Sprintf(format, args...)}
	if param != "" {
		e.Param = &param
	}
	return e
}

func withCode(e *apiError, code string) *apiError {
	e.Code = &code
	return e
}

func writeError(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="albert-code"`)
	}
	writeJSON(w, e.Status, struct {
		Error *apiError `json:"error"`
	}{e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<" in a message stays readable
	err := enc.Encode(v)
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"error":{"message":"encode the answer: ` + err.Error() + `","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// defaultRetryAfter is sent with a 429 when the provider gave no Retry-After;
// judgement: long enough for a per-second window to pass, short enough not to idle.
const defaultRetryAfter = 2 * time.Second

// errorOf maps what stopped a request to its OpenAI answer. ctx is the request's: a
// client that went away gets nothing, and a nil result says so.
func errorOf(ctx context.Context, err error) *apiError {
	var ae *apiError
	var qf *workspace.QueueFullError
	var nameErr *workspace.NameError
	switch {
	case errors.As(err, &ae):
		return ae
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return nil
	case errors.As(err, &qf):
		return &apiError{Status: http.StatusTooManyRequests, Type: typeRateLimit, Message: qf.Error(),
			Code: ptr("workspace_busy"), RetryAfter: qf.RetryAfter}
	case errors.As(err, &nameErr):
		return withCode(badRequest("x-albert-code-workspace", "%s", nameErr.Error()), "invalid_workspace")
	case errors.Is(err, backend.ErrInvalidRequest):
		return badRequest("", "%s", err.Error())
	case errors.Is(err, supervisor.ErrNotFound):
		// /run's answer too: a 500 with the shell's "command not found" code.
		return &apiError{Status: http.StatusInternalServerError, Type: typeServer, Code: ptr("agent_not_found"), ExitCode: ptr(127),
			Message: "the agent could not be started (exit code 127): " + err.Error()}
	}
	return providerError(err, native.ErrorKindOf(err))
}

// providerError answers for a model provider's failure, by its kind: its rate limit
// is the client's 429 (the client should slow down too); a refusal of a request
// is a 400 carrying the provider's reason; the server's own key refused, or a
// provider out of reach, is a 502, not the client's fault.
func providerError(err error, kind backend.ErrorKind) *apiError {
	msg := err.Error()
	switch kind {
	case backend.ErrorRateLimit:
		wait := defaultRetryAfter
		var apiErr *llm.APIError
		if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
			wait = apiErr.RetryAfter
		}
		return &apiError{Status: http.StatusTooManyRequests, Type: typeRateLimit, Message: "the model provider's rate limit: " + msg,
			Code: ptr("rate_limit_exceeded"), RetryAfter: wait}
	case backend.ErrorTimeout, backend.ErrorIdle:
		return &apiError{Status: http.StatusGatewayTimeout, Type: typeServer, Message: msg, Code: ptr("timeout")}
	case backend.ErrorProvider:
		var apiErr *llm.APIError
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest {
			return withCode(badRequest("", "the model provider refused the request: %s", msg), "provider_refused")
		}
	}
	return &apiError{Status: http.StatusBadGateway, Type: typeServer, Message: "the model provider failed: " + msg, Code: ptr("provider_error")}
}
