package modellist

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeServer answers GET /v1/models with body (status 200) or status alone, and
// counts requests.
type fakeServer struct {
	*httptest.Server
	hits atomic.Int32
	auth atomic.Value
	body atomic.Value
}

func newFake(t *testing.T, status int, body string) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.body.Store(body)
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		f.hits.Add(1)
		f.auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(status)
		_, _ = w.Write([]byte(f.body.Load().(string)))
	}))
	t.Cleanup(f.Close)
	return f
}

const albertList = `{"object":"list","data":[
 {"id":"openai/gpt-oss-120b","object":"model","aliases":["gpt-oss"],"max_context_length":131072},
 {"id":"Qwen/Qwen3.6-27B","object":"model","aliases":["albert-code","qwen"]},
 {"object":"model"}]}`

func testLister(t *testing.T) (*Lister, *bytes.Buffer) {
	var notices bytes.Buffer
	return &Lister{Dir: t.TempDir(), Notice: &notices}, &notices
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestModelsReadsIDsAliasesAndContextLength(t *testing.T) {
	f := newFake(t, 200, albertList)
	l, _ := testLister(t)
	got, err := l.Models(ctx(t), Server{Name: "albert", BaseURL: f.URL + "/v1/", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "openai/gpt-oss-120b" || got[0].ContextWindow != 131072 ||
		got[0].Aliases[0] != "gpt-oss" || got[1].ContextWindow != 0 {
		t.Fatalf("models = %+v", got)
	}
	if a := f.auth.Load(); a != "Bearer k" {
		t.Fatalf("Authorization = %v, want the key as a bearer token", a)
	}
}

func TestFreshCacheCostsNoRequestAcrossListers(t *testing.T) {
	f := newFake(t, 200, albertList)
	dir := t.TempDir()
	s := Server{Name: "albert", BaseURL: f.URL + "/v1"}
	for i := range 3 {
		// A new Lister each time is a new process: only the file is shared.
		l := &Lister{Dir: dir}
		got, err := l.Models(ctx(t), s)
		if err != nil || len(got) != 2 {
			t.Fatalf("run %d: %v %+v", i, err, got)
		}
		l.Wait()
	}
	if n := f.hits.Load(); n != 1 {
		t.Fatalf("%d requests, want 1: the cache must answer the later runs", n)
	}
}

func TestStaleCacheAnswersAtOnceAndRefreshesInBackground(t *testing.T) {
	f := newFake(t, 200, albertList)
	dir := t.TempDir()
	s := Server{Name: "albert", BaseURL: f.URL + "/v1"}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	first := &Lister{Dir: dir, Now: func() time.Time { return now }}
	if _, err := first.Models(ctx(t), s); err != nil {
		t.Fatal(err)
	}
	f.body.Store(`{"data":[{"id":"new-model"}]}`)
	later := &Lister{Dir: dir, Now: func() time.Time { return now.Add(DefaultTTL + time.Minute) }}
	got, err := later.Models(ctx(t), s)
	if err != nil || len(got) != 2 {
		t.Fatalf("stale call = %+v, %v; want the cached list at once", got, err)
	}
	later.Wait()
	if n := f.hits.Load(); n != 2 {
		t.Fatalf("%d requests, want 2 (the first fetch and one refresh)", n)
	}
	again := &Lister{Dir: dir, Now: func() time.Time { return now.Add(DefaultTTL + 2*time.Minute) }}
	got, err = again.Models(ctx(t), s)
	if err != nil || len(got) != 1 || got[0].ID != "new-model" {
		t.Fatalf("after refresh = %+v, %v; want the refreshed list from the file", got, err)
	}
}

func TestUnavailableOrMalformedListIsOneNotice(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
		status           int
	}{
		{"no /v1/models", `{"detail":"Not Found"}`, "unavailable: GET %s/v1/models answered 404 Not Found", 404},
		{"not JSON", `<html>`, "malformed: GET %s/v1/models: not the JSON of a model list", 200},
		{"no data", `{"object":"list"}`, `malformed: GET %s/v1/models: no "data" array`, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.status, tc.body)
			l, notices := testLister(t)
			s := Server{Name: "albert", BaseURL: f.URL + "/v1"}
			for range 2 {
				if _, err := l.Models(ctx(t), s); err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(tc.want, "%s", f.URL)) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.want)
				}
			}
			if lines := strings.Count(notices.String(), "\n"); lines != 1 || !strings.Contains(notices.String(), "model list of albert") {
				t.Fatalf("notices = %q, want one line naming the provider", notices.String())
			}
		})
	}
}

func TestDamagedCacheFileIsFetchedAgain(t *testing.T) {
	f := newFake(t, 200, albertList)
	l, _ := testLister(t)
	s := Server{Name: "albert", BaseURL: f.URL + "/v1"}
	if err := writeCache(l.path(f.URL+"/v1"), cached{BaseURL: "elsewhere", FetchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got, err := l.Models(ctx(t), s); err != nil || len(got) != 2 || f.hits.Load() != 1 {
		t.Fatalf("got %+v, %v after %d requests; want a fresh fetch", got, err, f.hits.Load())
	}
}

func TestCachedNeverWaitsAndFillsTheCacheInBackground(t *testing.T) {
	f := newFake(t, 200, albertList)
	l, _ := testLister(t)
	s := Server{Name: "albert", BaseURL: f.URL + "/v1"}
	if got := l.Cached(s); got != nil {
		t.Fatalf("Cached = %+v before any fetch, want nil", got)
	}
	l.Wait()
	if got := l.Cached(s); len(got) != 2 {
		t.Fatalf("Cached = %+v after the background fetch, want the list", got)
	}
	l.Wait()
	if n := f.hits.Load(); n != 1 {
		t.Fatalf("%d requests, want 1: a fresh list is not fetched again", n)
	}
}

func TestSeededListIsACacheHit(t *testing.T) {
	f := newFake(t, 200, albertList)
	dir := t.TempDir()
	if err := (&Lister{Dir: dir}).Seed(f.URL+"/v1/", []Model{{ID: "seeded"}}); err != nil {
		t.Fatal(err)
	}
	got, err := (&Lister{Dir: dir}).Models(ctx(t), Server{Name: "albert", BaseURL: f.URL + "/v1"})
	if err != nil || len(got) != 1 || got[0].ID != "seeded" || f.hits.Load() != 0 {
		t.Fatalf("got %+v, %v after %d requests; want the seeded list and no request", got, err, f.hits.Load())
	}
}
