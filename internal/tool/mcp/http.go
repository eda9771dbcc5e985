package mcp

import (
	"net/http"
	"os"
	"sync/atomic"

	"github.com/etalab-ia/albert-code/internal/config"
)

// httpHeaders are the headers sent with every request to an HTTP server: the
// configured ones, and a bearer token read from bearer_token_env unless Authorization
// is already set.
func httpHeaders(cfg config.MCPServer, lookup func(string) (string, bool)) http.Header {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	h := http.Header{}
	for k, v := range cfg.Headers {
		h.Set(k, v)
	}
	if cfg.BearerTokenEnv != "" && h.Get("Authorization") == "" {
		if tok, ok := lookup(cfg.BearerTokenEnv); ok && tok != "" {
			h.Set("Authorization", "Bearer "+tok)
		}
	}
	return h
}

// headerTransport adds fixed headers to every request, and notices when the server
// refuses a session it no longer knows.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
	// rejections counts POSTs refused with 400 or 404 while carrying a session ID:
	// the server forgot the session (it restarted), so it ran nothing. The
	// specification says 404; the TypeScript SDK's servers answer 400.
	rejections atomic.Int64
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range t.headers {
			req.Header[k] = vs
		}
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost && req.Header.Get("Mcp-Session-Id") != "" &&
		(resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusBadRequest) {
		t.rejections.Add(1)
	}
	return resp, err
}
