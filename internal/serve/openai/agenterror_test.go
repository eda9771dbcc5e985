package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// ownFailureAgent is the fake agent's adapter reporting the agent's own failure,
// as the claude adapter does for an error_max_turns result.
type ownFailureAgent struct{ *declarative.Adapter }

// Run runs the agent read by this adapter: the embedded Run would read with the
// declarative.Adapter's own ParseOutput.
func (g ownFailureAgent) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, g, req, emit)
}

func (g ownFailureAgent) ParseOutput(stdout []byte, req *backend.Request) backend.Result {
	res := g.Adapter.ParseOutput(stdout, req)
	res.AgentError, res.ErrorKind = "claude stopped: error_max_turns: Reached maximum number of turns (1)", backend.ErrorAgent
	return res
}

// The agent's own failure is a 500 agent_failed naming it, even after exit 0,
// never a provider's error nor an answer; with a schema it is not retried.
func TestCLIAgentsOwnFailure(t *testing.T) {
	t.Parallel()
	for _, body := range []string{hiBody, `{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`} {
		srv, f := cliServerOpts(t, "testdata/fake-chat.toml", func(o *Options) {
			o.Backend = ownFailureAgent{o.Backend.(*declarative.Adapter)}
		}, "partial text")
		resp, data := post(t, srv, chatPath, body)
		v := decode(t, data)
		msg, _ := at(v, "error", "message").(string)
		if resp.StatusCode != 500 || at(v, "error", "code") != "agent_failed" || !strings.Contains(msg, "on its own: claude stopped: error_max_turns") {
			t.Errorf("%s: %d %s", body, resp.StatusCode, data)
		}
		if n := f.runs(t); n != 1 {
			t.Errorf("%s: the agent's failure was retried: %d runs", body, n)
		}
	}
}
