package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// garbledOutput plays a CLI that printed a line its adapter could not read: the
// adapter kept the answer and quoted the line in OutputError.
type garbledOutput struct{}

const garbledLine = `line 2 is not a JSON record: "Segmentation fault (core dumped)"`

func (garbledOutput) Name() string { return "garbled" }

func (garbledOutput) Run(_ context.Context, req *backend.Request, _ func(backend.Event)) (backend.Result, error) {
	text := "the answer so far"
	if len(req.JSONSchema) > 0 {
		text = `{"answer":"yes"}`
	}
	return backend.Result{Text: text, Stopped: "exited", OutputError: garbledLine}, nil
}

// The caller of /run, and of /run/result later, gets what could be read and the
// line that could not, with a schema or without.
func TestRunAnswerCarriesTheOutputError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, setup{backend: garbledOutput{}})
	for _, tc := range []struct {
		body map[string]any
		text string
	}{
		{map[string]any{"prompt": "hi"}, "the answer so far"},
		{map[string]any{"prompt": "hi", "jsonSchema": map[string]any{"type": "object"}}, `{"answer":"yes"}`},
	} {
		var out runResponse
		resp, raw := h.do("POST", "/run", tc.body, &out)
		wantStatus(t, resp, raw, http.StatusOK)
		if out.Text != tc.text || out.OutputError != garbledLine {
			t.Errorf("POST /run: %s", raw)
		}
		var stored runResponse
		h.do("GET", "/run/result?runId="+out.RunID, nil, &stored)
		if stored.OutputError != garbledLine || stored.Text != tc.text {
			t.Errorf("GET /run/result: %+v", stored)
		}
	}
}

// Through the claude adapter over a fake CLI that prints lines no Claude Code
// prints: the answer quotes them.
func TestRunAnswerQuotesTheCLIsUnreadableLine(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "garbage", setup{})
	var out runResponse
	resp, raw := h.do("POST", "/run", map[string]any{"prompt": "hi"}, &out)
	wantStatus(t, resp, raw, http.StatusOK)
	for _, want := range []string{`"Welcome to the agent! (not JSON)"`, `"[1, 2, 3]"`, "ended without its result record"} {
		if !strings.Contains(out.OutputError, want) {
			t.Errorf("outputError %q lacks %s", out.OutputError, want)
		}
	}
}
