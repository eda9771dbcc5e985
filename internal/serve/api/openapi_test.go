package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/mcp"
	"github.com/etalab-ia/albert-code/internal/serve/openai"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// TestOpenAPIDescribesEveryRoute walks the routes served on the API's port (the
// API's own, the OpenAI endpoint's and the MCP server's) and the document's paths:
// each must be in the other, and each documented operation must reach the handler
// registered for it.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	resp, body := h.doWith(t.Context(), "GET", "/openapi.json", nil, &doc, "")
	wantStatus(t, resp, body, http.StatusOK)
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}

	// The port as serve mounts it: the API, /v1 and /mcp.
	oai := openai.New(openai.Options{Backend: h.srv.opts.Backend, Authorize: func(*http.Request) bool { return false }})
	root, err := workspace.NewRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mcpSrv, err := mcp.New(mcp.Options{Runs: h.srv, Root: root, Tokens: []string{"mcp-token-0123456789abcdef"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mcpSrv.Close)
	mux := http.NewServeMux()
	h.srv.Register(mux)
	oai.Mount(mux)
	mcpSrv.Mount(mux)
	port := httptest.NewServer(mux)
	t.Cleanup(port.Close)

	registered := map[string]string{} // route → how it is reached
	var patterns []string
	for _, r := range h.srv.routes() {
		registered[strings.ReplaceAll(r.pattern, "...}", "}")] = "api"
		patterns = append(patterns, r.pattern)
	}
	for _, r := range oai.Routes() {
		registered[strings.ReplaceAll(r, "...}", "}")] = "openai"
	}
	// The Streamable HTTP transport's three methods.
	for _, m := range []string{"POST", "GET", "DELETE"} {
		registered[m+" /mcp"] = "mcp"
	}
	for k := range registered {
		if !documented[k] {
			t.Errorf("route %s is not in openapi.json", k)
		}
	}
	for k := range documented {
		by, ok := registered[k]
		if !ok {
			t.Errorf("openapi.json documents %s, which the server does not serve", k)
			continue
		}
		method, path, _ := strings.Cut(k, " ")
		path = strings.NewReplacer("{id}", "abc", "{path}", "a/b.txt").Replace(path)
		_, pattern := mux.Handler(httptest.NewRequest(method, path, nil))
		switch by {
		case "api":
			if !slices.Contains(patterns, pattern) || strings.ReplaceAll(pattern, "...}", "}") != k {
				t.Errorf("%s reaches %q", k, pattern)
			}
		case "openai":
			if pattern != "/v1/" {
				t.Errorf("%s reaches %q, not the OpenAI endpoint", k, pattern)
			}
		case "mcp":
			// Without a token the MCP server's guard answers 401: the route is
			// its, not a 404 or 405 of the mux.
			req, _ := http.NewRequestWithContext(t.Context(), method, port.URL+path, nil)
			resp, err := port.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if pattern != "/mcp" || resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s reaches %q, answering %d", k, pattern, resp.StatusCode)
			}
		}
	}
}

// Every field of /run's answer is a property of the document's RunResult.
func TestOpenAPIRunResultHasEveryField(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Schemas["RunResult"].Properties
	rt := reflect.TypeFor[runResponse]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if _, ok := props[name]; !ok {
			t.Errorf("RunResult in openapi.json has no property %q (runResponse.%s)", name, rt.Field(i).Name)
		}
	}
}
