package chat

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/agent"
	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// testEnv loads an Env for a fresh trusted folder whose model server is srv. extra
// adds or overrides environment variables.
func testEnv(t *testing.T, srv *fakemodel.Server, extra map[string]string) *agentenv.Env {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": srv.URL(),
	}
	for k, v := range extra {
		vars[k] = v
	}
	e, err := agentenv.Load(agentenv.Options{WorkDir: work, Trust: true,
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func open(t *testing.T, env *agentenv.Env, o Options) *Session {
	t.Helper()
	s, err := Open(env, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustPrompt(t *testing.T, s *Session, text string) agent.Result {
	t.Helper()
	res := s.Prompt(testCtx(t), text, func(agent.Event) {})
	if res.Stop != agent.StopEndTurn {
		t.Fatalf("prompt %q: stop %q, err %v", text, res.Stop, res.Err)
	}
	return res
}

// request is what the model server was sent, decoded.
type request struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func decode(t *testing.T, rec fakemodel.Recorded) request {
	t.Helper()
	var r request
	if err := json.Unmarshal([]byte(rec.Body), &r); err != nil {
		t.Fatalf("request body: %v", err)
	}
	return r
}

func (r request) hasTool(name string) bool {
	for _, tl := range r.Tools {
		if tl.Function.Name == name {
			return true
		}
	}
	return false
}

// contents lists the text of the non-system messages.
func (r request) contents() []string {
	var out []string
	for _, m := range r.Messages {
		if s, ok := m.Content.(string); ok && m.Role != "system" {
			out = append(out, s)
		}
	}
	return out
}

// waitFor polls cond until it holds or the test's patience runs out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
