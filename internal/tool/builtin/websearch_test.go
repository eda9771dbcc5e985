package builtin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWebSearchSearXNG(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "wrong request", http.StatusBadRequest)
			return
		}
		if r.URL.Query().Get("q") == "forbidden" {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":%q,"results":[
			{"title":"Go 1.26 release notes","url":"https://go.dev/doc/go1.26","content":"Go 1.26\n  is out.","engine":"ddg"},
			{"title":"Second","url":"https://example.org/2","content":""},
			{"title":"Third","url":"https://example.org/3","content":"c"}]}`, r.URL.Query().Get("q"))
	}))
	t.Cleanup(srv.Close)
	search := WebSearch(&SearXNG{BaseURL: srv.URL + "/"})

	res := run(t, search, WebSearchParams{Query: "go 1.26 release", MaxResults: 2})
	wantOK(t, res)
	want := "1. Go 1.26 release notes\n   https://go.dev/doc/go1.26\n   Go 1.26 is out.\n2. Second\n   https://example.org/2\n"
	if res.Output != want {
		t.Errorf("output = %q, want %q", res.Output, want)
	}
	if got := res.Display.([]SearchResult); len(got) != 2 {
		t.Errorf("display has %d results", len(got))
	}
	wantError(t, run(t, search, WebSearchParams{Query: "forbidden"}), "enable the json format")
}

func TestWebSearchWithoutBackend(t *testing.T) {
	t.Parallel()
	wantError(t, run(t, WebSearch(nil), WebSearchParams{Query: "x"}), "web_search has no backend: set [web_search]")
}

type emptyBackend struct{}

func (emptyBackend) Search(context.Context, string, int) ([]SearchResult, error) { return nil, nil }

func TestWebSearchNoResults(t *testing.T) {
	t.Parallel()
	res := run(t, WebSearch(emptyBackend{}), WebSearchParams{Query: "zxqv"})
	wantOK(t, res)
	if res.Output != `No results for "zxqv".` {
		t.Errorf("output = %q", res.Output)
	}
}
