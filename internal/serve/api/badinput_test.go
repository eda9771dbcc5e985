package api

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func TestBadBodiesNameTheField(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	if err := os.WriteFile(filepath.Join(h.srv.opts.Root.Dir(), "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, body, field, detail string
	}{
		{"not JSON", `{"prompt": `, "", "not a JSON object"},
		{"empty", ``, "", "the body is empty"},
		{"an array", `["hi"]`, "", "not a JSON object"},
		{"unknown field", `{"prompt":"hi","verbose":true}`, "verbose", `unknown field "verbose"`},
		{"wrong type", `{"prompt":"hi","timeoutSeconds":"30"}`, "timeoutSeconds", "want a number of seconds, got a string"},
		{"wrong type in a list", `{"prompt":"hi","toolsAllowlist":[1]}`, "toolsAllowlist", "want a list of strings"},
		{"no prompt", `{"workspace":"a"}`, "prompt", "required"},
		{"blank prompt", `{"prompt":"  "}`, "prompt", "required"},
		{"twice", `{"prompt":"hi","noTools":true,"no_tools":false}`, "noTools", "given twice"},
		{"same key twice", `{"prompt":"hi","workspace":"a","workspace":"b"}`, "workspace", `key "workspace" is given twice`},
		{"same key twice, escaped", `{"prompt":"hi","\u0070rompt":"ho"}`, "prompt", `key "prompt" is given twice`},
		{"same key twice, nested", `{"prompt":"hi","env":{"A":"1","A":"2"}}`, "env.A", `key "A" is given twice in the object at env`},
		{"bad event mode", `{"prompt":"hi","eventMode":"some"}`, "eventMode", `want "auto", "none" or "full"`},
		{"negative timeout", `{"prompt":"hi","timeoutSeconds":-1}`, "timeoutSeconds", "above 0"},
		{"broken schema", `{"prompt":"hi","jsonSchema":{"type":"objekt"}}`, "jsonSchema", "invalid JSON schema"},
		{"schema not an object", `{"prompt":"hi","jsonSchema":[1]}`, "jsonSchema", "want an object"},
		{"schema reading a file", `{"prompt":"hi","jsonSchema":{"$ref":"file:///etc/passwd"}}`, "jsonSchema", "not allowed"},
		{"absolute workspace", `{"prompt":"hi","workspace":"/etc"}`, "workspace", "absolute paths are not allowed"},
		{"traversal", `{"prompt":"hi","workspace":"a/../../x"}`, "workspace", `".." is not allowed`},
		{"workspace is a file", `{"prompt":"hi","workspace":"notes.txt"}`, "workspace", "not a directory"},
		{"workspace under a file", `{"prompt":"hi","workspace":"notes.txt/a"}`, "workspace", "notes.txt/a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e errorBody
			resp, body := h.do("POST", "/run", tc.body, &e)
			wantStatus(t, resp, body, http.StatusBadRequest)
			if e.Field != tc.field || !strings.Contains(e.Detail, tc.detail) {
				t.Errorf("field %q detail %q; want field %q and %q", e.Field, e.Detail, tc.field, tc.detail)
			}
		})
	}
	// Nothing of these reached the agent or the store.
	if runs, _ := h.store.List(t.Context(), runstore.Filter{}); len(runs) != 0 {
		t.Errorf("%d runs recorded", len(runs))
	}
}

func TestBodyPastTheLimitIs413(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{maxBody: 1 << 20})
	big := `{"prompt":"` + strings.Repeat("a", 3<<20) + `"}`
	var e errorBody
	resp, body := h.do("POST", "/run", big, &e)
	wantStatus(t, resp, body, http.StatusRequestEntityTooLarge)
	if !strings.Contains(e.Detail, "1048576") {
		t.Errorf("%s", body)
	}
	resp, body = h.do("PUT", "/files/big.txt", strings.Repeat("b", 2<<20), nil)
	wantStatus(t, resp, body, http.StatusRequestEntityTooLarge)
	resp, body = h.do("GET", "/files/big.txt", nil, nil)
	wantStatus(t, resp, body, http.StatusNotFound)
}

func TestBearerTokens(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	for _, tc := range []struct {
		name, token string
		status      int
	}{
		{"none", "", http.StatusUnauthorized},
		{"wrong", "test-token-0123456789abcdeX", http.StatusUnauthorized},
		{"a prefix", "test-token", http.StatusUnauthorized},
		{"first", testToken, http.StatusOK},
		{"second", "second-token-0123456789", http.StatusOK},
	} {
		resp, body := h.doWith(t.Context(), "GET", "/status", nil, nil, tc.token)
		wantStatus(t, resp, body, tc.status)
		if tc.status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", tc.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
	// /healthz and /openapi.json need no token.
	for _, p := range []string{"/healthz", "/openapi.json"} {
		resp, body := h.doWith(t.Context(), "GET", p, nil, nil, "")
		wantStatus(t, resp, body, http.StatusOK)
	}
	// Every other route does.
	for _, r := range h.srv.routes() {
		if r.public {
			continue
		}
		method, path, _ := strings.Cut(r.pattern, " ")
		path = strings.NewReplacer("{id}", "x", "{path...}", "f.txt").Replace(path)
		resp, body := h.doWith(t.Context(), method, path, nil, nil, "")
		wantStatus(t, resp, body, http.StatusUnauthorized)
	}
}
