package mcp

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestGuard drives /mcp with raw HTTP: tokens, the apiToken parameter, and the
// Host and Origin allow-lists, each refusal with its status and a detail naming
// the fix.
func TestGuard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, tc := range []struct {
		name, query, auth, host, origin string
		status                          int
		detail                          string
	}{
		{name: "no token", status: 401, detail: "missing token"},
		{name: "the API's token", auth: "Bearer " + apiToken, status: 401, detail: "the API's are refused"},
		{name: "the API's token as apiToken", query: "?apiToken=" + apiToken, status: 401, detail: "invalid token"},
		{name: "wrong scheme", auth: "Basic " + mcpToken, status: 401, detail: "not a bearer token"},
		{name: "bearer token", auth: "Bearer " + mcpToken, status: 200},
		{name: "apiToken parameter", query: "?apiToken=" + mcpToken, status: 200},
		{name: "the original's /mcp/", query: "/?apiToken=" + mcpToken, status: 200},
		{name: "foreign host", auth: "Bearer " + mcpToken, host: "evil.example:80", status: 421, detail: "ALBERT_CODE_MCP_MODE_ALLOWED_HOSTS"},
		{name: "localhost by name", auth: "Bearer " + mcpToken, host: "localhost:1234", status: 200},
		{name: "foreign origin", auth: "Bearer " + mcpToken, origin: "http://evil.example", status: 403, detail: "ALBERT_CODE_MCP_MODE_ALLOWED_ORIGINS"},
		{name: "https loopback origin", auth: "Bearer " + mcpToken, origin: "https://localhost:3000", status: 403, detail: "not allowed"},
		{name: "loopback origin", auth: "Bearer " + mcpToken, origin: "http://localhost:3000", status: 200},
		{name: "foreign host before the token", host: "evil.example", status: 421},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, h.url+tc.query, strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.detail) {
				t.Errorf("status %d %q, want %d with %q", resp.StatusCode, body, tc.status, tc.detail)
			}
			if tc.status == 200 && resp.Header.Get("Mcp-Session-Id") == "" {
				t.Errorf("no session id in %v", resp.Header)
			}
		})
	}
}

func TestAllowLists(t *testing.T) {
	t.Parallel()
	g := newGuard(nil, []string{"code.example", "proxy.example:8443", "other.example:*"}, []string{"https://app.example", "http://dev.example:*"})
	for host, want := range map[string]bool{
		"code.example": true, "code.example:80": true, "CODE.example:9": true,
		"proxy.example:8443": true, "proxy.example:80": false, "proxy.example": false,
		"other.example:1": true, "localhost:8080": false, "code.example.evil": false,
	} {
		if got := g.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	for origin, want := range map[string]bool{
		"https://app.example": true, "http://app.example": false, "https://app.example:444": false,
		"http://dev.example:5173": true, "http://dev.example": true, "null": false, "https://evil.example": false,
	} {
		if got := g.originAllowed(origin); got != want {
			t.Errorf("originAllowed(%q) = %v, want %v", origin, got, want)
		}
	}
	if !newGuard(nil, []string{"*"}, []string{"*"}).hostAllowed("anything:1") {
		t.Error(`"*" does not allow every host`)
	}
	if !newGuard(nil, nil, nil).hostAllowed("[::1]:8080") {
		t.Error("the default list refuses [::1]")
	}
}
