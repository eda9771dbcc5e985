package codex

import (
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/internal/adaptertest"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// The transcripts' records are as codex exec --json 0.169.0 prints them (the real
// CLI's own runs are in codex_real_test.go).
func TestCodexParseOutput(t *testing.T) {
	t.Parallel()
	resumed := &backend.Request{Continue: true}
	tests := []struct {
		transcript string
		req        *backend.Request
		want       backend.Result
	}{
		{"codex.jsonl", resumed, backend.Result{
			Text: "I listed the folder.\nThere is one Go file: main.go.", SessionID: adaptertest.CodexThread, StopReason: "stop",
			Usage: backend.Usage{InputTokens: 24763, OutputTokens: 122, CacheReadTokens: 24448},
		}},
		{"codex-reconnect.jsonl", resumed, backend.Result{
			Text: "Done.", SessionID: adaptertest.CodexThread, StopReason: "stop", Usage: backend.Usage{InputTokens: 100, OutputTokens: 5},
		}},
		{"codex-failed.jsonl", resumed, backend.Result{
			SessionID: adaptertest.CodexThread, ProviderError: "unexpected status 429 Too Many Requests: You exceeded your current quota",
			ErrorKind: backend.ErrorRateLimit,
		}},
		// A fresh run is --ephemeral: Codex keeps no rollout, so its thread id
		// resumes nothing and is not reported.
		{"codex-reconnect.jsonl", &backend.Request{}, backend.Result{
			Text: "Done.", StopReason: "stop", Usage: backend.Usage{InputTokens: 100, OutputTokens: 5},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.transcript, func(t *testing.T) {
			t.Parallel()
			got := (&Adapter{}).ParseOutput(adaptertest.Transcript(t, tc.transcript), tc.req)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// The answer is what the agent said after its last tool use; what it said before
// is narration, streamed as reasoning, as are its reasoning items.
func TestCodexAnswerIsTheMessagesAfterTheLastTool(t *testing.T) {
	t.Parallel()
	out := []byte(strings.Join([]string{
		`{"type":"thread.started","thread_id":"t-1"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for ` + "`fake-model`" + ` not found."}}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Running a command."}}`,
		`{"type":"item.started","item":{"id":"item_2","type":"command_execution","command":"bash -lc 'false'","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"bash -lc 'false'","aggregated_output":"oops\n","exit_code":1,"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"reasoning","text":"**Checking**"}}`,
		`{"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"DONE after tool"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"cache_write_input_tokens":2,"output_tokens":3,"reasoning_output_tokens":1}}`,
	}, "\n"))
	req := &backend.Request{Resume: "t-1"}
	res := (&Adapter{}).ParseOutput(out, req)
	want := backend.Result{Text: "DONE after tool", SessionID: "t-1", StopReason: "stop",
		Usage: backend.Usage{InputTokens: 10, OutputTokens: 3, CacheReadTokens: 4, CacheWriteTokens: 2, ReasoningTokens: 1}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("\n got %+v\nwant %+v", res, want)
	}
	evs := adaptertest.StreamAll(&Adapter{}, req, out)
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind))
	}
	if got := strings.Join(kinds, " "); got != "session reasoning tool_call tool_result reasoning delta usage" {
		t.Errorf("kinds %q", got)
	}
	if d := strings.Join(adaptertest.Deltas(evs), ""); d != res.Text {
		t.Errorf("streamed %q, want the answer %q", d, res.Text)
	}
	if evs[1].Text != "Running a command." {
		t.Errorf("narration = %+v", evs[1])
	}
	if call, result := evs[2].Tool, evs[3].Tool; call.Name != "shell" || string(call.Arguments) != `{"command":"bash -lc 'false'"}` ||
		result.Output != "oops\n" || !result.IsError || result.ID != call.ID {
		t.Errorf("tool events %+v %+v", call, result)
	}
}

// Codex passes a provider's 400 body on verbatim in turn.failed, and exits 1: the
// reason is the provider's message, whatever the exit code.
func TestCodexProviderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		failed string
		reason string
		kind   backend.ErrorKind
	}{
		{`{\"error\":{\"code\":\"invalid_json_schema\",\"message\":\"Invalid schema: bad\",\"param\":null,\"type\":\"invalid_request_error\"}}`,
			"Invalid schema: bad (invalid_json_schema)", backend.ErrorProvider},
		{"exceeded retry limit, last status: 429 Too Many Requests, request id: req_1",
			"exceeded retry limit, last status: 429 Too Many Requests, request id: req_1", backend.ErrorRateLimit},
		{"unexpected status 401 Unauthorized: Incorrect API key, url: http://127.0.0.1:9/v1/responses",
			"unexpected status 401 Unauthorized: Incorrect API key, url: http://127.0.0.1:9/v1/responses", backend.ErrorAuth},
		{"stream disconnected before completion: error sending request for url (http://127.0.0.1:9/v1/responses)",
			"stream disconnected before completion: error sending request for url (http://127.0.0.1:9/v1/responses)", backend.ErrorUnreachable},
	}
	for _, tc := range tests {
		out := []byte(`{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"turn.started"}` + "\n" +
			`{"type":"error","message":"` + tc.failed + `"}` + "\n" + `{"type":"turn.failed","error":{"message":"` + tc.failed + `"}}` + "\n")
		res := (&Adapter{}).ParseOutput(out, &backend.Request{})
		if res.ProviderError != tc.reason || res.ErrorKind != tc.kind || res.OutputError != "" {
			t.Errorf("%s:\n got %q %q (output error %q)\nwant %q %q", tc.failed, res.ProviderError, res.ErrorKind, res.OutputError, tc.reason, tc.kind)
		}
		evs := adaptertest.StreamAll(&Adapter{}, &backend.Request{}, out)
		if last := evs[len(evs)-1]; last.Kind != backend.EventError || last.Text != tc.reason || last.ErrorKind != tc.kind {
			t.Errorf("last event %+v", last)
		}
	}
}

// Unexpected output is never a crash: what could be read is kept, and the error
// quotes the line.
func TestCodexUnexpectedOutput(t *testing.T) {
	t.Parallel()
	long := `{"type":"item.completed","item":{"type":"agent_message","text":"` + strings.Repeat("x", 1000)
	tests := []struct {
		name, out string
		text      string
		errHas    []string
	}{
		{"a new record type", `{"type":"turn.paused","why":"x"}` + "\n" + `{"type":"turn.paused"}` + "\n" +
			`{"type":"item.completed","item":{"type":"agent_message","text":"hi"}}` + "\n" + `{"type":"turn.completed","usage":{}}`,
			"hi", []string{`record of a type this adapter does not read ("turn.paused"; codex 0.169.0 was tested)`, `{\"type\":\"turn.paused\",\"why\":\"x\"}`}},
		{"a non-JSON line", "Reading prompt from stdin...\n" + `{"type":"item.completed","item":{"type":"agent_message","text":"hi"}}` + "\n" + `{"type":"turn.completed","usage":{}}`,
			"hi", []string{`not a JSON record: "Reading prompt from stdin..."`}},
		{"a truncated record", `{"type":"item.completed","item":{"type":"agent_message","text":"hi"}}` + "\n" + `{"type":"turn.compl`,
			"hi", []string{`cannot be read`, `"{\"type\":\"turn.compl"`, "ended without turn.completed or turn.failed"}},
		{"a long line cut in the error", long, "", []string{`xxx"... (1064 bytes)`}},
		{"a type that is not a string", `{"type":42}`, "", []string{"cannot be read (json: cannot unmarshal number"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := (&Adapter{}).ParseOutput([]byte(tc.out), &backend.Request{})
			if res.Text != tc.text {
				t.Errorf("text %q, want %q", res.Text, tc.text)
			}
			for _, want := range tc.errHas {
				if !strings.Contains(res.OutputError, want) {
					t.Errorf("output error %q\nwant it to contain %q", res.OutputError, want)
				}
			}
			var streamed []string
			for _, e := range adaptertest.StreamAll(&Adapter{}, &backend.Request{}, []byte(tc.out)) {
				if e.Kind == backend.EventError {
					streamed = append(streamed, e.Text)
				}
			}
			if len(streamed) == 0 || !strings.Contains(res.OutputError, streamed[0]) {
				t.Errorf("streamed errors %q, want the first of %q", streamed, res.OutputError)
			}
		})
	}
}
