package sse

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
)

func newCall(url string) Call {
	return Call{Client: http.DefaultClient, URL: url, Name: url, Header: http.Header{}, Body: []byte(`{}`),
		Timeout: 5 * time.Second,
		APIError: func(status int, _ http.Header, body []byte) *llm.APIError {
			return &llm.APIError{Status: status, Body: string(body)}
		}}
}

// After the handler says ErrDone, a server that holds the body open costs at most
// the drain wait, not the idle timeout.
func TestDoneStopsReadingAnOpenBody(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("data: last\n\n"))
		w.(http.Flusher).Flush()
		<-release
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	n, err := newCall(srv.URL).Run(context.Background(), func(data []byte) error {
		if string(data) != "last" {
			t.Errorf("data = %q", data)
		}
		return ErrDone
	})
	if err != nil || n != 1 {
		t.Fatalf("n = %d, err = %v", n, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %s", d)
	}
}

func TestHandlerErrorAndHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("data: a\n\ndata: b\n\n"))
	}))
	defer srv.Close()
	mine := errors.New("mine")
	n, err := newCall(srv.URL).Run(context.Background(), func([]byte) error { return mine })
	if n != 1 || !errors.Is(err, mine) {
		t.Errorf("n = %d, err = %v, want the handler's error after one event", n, err)
	}
	_, err = newCall(srv.URL+"/fail").Run(context.Background(), func([]byte) error { return nil })
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 503 || apiErr.Body != "busy\n" {
		t.Errorf("err = %v, want the APIError built from the answer", err)
	}
}

func TestExcerptIsBounded(t *testing.T) {
	if got := Excerpt(make([]byte, 2000)); len(got) != 500 {
		t.Errorf("excerpt of %d bytes", len(got))
	}
}
