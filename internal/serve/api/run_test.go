package api

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/claude"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

func TestLeanAnswerFromACLIAgent(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "list the Go files", "workspace": "proj"}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if len(out) != 4 || out["text"] != "There is one Go file: main.go." || out["exitCode"] != 0.0 ||
		out["workspace"] != filepath.Join(h.srv.opts.Root.Dir(), "proj") || len(out["runId"].(string)) != 32 {
		t.Errorf("lean answer %s", body)
	}
	if stdin, _ := os.ReadFile(filepath.Join(h.fakeDir, "stdin")); string(stdin) != "list the Go files" {
		t.Errorf("the agent read %q", stdin)
	}
	// Continuing is the default; noContinue starts afresh.
	if argv, _ := os.ReadFile(filepath.Join(h.fakeDir, "argv")); !strings.Contains(string(argv), "--continue") {
		t.Errorf("argv %q has no --continue", argv)
	}
	h.do("POST", "/run", map[string]any{"prompt": "x", "no_continue": true}, nil)
	if argv, _ := os.ReadFile(filepath.Join(h.fakeDir, "argv")); strings.Contains(string(argv), "--continue") {
		t.Errorf("noContinue (as no_continue) still continued: %q", argv)
	}
	// The result stays readable, with its final status.
	var res map[string]any
	resp, body = h.do("GET", "/run/result?runId="+out["runId"].(string), nil, &res)
	wantStatus(t, resp, body, http.StatusOK)
	if res["status"] != "completed" || res["text"] != out["text"] || res["httpStatus"] != 200.0 {
		t.Errorf("result %s", body)
	}
}

func TestFullEventsUseTheStableEnvelope(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var out struct {
		SessionID string `json:"sessionId"`
		Usage     struct {
			Input int `json:"input_tokens"`
		} `json:"usage"`
		Events []struct {
			Sequence  int             `json:"sequence"`
			Attempt   int             `json:"attempt"`
			Backend   string          `json:"backend"`
			EventType string          `json:"eventType"`
			Event     json.RawMessage `json:"event"`
		} `json:"events"`
	}
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "eventMode": "full"}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if len(out.Events) != 5 || out.SessionID == "" || out.Usage.Input == 0 {
		t.Fatalf("answer %s", body)
	}
	for i, e := range out.Events {
		if e.Sequence != i+1 || e.Attempt != 0 || e.Backend != "claude" || !json.Valid(e.Event) {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	if out.Events[0].EventType != "system" || out.Events[4].EventType != "result" {
		t.Errorf("types %s, %s", out.Events[0].EventType, out.Events[4].EventType)
	}
	// eventMode none keeps the lean answer even with includeRaw adding the streams.
	var lean map[string]any
	h.do("POST", "/run", map[string]any{"prompt": "hi", "eventMode": "none", "includeRaw": true}, &lean)
	if _, ok := lean["events"]; ok || lean["stdout"] == nil || lean["stderr"] == nil {
		t.Errorf("none with includeRaw: %v", lean)
	}
}

func TestAgentCrashIs500WithExitCodeAndStderr(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "crash", setup{})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi"}, &out)
	wantStatus(t, resp, body, http.StatusInternalServerError)
	if out["exitCode"] != 2.0 || !strings.Contains(out["stderr"].(string), "overloaded") || !strings.Contains(out["detail"].(string), "code 2") {
		t.Errorf("crash answer %s", body)
	}
	if st := h.status(out["runId"].(string)); st != "failed" {
		t.Errorf("stored status %q", st)
	}
}

func TestMissingAgentBinaryIs500With127(t *testing.T) {
	t.Parallel()
	h := newHarness(t, setup{backend: &claude.Adapter{Binary: filepath.Join(t.TempDir(), "no-such-agent")}})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi"}, &out)
	wantStatus(t, resp, body, http.StatusInternalServerError)
	if out["exitCode"] != 127.0 || out["stderr"] == nil {
		t.Errorf("answer %s", body)
	}
}

func TestTimeoutIs504AndTheGroupIsGone(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "hang", setup{})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "timeoutSeconds": 0.5}, &out)
	wantStatus(t, resp, body, http.StatusGatewayTimeout)
	if out["stopped"] != "timeout" {
		t.Errorf("answer %s", body)
	}
	if pid := h.grandchild(); alive(pid) {
		t.Errorf("the agent's child %d outlived the timeout", pid)
	}
}

func TestAsyncRunIsPolledAndSurvivesARestart(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var acc map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "async": true}, &acc)
	wantStatus(t, resp, body, http.StatusAccepted)
	id, _ := acc["runId"].(string)
	if id == "" || acc["status"] != "queued" {
		t.Fatalf("async answer %s", body)
	}
	waitFor(t, "the async run to complete", func() bool { return h.status(id) == "completed" })
	var res map[string]any
	h.do("GET", "/run/result?runId="+id, nil, &res)
	if res["text"] != "There is one Go file: main.go." {
		t.Errorf("result %v", res)
	}
	// Another server on the same store file reads it too.
	path := h.store.Path()
	h.store.Close()
	again, err := runstore.OpenSQLite(path, runstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	run, err := again.Get(context.Background(), id)
	if err != nil || run.Status != "completed" || !strings.Contains(string(run.Result), "main.go") {
		t.Errorf("after a restart: %+v %v", run, err)
	}
}

