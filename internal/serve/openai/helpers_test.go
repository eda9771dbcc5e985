package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/native"
)

// testToken is the bearer token of every test server.
const testToken = "test-token-0123456789"

// nativeServer serves the endpoint with the native backend on a fake model that
// answers turns, both on 127.0.0.1.
func nativeServer(t *testing.T, turns ...fakemodel.Turn) (*httptest.Server, *fakemodel.Server) {
	t.Helper()
	return nativeServerWith(t, nil, turns...)
}

// nativeServerWith is nativeServer with options changed by opt.
func nativeServerWith(t *testing.T, opt func(*Options), turns ...fakemodel.Turn) (*httptest.Server, *fakemodel.Server) {
	t.Helper()
	fake := fakemodel.NewTest(t, fakemodel.Script{Turns: turns})
	root := t.TempDir()
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(home, ".albert-code"), filepath.Join(root, "xdg"), filepath.Join(root, "ws")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"HOME": home, "ALBERT_CODE_HOME": filepath.Join(home, ".albert-code"), "XDG_CONFIG_HOME": filepath.Join(root, "xdg"),
		"ALBERT_API_KEY": "test-key", "ALBERT_CODE_BASE_URL": fake.URL(),
	}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	opts := Options{
		Backend:   native.New(native.Options{LookupEnv: lookup, ConfigDir: filepath.Join(root, "ws")}),
		Authorize: bearer(testToken),
		Timeout:   20 * time.Second,
		Logger:    slog.New(slog.DiscardHandler),
	}
	if opt != nil {
		opt(&opts)
	}
	h := New(opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, fake
}

// bearer is a test Authorize: the API's middleware compares in constant time.
func bearer(token string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }
}

// post sends body to path with the test token and returns the status and body.
func post(t *testing.T, srv *httptest.Server, path, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// decode unmarshals data into a generic value, failing the test on bad JSON.
func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, data)
	}
	return v
}

// events splits an SSE body into its data payloads, [DONE] included.
func events(t *testing.T, data []byte) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		payload, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("SSE line %q is not a data line", line)
		}
		out = append(out, payload)
	}
	return out
}

// at walks a decoded JSON value by keys and indexes: at(v, "choices", 0, "message").
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func jsonDecoder(resp *http.Response) *json.Decoder { return json.NewDecoder(resp.Body) }
