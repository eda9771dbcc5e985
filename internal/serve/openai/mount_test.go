package openai

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestMountAndAuthorizeWithAMiddleware(t *testing.T) {
	t.Parallel()
	calls := 0
	middleware := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls++
			if r.Header.Get("Authorization") != "Bearer "+testToken {
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"detail":"invalid bearer token"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	mux := http.NewServeMux()
	New(Options{Backend: modelsOnly{}, Authorize: AuthorizeWith(middleware)}).Mount(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	status, v := get(t, srv, srv.URL+"/openai/v1/models", testToken)
	if status != 200 || jsonOf(v["data"]) != `[{"created":0,"id":"m1","object":"model","owned_by":"albert-code:test"}]` {
		t.Errorf("%d %v", status, v)
	}
	status, v = get(t, srv, srv.URL+"/v1/models", "bad")
	if msg, _ := at(v, "error", "message").(string); status != 401 || !strings.Contains(msg, "bearer token") || calls != 2 {
		t.Errorf("%d %v after %d middleware calls", status, v, calls)
	}
}

// modelsOnly is a backend that lists models and runs nothing.
type modelsOnly struct{}

func (modelsOnly) Name() string     { return "test" }
func (modelsOnly) Models() []string { return []string{"m1"} }
func (modelsOnly) Run(context.Context, *backend.Request, func(backend.Event)) (backend.Result, error) {
	return backend.Result{}, errors.New("modelsOnly runs nothing")
}
