package openai

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// providerStatus finds the HTTP status a CLI agent quotes in a provider's error:
// Claude Code writes "API Error: 429 ...", Codex "unexpected status 400 Bad
// Request: ...", and both carry JSON bodies with "status": 503. The first match
// counts; none is 0.
var providerStatus = regexp.MustCompile(`(?i)\b(?:status(?:[ _]?code)?|api error|http)\W{0,3}([1-5][0-9]{2})\b`)

func statusIn(msg string) int {
	m := providerStatus.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// providerRefusal answers for a provider error a CLI agent reported, with the
// provider's own message: its rate limit is the client's 429 (with Retry-After),
// a refusal of the request (4xx) the client's 400, and the provider failing, out
// of reach or refusing the server's credentials a 502, not the client's fault.
// The kind the adapter gave and the status quoted in the message decide; with
// neither, it is a refusal of the request, as /run answers it.
func providerRefusal(msg string, kind backend.ErrorKind) *apiError {
	status := statusIn(msg)
	switch {
	case kind == backend.ErrorRateLimit || status == http.StatusTooManyRequests:
		return &apiError{Status: http.StatusTooManyRequests, Type: typeRateLimit, Code: ptr("rate_limit_exceeded"),
			Message: "the model provider's rate limit: " + msg, RetryAfter: defaultRetryAfter}
	case kind == backend.ErrorAuth || kind == backend.ErrorUnreachable ||
		status == http.StatusUnauthorized || status == http.StatusForbidden || status >= 500:
		return &apiError{Status: http.StatusBadGateway, Type: typeServer, Code: ptr("provider_error"),
			Message: "the model provider failed: " + msg}
	case kind == backend.ErrorTimeout || kind == backend.ErrorIdle:
		return &apiError{Status: http.StatusGatewayTimeout, Type: typeServer, Code: ptr("timeout"), Message: msg}
	}
	return withCode(badRequest("", "the model provider refused the request: %s", msg), "provider_refused")
}