func TestResultErrors(t *testing.T) {
	t.Parallel()
	h := newCLIHarness(t, "claude.jsonl", "", setup{})
	var e errorBody
	resp, body := h.do("GET", "/run/result", nil, &e)
	wantStatus(t, resp, body, http.StatusBadRequest)
	if e.Field != "runId" {
		t.Errorf("%s", body)
	}
	resp, body = h.do("GET", "/run/result?runId=nope", nil, nil)
	wantStatus(t, resp, body, http.StatusNotFound)
	resp, body = h.do("DELETE", "/run/nope", nil, nil)
	wantStatus(t, resp, body, http.StatusNotFound)
}

func TestStructuredRetriesInTheSessionThenMatch(t *testing.T) {
	t.Parallel()
	h, model := newNativeHarness(t,
		fakemodel.Turn{Text: []string{"Sure! The answer is forty-two."}, Usage: &fakemodel.Usage{PromptTokens: 10, CompletionTokens: 5}},
		fakemodel.Turn{Text: []string{"```json\n{\"answer\": 42}\n```"}, Usage: &fakemodel.Usage{PromptTokens: 20, CompletionTokens: 7}},
	)
	schema := map[string]any{"type": "object", "required": []string{"answer"}, "properties": map[string]any{"answer": map[string]any{"type": "integer"}}}
	var out struct {
		JSON        json.RawMessage `json:"json"`
		Text        string          `json:"text"`
		SessionID   string          `json:"sessionId"`
		JSONRetries int             `json:"jsonRetries"`
		Usage       struct {
			Input  int `json:"input_tokens"`
			Output int `json:"output_tokens"`
		} `json:"usage"`
		Attempts []struct {
			Index      int    `json:"index"`
			ParseError string `json:"parseError"`
		} `json:"attempts"`
		Events []map[string]any `json:"events"`
	}
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "what is the answer?", "jsonSchema": schema}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if string(out.JSON) != `{"answer":42}` || out.JSONRetries != 1 || len(out.Attempts) != 2 || out.Attempts[0].ParseError == "" ||
		out.SessionID == "" || out.Usage.Input != 30 || out.Usage.Output != 12 || len(out.Events) == 0 {
		t.Errorf("structured answer %s", body)
	}
	if n := len(model.ModelRequests()); n != 2 {
		t.Errorf("the model saw %d requests, want 2", n)
	}
}

func TestStructuredRetriesExhaustedIs422(t *testing.T) {
	t.Parallel()
	turns := make([]fakemodel.Turn, 4)
	for i := range turns {
		turns[i] = fakemodel.Turn{Text: []string{`{"answer": "not a number"}`}, Usage: &fakemodel.Usage{PromptTokens: 1, CompletionTokens: 1}}
	}
	h, _ := newNativeHarness(t, turns...)
	schema := `{"type":"object","properties":{"answer":{"type":"integer"}}}`
	var out map[string]any
	resp, body := h.do("POST", "/run", `{"prompt":"answer","jsonSchema":`+schema+`}`, &out)
	wantStatus(t, resp, body, http.StatusUnprocessableEntity)
	if !strings.Contains(out["parseError"].(string), "/answer") || out["text"] != `{"answer": "not a number"}` ||
		out["events"] == nil || out["usage"].(map[string]any)["input_tokens"] != 4.0 || len(out["attempts"].([]any)) != 4 {
		t.Errorf("422 answer %s", body)
	}
	if st := h.status(out["runId"].(string)); st != "failed" {
		t.Errorf("stored status %q", st)
	}
}

func TestNativeLeanRun(t *testing.T) {
	t.Parallel()
	h, _ := newNativeHarness(t, fakemodel.Turn{Text: []string{"Hello", " there."}})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "workspace": "a/b"}, &out)
	wantStatus(t, resp, body, http.StatusOK)
	if out["text"] != "Hello there." || len(out) != 4 {
		t.Errorf("answer %s", body)
	}
}

func TestBackendRefusalIs422(t *testing.T) {
	t.Parallel()
	h, _ := newNativeHarness(t)
	var e errorBody
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi", "thinking": "enormous"}, &e)
	wantStatus(t, resp, body, http.StatusUnprocessableEntity)
	if !strings.Contains(e.Detail, "enormous") {
		t.Errorf("%s", body)
	}
	resp, body = h.do("POST", "/run", map[string]any{"prompt": "hi", "extraArgs": []string{"--x"}}, &e)
	wantStatus(t, resp, body, http.StatusUnprocessableEntity)
}

func TestProviderAuthFailureIs502(t *testing.T) {
	t.Parallel()
	h, _ := newNativeHarness(t, fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 401, Body: `{"error":{"message":"bad key"}}`}})
	var out map[string]any
	resp, body := h.do("POST", "/run", map[string]any{"prompt": "hi"}, &out)
	wantStatus(t, resp, body, http.StatusBadGateway)
	if out["errorKind"] != "auth" {
		t.Errorf("%s", body)
	}
}
