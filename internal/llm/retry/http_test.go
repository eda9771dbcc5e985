package retry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/openaicompat"
	"github.com/etalab-ia/albert-code/internal/llm/retry"
)

// failingThenOK answers the first len(statuses) requests with those statuses (and
// a Retry-After of 3 s), streaming a little text first when the status is 200 but
// the stream then breaks, and answers properly afterwards.
func failingThenOK(t *testing.T, statuses ...int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) && statuses[i] != http.StatusOK {
			w.Header().Set("Retry-After", "3")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(statuses[i])
			fmt.Fprintf(w, `{"detail":"attempt %d failed"}`, i+1)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hello"},"finish_reason":null}]}`)
		w.(http.Flusher).Flush()
		if i < len(statuses) { // a 200 that breaks: end without a finish reason
			return
		}
		fmt.Fprintf(w, "data: %s\n\n", `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestRetryOverHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		statuses  []int
		wantCalls int32
		wantWaits []time.Duration
		wantErr   bool
	}{
		{name: "503 then success honours Retry-After", statuses: []int{503}, wantCalls: 2, wantWaits: []time.Duration{3 * time.Second}},
		{name: "429 twice then success", statuses: []int{429, 429}, wantCalls: 3, wantWaits: []time.Duration{3 * time.Second, 3 * time.Second}},
		{name: "broken stream is retried with backoff", statuses: []int{200}, wantCalls: 2, wantWaits: []time.Duration{500 * time.Millisecond}},
		{name: "400 stops at once", statuses: []int{400}, wantCalls: 1, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := failingThenOK(t, tc.statuses...)
			var waits []time.Duration
			p := retry.Wrap(openaicompat.New(openaicompat.Options{BaseURL: srv.URL + "/v1"}), retry.Policy{
				Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
				Rand:  func() float64 { return 1 },
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var text string
			retries := 0
			resp, err := p.Stream(ctx, llm.Request{Model: "m"}, func(e llm.StreamEvent) {
				switch e.Kind {
				case llm.EventRetry:
					retries++
					text = "" // what a face does: forget the failed attempt
				case llm.EventTextDelta:
					text += e.Text
				}
			})
			if calls.Load() != tc.wantCalls || retries != len(tc.wantWaits) || fmt.Sprint(waits) != fmt.Sprint(tc.wantWaits) {
				t.Errorf("calls %d, retries %d, waits %v; want %d, %d, %v", calls.Load(), retries, waits, tc.wantCalls, len(tc.wantWaits), tc.wantWaits)
			}
			if tc.wantErr {
				var apiErr *llm.APIError
				if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Message != "attempt 1 failed" {
					t.Fatalf("err = %v, want the 400 APIError", err)
				}
				return
			}
			if err != nil || resp.Message.Content != "hello" || text != "hello" {
				t.Fatalf("Stream = %+v, %v; face text %q; want hello once", resp, err, text)
			}
		})
	}
}
