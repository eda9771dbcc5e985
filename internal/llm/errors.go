package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// ErrUnreachable wraps network failures: the server could not be reached or the
// connection broke before an answer.
var ErrUnreachable = errors.New("model endpoint unreachable")

// APIError is an HTTP error answer from a model server.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Message is the server's own explanation, extracted from FastAPI-style
	// {"detail": ...} or OpenAI-style {"error": {"message": ...}} bodies.
	Message string
	// Body is the start of the raw body, for logs.
	Body string
	// URL is the endpoint that answered.
	URL string
	// RetryAfter is the server's Retry-After, zero when absent.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("%s: HTTP %d: %s", e.URL, e.Status, msg)
}

// Log writes the error with its body to the log file: a 429's body says which
// limit and for how long, which the one-line message on screen leaves out. Every
// provider calls it once per error answer, HTTP or in-stream.
func (e *APIError) Log() {
	slog.Warn("model server error", "url", e.URL, "status", e.Status, "retry_after", e.RetryAfter, "body", e.Body)
}

// Retryable reports whether the same request may succeed later: rate limits,
// timeouts and server-side failures.
func (e *APIError) Retryable() bool {
	switch e.Status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly,
		http.StatusTooManyRequests:
		return true
	}
	return e.Status >= 500
}

// IsRetryable reports whether err is worth another try: a retryable APIError or a
// network failure. Cancellation never is.
func IsRetryable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Retryable()
	}
	return errors.Is(err, ErrUnreachable)
}
