package native

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

func TestCancelStopsASlowStreamPromptly(t *testing.T) {
	t.Parallel()
	slow := fakemodel.Turn{ChunkDelay: 50 * time.Millisecond}
	for i := range 200 { // ten seconds of tokens
		slow.Text = append(slow.Text, fmt.Sprintf("t%d ", i))
	}
	w := newWorld(t, slow)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var once sync.Once
	var cancelled time.Time
	var ev events
	res, err := w.native.Run(ctx, w.request("talk"), func(e backend.Event) {
		ev.emit(e)
		if e.Kind == backend.EventDelta {
			once.Do(func() { cancelled = time.Now(); cancel() })
		}
	})
	took := time.Since(cancelled)
	if err != nil {
		t.Fatal(err)
	}
	if took > 500*time.Millisecond {
		t.Errorf("Run returned %v after the cancel", took)
	}
	if res.StopReason != "cancelled" || res.Stopped != "cancelled" || res.ErrorKind != backend.ErrorCancelled {
		t.Errorf("result %+v", res)
	}
	if errs := ev.of(backend.EventError); len(errs) != 1 || errs[0].ErrorKind != backend.ErrorCancelled {
		t.Errorf("error events %+v", errs)
	}
}

func TestTimeoutsStopTheRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		set  func(*backend.Request)
		want backend.ErrorKind
	}{
		{"total", func(r *backend.Request) { r.Timeout = 200 * time.Millisecond }, backend.ErrorTimeout},
		{"idle", func(r *backend.Request) { r.IdleTimeout = 200 * time.Millisecond }, backend.ErrorIdle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, fakemodel.Turn{Text: []string{"a"}, Hang: true})
			req := w.request("hang")
			tc.set(req)
			start := time.Now()
			res, err := w.native.Run(t.Context(), req, discard)
			if err != nil || res.Stopped != string(tc.want) || res.ErrorKind != tc.want {
				t.Errorf("%v %+v", err, res)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("stopped after %v", d)
			}
		})
	}
}

func TestProviderErrorsCarryTheirKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		turn fakemodel.Turn
		want backend.ErrorKind
	}{
		{fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 401, Body: `{"detail":"bad key"}`}}, backend.ErrorAuth},
		// Retry-After past the retry policy's longest wait: returned at once.
		{fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 429, Body: `{"detail":"slow down"}`}}.WithHeader("Retry-After", "3600"), backend.ErrorRateLimit},
		{fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 400, Body: `{"detail":"context too long"}`}}, backend.ErrorProvider},
	}
	for _, tc := range tests {
		t.Run(string(tc.want), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tc.turn)
			var ev events
			res, err := w.native.Run(t.Context(), w.request("hi"), ev.emit)
			if err != nil || res.ErrorKind != tc.want || res.ProviderError == "" || res.StopReason != "error" {
				t.Errorf("%v %+v", err, res)
			}
			if errs := ev.of(backend.EventError); len(errs) != 1 || errs[0].ErrorKind != tc.want {
				t.Errorf("error events %+v", errs)
			}
		})
	}
}

func TestParallelRunsOnDifferentWorkspacesShareNothing(t *testing.T) {
	t.Parallel()
	const n = 4
	base := newWorld(t)
	type one struct {
		srv *fakemodel.Server
		ws  string
		res backend.Result
		err error
	}
	runs := make([]one, n)
	for i := range runs {
		name := fmt.Sprintf("file%d.txt", i)
		runs[i].srv = fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
			{ToolCalls: []fakemodel.ToolCall{{Name: "write", Arguments: args(map[string]string{"path": name, "content": name})}}, ChunkDelay: 5 * time.Millisecond},
			text(fmt.Sprintf("answer %d", i)),
		}})
		runs[i].ws = filepath.Join(t.TempDir(), "ws")
		if err := os.Mkdir(runs[i].ws, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			// One backend for every run; each request brings its own model server.
			req := &backend.Request{Prompt: "go", Workspace: runs[i].ws, Env: map[string]string{"ALBERT_CODE_BASE_URL": runs[i].srv.URL()}}
			runs[i].res, runs[i].err = base.native.Run(t.Context(), req, discard)
		})
	}
	wg.Wait()
	sessions := map[string]bool{}
	for i, r := range runs {
		if r.err != nil || r.res.Text != fmt.Sprintf("answer %d", i) {
			t.Errorf("run %d: %v %+v", i, r.err, r.res)
		}
		entries, _ := os.ReadDir(r.ws)
		if len(entries) != 1 || entries[0].Name() != fmt.Sprintf("file%d.txt", i) {
			t.Errorf("workspace %d holds %v", i, entries)
		}
		sessions[r.res.SessionID] = true
	}
	if len(sessions) != n {
		t.Errorf("%d sessions for %d runs", len(sessions), n)
	}
}
