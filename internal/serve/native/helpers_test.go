package native

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// world is one isolated server user: a home with its configuration, a workspace,
// and a fake model on 127.0.0.1.
type world struct {
	srv    *fakemodel.Server
	native *Native
	home   string
	ws     string
	env    map[string]string
}

func newWorld(t *testing.T, turns ...fakemodel.Turn) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{srv: fakemodel.NewTest(t, fakemodel.Script{Turns: turns}),
		home: filepath.Join(root, "home", ".albert-code"), ws: filepath.Join(root, "ws")}
	for _, d := range []string{w.home, w.ws, filepath.Join(root, "xdg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = map[string]string{
		"HOME":                 filepath.Join(root, "home"),
		"ALBERT_CODE_HOME":     w.home,
		"XDG_CONFIG_HOME":      filepath.Join(root, "xdg"),
		"ALBERT_API_KEY":       "test-key",
		"ALBERT_CODE_BASE_URL": w.srv.URL(),
	}
	w.native = New(Options{LookupEnv: w.lookup, ConfigDir: w.ws})
	return w
}

func (w *world) lookup(name string) (string, bool) {
	v, ok := w.env[name]
	return v, ok
}

func (w *world) request(prompt string) *backend.Request {
	return &backend.Request{Prompt: prompt, Workspace: w.ws}
}

// events collects a run's events; safe for the emit callback.
type events struct {
	mu  sync.Mutex
	all []backend.Event
}

func (e *events) emit(ev backend.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

func (e *events) kinds() []backend.EventKind {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ks []backend.EventKind
	for _, ev := range e.all {
		ks = append(ks, ev.Kind)
	}
	return ks
}

func (e *events) of(kind backend.EventKind) []backend.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []backend.Event
	for _, ev := range e.all {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// body is request i's JSON body.
func body(t *testing.T, srv *fakemodel.Server, i int) map[string]any {
	t.Helper()
	reqs := srv.ModelRequests()
	if i >= len(reqs) {
		t.Fatalf("the model saw %d requests, want more than %d", len(reqs), i)
	}
	return reqs[i].JSON
}

func args(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func text(parts ...string) fakemodel.Turn { return fakemodel.Turn{Text: parts} }
