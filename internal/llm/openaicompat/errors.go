package openaicompat

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

const (
	// bodyExcerptLen is how much of an error body APIError.Body keeps: enough for
	// every error Albert, vLLM and OpenAI send (the seed logs 300 and classifies
	// quota errors on the first 500), small enough for a log line.
	bodyExcerptLen = 500
	// maxErrorBody bounds what is read of an error answer, so a proxy that sends an
	// HTML page or an endless body cannot hold the call.
	maxErrorBody = 64 << 10
)

// unreachable wraps a transport failure so that errors.Is finds both
// llm.ErrUnreachable and the cause, and the message names the URL.
func unreachable(url string, cause error) error {
	return fmt.Errorf("%s: %w: %w", url, llm.ErrUnreachable, cause)
}

// apiErrorFrom reads an HTTP error answer into an *llm.APIError.
func apiErrorFrom(res *http.Response, url string, now time.Time) *llm.APIError {
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	_ = res.Body.Close()
	excerpt := body
	if len(excerpt) > bodyExcerptLen {
		excerpt = excerpt[:bodyExcerptLen]
	}
	e := &llm.APIError{
		Status:     res.StatusCode,
		Message:    errorMessage(body),
		Body:       string(excerpt),
		URL:        url,
		RetryAfter: retryAfter(res.Header, now),
	}
	e.Log()
	return e
}

// errorMessage extracts the server's explanation from the body styles met in the
// wild: OpenAI and vLLM {"error": {"message": ...}} (or {"error": "..."}),
// FastAPI/Albert {"detail": "..."} and FastAPI validation errors
// {"detail": [{"loc": [...], "msg": ...}]}. Anything else is returned trimmed, so
// a plain-text or HTML answer from a proxy is still shown.
func errorMessage(body []byte) string {
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return strings.TrimSpace(string(truncate(body, bodyExcerptLen)))
	}
	if msg := messageOf(doc.Error); msg != "" {
		return msg
	}
	if msg := detailMessage(doc.Detail); msg != "" {
		return msg
	}
	if doc.Message != "" {
		return doc.Message
	}
	return strings.TrimSpace(string(truncate(body, bodyExcerptLen)))
}

// messageOf reads a string, or an object's "message" (or nested "detail").
func messageOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		if obj.Message != "" {
			return obj.Message
		}
		return detailMessage(obj.Detail)
	}
	return ""
}

// detailMessage reads FastAPI's detail: a string, an object with a message, or a
// list of validation errors rendered as "body.messages.0.content: field required".
func detailMessage(raw json.RawMessage) string {
	if msg := messageOf(raw); msg != "" {
		return msg
	}
	var list []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var parts []string
	for _, e := range list {
		var loc []string
		for _, l := range e.Loc {
			loc = append(loc, fmt.Sprint(l))
		}
		switch {
		case len(loc) > 0 && e.Msg != "":
			parts = append(parts, strings.Join(loc, ".")+": "+e.Msg)
		case e.Msg != "":
			parts = append(parts, e.Msg)
		}
	}
	return strings.Join(parts, "; ")
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// retryAfter reads how long the server wants us to wait: retry-after-ms (OpenAI's
// precise variant) first, then Retry-After as seconds or as an HTTP date. A date in
// the past or an unreadable value means no wait is known.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

// streamAPIError turns an error event sent inside a 200 stream (vLLM does this
// when generation fails after the headers went out) into an *llm.APIError. Its
// status is the event's numeric code when it has one, else 500: the server failed
// after accepting the request, which is worth a retry.
func streamAPIError(data, errField json.RawMessage, url string) *llm.APIError {
	var obj struct {
		Code json.RawMessage `json:"code"`
	}
	_ = json.Unmarshal(errField, &obj)
	status := http.StatusInternalServerError
	if code, err := strconv.Atoi(strings.Trim(string(obj.Code), `"`)); err == nil && code >= 400 && code <= 599 {
		status = code
	}
	msg := messageOf(errField)
	if msg == "" {
		msg = "error event in stream: " + string(truncate(errField, bodyExcerptLen))
	}
	e := &llm.APIError{
		Status:  status,
		Message: msg,
		Body:    string(truncate(data, bodyExcerptLen)),
		URL:     url,
	}
	e.Log()
	return e
}
