package fakemodel

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestLoadExampleScript(t *testing.T) {
	t.Parallel()
	s, err := LoadScript("testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != 2 || s.Models[0].Aliases[0] != "openweight-code" || s.Models[1].MaxContextLength != 131072 {
		t.Errorf("models = %+v", s.Models)
	}
	if len(s.Turns) != 5 {
		t.Fatalf("loaded %d turns, want 5", len(s.Turns))
	}
	first := s.Turns[0]
	if first.ToolCalls[0].Arguments != `{"path":"main.go"}` || first.ToolCalls[0].Fragments != 4 {
		t.Errorf("object arguments = %q fragments %d, want compact JSON in 4 fragments", first.ToolCalls[0].Arguments, first.ToolCalls[0].Fragments)
	}
	if first.ToolCalls[1].Arguments != `{"command":"ls -la"}` {
		t.Errorf("string arguments = %q, want them verbatim", first.ToolCalls[1].Arguments)
	}
	if first.FirstByteDelay != 50*time.Millisecond || first.ChunkDelay != 5*time.Millisecond {
		t.Errorf("delays = %v, %v, want 50ms, 5ms", first.FirstByteDelay, first.ChunkDelay)
	}
	if first.Usage == nil || first.Usage.CachedTokens != 1024 {
		t.Errorf("usage = %+v", first.Usage)
	}
	if e := s.Turns[1].Error; e == nil || e.Status != 503 || e.Body != `{"detail":"Model is too busy, please try again later."}` ||
		s.Turns[1].Headers["Retry-After"] != "10" {
		t.Errorf("Albert error turn = %+v %v", e, s.Turns[1].Headers)
	}
	if e := s.Turns[2].Error; e == nil || !strings.Contains(e.Body, `"code":"rate_limit_exceeded"`) {
		t.Errorf("OpenAI error turn = %+v", e)
	}
	if f := s.Turns[4].StreamFailure; f == nil || f.Code != "insufficient_quota" || f.Message != "You exceeded your current quota." {
		t.Errorf("stream failure turn = %+v", f)
	}
	// 50ms first byte + 5ms x (2 reasoning + 2 text + (1+4) + (1+3) tool fragments); errors
	// add only their first-byte delay (none here); the last two turns have none.
	if d := s.TotalDelay(); d != 115*time.Millisecond {
		t.Errorf("TotalDelay = %v, want 115ms", d)
	}
}

func TestParseScriptErrorsNameTheInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script, want string
	}{
		{"unknown field", `{"turns":[{}, {"txt":["a"]}]}`, `turn 1: json: unknown field "txt"`},
		{"hang and drop", `{"turns":[{"hang":true,"drop":true}]}`, "turn 0: hang and drop are exclusive"},
		{"bad duration", `{"turns":[{"chunk_delay":"soon"}]}`, `duration "soon"`},
		{"two error shapes", `{"turns":[{"error":{"status":500,"detail":"a","message":"b"}}]}`, "only one of body, detail or message"},
		{"success status as error", `{"turns":[{"error":{"status":200,"body":"x"}}]}`, "error status 200"},
		{"nameless tool call", `{"turns":[{"tool_calls":[{"arguments":{}}]}]}`, "tool call 0 has no name"},
		{"malformed arguments", `{"turns":[{"tool_calls":[{"name":"f","arguments":{"a":}}]}]}`, "invalid character"},
		{"model without id", `{"models":[{"aliases":["x"]}]}`, "model 0 has no id"},
		{"misspelt stream failure", `{"turns":[{"stream_failure":{"cod":"x"}}]}`, `turn 0: json: unknown field "cod"`},
		{"error and stream failure", `{"turns":[{"error":{"status":500,"body":"x"},"stream_failure":{"message":"y"}}]}`, "turn 0: error and stream_failure are exclusive"},
		{"not an object", `[]`, "cannot unmarshal array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseScript([]byte(tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseScript(%s) error = %v, want it to contain %q", tt.script, err, tt.want)
			}
		})
	}
}

func TestLoadScriptNamesFile(t *testing.T) {
	t.Parallel()
	_, err := LoadScript("testdata/missing.json")
	if err == nil || !strings.Contains(err.Error(), "testdata/missing.json") {
		t.Errorf("error = %v, want it to name the file", err)
	}
}

func TestStartRejectsInvalidScript(t *testing.T) {
	t.Parallel()
	s, err := Start(Script{Turns: []Turn{{}, {Hang: true, Drop: true}}})
	if err == nil {
		s.Close()
		t.Fatal("Start accepted a turn that both hangs and drops")
	}
	if !strings.Contains(err.Error(), "turn 1") {
		t.Errorf("error %v does not name turn 1", err)
	}
}

func TestMillisecondDurations(t *testing.T) {
	t.Parallel()
	s, err := ParseScript([]byte(`{"turns":[{"first_byte_delay":1.5,"chunk_delay":"2s"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Turns[0].FirstByteDelay != 1500*time.Microsecond || s.Turns[0].ChunkDelay != 2*time.Second {
		t.Errorf("delays = %v, %v", s.Turns[0].FirstByteDelay, s.Turns[0].ChunkDelay)
	}
}

// A script file's stream_failure ends the served Responses stream with
// response.failed, as a Turn's StreamFailure does.
func TestLoadedStreamFailureIsServed(t *testing.T) {
	t.Parallel()
	s, err := ParseScript([]byte(`{"turns":[{"text":["par"],"stream_failure":{"code":"context_length_exceeded","message":"too long"}},{"stream_failure":{}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	srv := NewTest(t, s)
	for i, want := range []string{"context_length_exceeded", "server_error"} {
		evs, err := readResponsesSSE(t, postResponses(t, ctx, srv.URL(), true).Body)
		if err != nil {
			t.Fatal(err)
		}
		last := evs[len(evs)-1]
		if last.name != "response.failed" {
			t.Fatalf("turn %d ends with %s, want response.failed", i, last.name)
		}
		if e := last.data["response"].(map[string]any)["error"].(map[string]any); e["code"] != want {
			t.Errorf("turn %d error = %v, want code %s", i, e, want)
		}
	}
}
