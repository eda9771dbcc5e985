package codex_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// TestRealCodexStructuredRetryInItsThread: a schema run that continues the
// workspace's thread (the HTTP default) reports the thread, so its corrective retry
// resumes it by id: the model sees the wrong answer and the correction, and each
// attempt is billed for its own turn.
func TestRealCodexStructuredRetryInItsThread(t *testing.T) {
	t.Parallel()
	fm := fakemodel.NewTest(t, fakemodel.Script{Turns: []fakemodel.Turn{
		{Text: []string{`{"count": "trois"}`}, Usage: &fakemodel.Usage{PromptTokens: 100, CompletionTokens: 5}},
		{Text: []string{`{"count": 3}`}, Usage: &fakemodel.Usage{PromptTokens: 180, CompletionTokens: 4}},
	}})
	c := newRealCodex(t, fm)
	schema, err := structured.Compile(json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`))
	if err != nil {
		t.Fatal(err)
	}
	base := c.request("Combien de fichiers ?")
	base.JSONSchema, base.Continue = schema.JSON(), true
	attempt := func(ctx context.Context, turn structured.Turn) (backend.Result, error) {
		req := base
		req.Prompt = turn.Prompt
		if turn.Index > 0 {
			req.Continue, req.Resume = false, turn.Resume // as /run and /v1 do
		}
		return runner.New(c.opts).Run(ctx, c.codex, req, nil)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := structured.Run(ctx, base.Prompt, schema, attempt, structured.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.End != structured.Matched || string(out.Parsed.JSON) != `{"count":3}` || len(out.Attempts) != 2 {
		last := out.Last()
		t.Fatalf("end %s, parsed %s, %d attempts; last exit %d: %s", out.End, out.Parsed.JSON, len(out.Attempts), last.ExitCode, last.Stderr)
	}
	a1, a2 := out.Attempts[0].Result, out.Attempts[1].Result
	if a1.SessionID == "" || a2.SessionID != a1.SessionID {
		t.Errorf("threads %q then %q: want the retry in the first attempt's thread", a1.SessionID, a2.SessionID)
	}
	if a1.Usage.InputTokens != 100 || a2.Usage.InputTokens != 180 || out.Usage.InputTokens != 280 {
		t.Errorf("input tokens %d then %d, total %d: want each attempt's own and their sum", a1.Usage.InputTokens, a2.Usage.InputTokens, out.Usage.InputTokens)
	}
	reqs := fm.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Body, `{\"count\": \"trois\"}`) {
		t.Errorf("the retry does not carry the first answer in its thread (%d requests)", len(reqs))
	}
}
