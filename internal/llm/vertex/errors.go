package vertex

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

// httpError reads an HTTP error answer: {"error": google.rpc.Status}, sometimes
// inside a one-element array. A body that is neither (a proxy's page) is shown
// trimmed as the message.
func (p *Provider) httpError(status int, _ http.Header, body []byte) *llm.APIError {
	var doc struct {
		Error *wireError `json:"error"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var docs []json.RawMessage
		if json.Unmarshal(trimmed, &docs) == nil && len(docs) > 0 {
			trimmed = docs[0]
		}
	}
	if json.Unmarshal(trimmed, &doc) != nil || doc.Error == nil {
		return &llm.APIError{Status: status, Message: strings.TrimSpace(sse.Excerpt(body)), Body: sse.Excerpt(body), URL: p.name}
	}
	e := p.apiError(doc.Error, body)
	e.Status = status
	return e
}

// apiError converts a google.rpc.Status, from an error answer or an error event
// inside a 200 stream. Google sends no Retry-After header: the wait is a
// google.rpc.RetryInfo entry in details, as "37s" or "0.5s".
func (p *Provider) apiError(e *wireError, raw []byte) *llm.APIError {
	status := e.Code
	if status < 400 {
		status = http.StatusInternalServerError
	}
	return &llm.APIError{Status: status, Message: cmp.Or(e.Message, e.Status), Body: sse.Excerpt(raw),
		URL: p.name, RetryAfter: retryDelay(e.Details)}
}

func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		if v, err := time.ParseDuration(s); err == nil && v > 0 {
			return v
		}
	}
	return 0
}
