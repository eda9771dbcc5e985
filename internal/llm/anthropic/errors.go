package anthropic

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// statusOfType gives the HTTP status of each documented error type, for errors
// sent as an event inside a 200 stream, where the status says nothing.
var statusOfType = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"billing_error":         http.StatusPaymentRequired,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"timeout_error":         http.StatusGatewayTimeout,
	"overloaded_error":      529,
}

// wireError is the error object of an error answer or an error event:
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}.
type wireError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// httpError reads an HTTP error answer. A body that is not Anthropic's error
// object (a proxy's page) is shown trimmed as the message.
func (p *Provider) httpError(status int, header http.Header, body []byte) *llm.APIError {
	var doc struct {
		Error *wireError `json:"error"`
	}
	msg := strings.TrimSpace(sse.Excerpt(body))
	if json.Unmarshal(body, &doc) == nil && doc.Error != nil {
		msg = cmp.Or(doc.Error.Message, doc.Error.Type, msg)
	}
	return &llm.APIError{Status: status, Message: msg, Body: sse.Excerpt(body), URL: p.name,
		RetryAfter: retryAfter(header, p.now())}
}

// eventError converts an error event sent inside a 200 stream, whose status says
// nothing: the status comes from the error type.
func (p *Provider) eventError(e *wireError, raw []byte) *llm.APIError {
	if e == nil {
		e = &wireError{Type: "api_error"}
	}
	status := statusOfType[e.Type]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return &llm.APIError{Status: status, Message: cmp.Or(e.Message, e.Type), Body: sse.Excerpt(raw), URL: p.name}
}

// retryAfter reads retry-after-ms, then Retry-After as seconds or an HTTP date,
// the headers Anthropic documents. A past date or a bad value means unknown.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(max(secs, 0) * float64(time.Second))
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}
