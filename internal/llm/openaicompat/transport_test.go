package openaicompat

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
)

// Providers built for the same server share warm connections: the serve layer
// builds one per run, and each used to open its own.
func TestProvidersShareConnections(t *testing.T) {
	t.Parallel()
	url, opened := countingServer(t, sseHandler(textChunk("hi"), stopChunk("stop"), done))
	for range 3 {
		if _, _, err := collect(t, New(Options{BaseURL: url}), llm.Request{Model: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("three providers in turn opened %d connections, want 1", n)
	}
}

// A burst wider than net/http's default idle pool keeps its connections: the next
// burst of the same width opens none.
func TestABurstKeepsItsConnections(t *testing.T) {
	t.Parallel()
	const width = 40
	release := make(chan struct{})
	var arrived sync.WaitGroup
	url, opened := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		<-release
		sseHandler(textChunk("hi"), stopChunk("stop"), done)(w, r)
	})
	p := New(Options{BaseURL: url})
	burst := func() {
		arrived.Add(width)
		var wg sync.WaitGroup
		for range width {
			wg.Go(func() {
				if _, _, err := collect(t, p, llm.Request{Model: "m"}); err != nil {
					t.Error(err)
				}
			})
		}
		arrived.Wait() // all in flight at once, on distinct connections
		for range width {
			release <- struct{}{}
		}
		wg.Wait()
	}
	burst()
	first := opened.Load()
	burst()
	if n := opened.Load() - first; first != width || n != 0 {
		t.Errorf("the first burst opened %d connections (want %d), the second %d (want 0)", first, width, n)
	}
}

// countingServer serves h on 127.0.0.1 and counts the connections clients open.
func countingServer(t *testing.T, h http.HandlerFunc) (string, *atomic.Int32) {
	t.Helper()
	opened := &atomic.Int32{}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", opened
}
