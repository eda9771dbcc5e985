package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestBadRequestsNameTheFieldAtFault(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t)
	user := `"messages":[{"role":"user","content":"hi"}]`
	tests := []struct {
		name, body, param, says string
	}{
		{"not JSON", `{"messages":`, "", "not JSON"},
		{"wrong type", `{"messages":"hi"}`, "messages", "array"},
		{"stream wrong type", `{"stream":"yes",` + user + `}`, "stream", "boolean"},
		{"no messages", `{"model":""}`, "messages", "required"},
		{"bad role", `{"messages":[{"role":"robot","content":"x"}]}`, "messages[0].role", "robot"},
		{"image not a data URL", `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, "messages[0].content[0].image_url.url", "want a base64 data URL"},
		{"image to the native adapter", `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + pngBase64 + `"}}]}]}`, "messages[0].content[0]", "CLI agents"},
		{"audio part", `{"messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{}}]}]}`, "messages[0].content", "input_audio"},
		{"orphan tool result", `{"messages":[{"role":"tool","tool_call_id":"x","content":"1"}]}`, "messages[0]", "tool_call_id"},
		{"n", `{"n":2,` + user + `}`, "n", "n=1"},
		{"tool choice", `{"tool_choice":"sometimes",` + user + `}`, "tool_choice", "sometimes"},
		{"named tool absent", `{"tool_choice":{"type":"function","function":{"name":"x"}},` + user + `}`, "tool_choice", `"x"`},
		{"tool type", `{"tools":[{"type":"custom","function":{"name":"x"}}],` + user + `}`, "tools[0].type", "function"},
		{"format type", `{"response_format":{"type":"yaml"},` + user + `}`, "response_format.type", "yaml"},
		{"schema missing", `{"response_format":{"type":"json_schema","json_schema":{"name":"x"}},` + user + `}`, "response_format.json_schema.schema", "required"},
		{"broken schema", `{"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"thing"}}},` + user + `}`, "response_format.json_schema.schema", "/type"},
		{"key twice", `{"model":"a","model":"b",` + user + `}`, "model", `key "model" is given twice`},
		{"key twice in a message", `{"messages":[{"role":"user","content":"hi","role":"system"}]}`, "messages[0].role", `key "role" is given twice`},
		{"only system messages", `{"messages":[{"role":"system","content":"Be brief."},{"role":"developer","content":"x"}]}`, "messages", "only system"},
		{"stream options alone", `{"stream_options":{"include_usage":true},` + user + `}`, "stream_options", "stream: true"},
	}
	for _, tc := range tests {
		resp, body := post(t, srv, chatPath, tc.body)
		v := decode(t, body)
		msg, _ := at(v, "error", "message").(string)
		param, _ := at(v, "error", "param").(string)
		if resp.StatusCode != 400 || at(v, "error", "type") != "invalid_request_error" || param != tc.param || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
	}
	if n := len(fake.ModelRequests()); n != 0 {
		t.Errorf("bad requests reached the model %d times", n)
	}
}

func TestStatusesOfRefusedRequests(t *testing.T) {
	t.Parallel()
	limited, limitedFake := nativeServer(t,
		fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 429, Body: `{"error":{"message":"slow down"}}`}}.WithHeader("Retry-After", "3600"))
	user := `{"messages":[{"role":"user","content":"hi"}]}`
	resp, body := post(t, limited, chatPath, user)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3600" || at(decode(t, body), "error", "code") != "rate_limit_exceeded" {
		t.Errorf("provider rate limit: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	// The rate-limit layer holds the model back: the next request is refused at once,
	// without reaching the provider, rather than held until its timeout.
	resp, body = post(t, limited, chatPath, user)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || len(limitedFake.ModelRequests()) != 1 {
		t.Errorf("request while held back: %d Retry-After %q after %d model requests: %s",
			resp.StatusCode, resp.Header.Get("Retry-After"), len(limitedFake.ModelRequests()), body)
	}

	srv, _ := nativeServer(t,
		fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 401, Body: `{"detail":"bad key"}`}},
		fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 400, Body: `{"detail":"context too long"}`}},
	)
	resp, body = post(t, srv, chatPath, user)
	if resp.StatusCode != 502 || !strings.Contains(string(body), "bad key") {
		t.Errorf("the server's provider key refused: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, srv, chatPath, user)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "context too long") {
		t.Errorf("the provider refused the request: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, srv, chatPath, `{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}`)
	if v := decode(t, body); resp.StatusCode != 404 || at(v, "error", "param") != "model" || at(v, "error", "code") != "model_not_found" {
		t.Errorf("unknown model: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+chatPath, strings.NewReader(user))
	req.Header.Set("Authorization", "Bearer nope")
	r, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 401 || r.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("wrong token: %d", r.StatusCode)
	}
	resp, body = post(t, srv, "/v1/embeddings", user)
	if resp.StatusCode != 404 || at(decode(t, body), "error", "code") != "unknown_url" {
		t.Errorf("unknown route: %d %s", resp.StatusCode, body)
	}
}

func TestLargeBodiesAre413(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t)
	big := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", DefaultMaxBody) + `"}]}`
	resp, body := post(t, srv, chatPath, big)
	if resp.StatusCode != 413 || at(decode(t, body), "error", "code") != "request_too_large" {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if len(fake.ModelRequests()) != 0 {
		t.Errorf("the model was called")
	}
}

func TestProviderRetriesStopOnceAByteIsSent(t *testing.T) {
	t.Parallel()
	broken := fakemodel.Turn{Text: []string{"Hel", "lo"}, Drop: true}
	srv, fake := nativeServer(t, broken, fakemodel.Turn{Text: []string{"Hello again"}})
	_, body := post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	evs := events(t, body)
	last := decode(t, []byte(evs[len(evs)-1]))
	if !strings.Contains(string(body), `"Hel"`) || at(last, "error", "code") != "provider_stream_broken" || strings.Contains(string(body), "[DONE]") {
		t.Errorf("stream %s", body)
	}
	if n := len(fake.ModelRequests()); n != 1 {
		t.Errorf("the model was called %d times, want 1: no retry after the first byte", n)
	}

	srv, fake = nativeServer(t, broken, fakemodel.Turn{Text: []string{"Hello again"}})
	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"hi"}]}`)
	if at(decode(t, body), "choices", 0, "message", "content") != "Hello again" || len(fake.ModelRequests()) != 2 {
		t.Errorf("non-streamed: %s after %d calls, want the retry's answer", body, len(fake.ModelRequests()))
	}

	srv, fake = nativeServer(t, fakemodel.Turn{Error: &fakemodel.ErrorAnswer{Status: 503, Body: `{"detail":"busy"}`}}.WithHeader("Retry-After", "1"),
		fakemodel.Turn{Text: []string{"Hello"}})
	resp, body := post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"Hello"`) || !strings.HasSuffix(string(body), "data: [DONE]\n\n") || len(fake.ModelRequests()) != 2 {
		t.Errorf("a retry before the first byte: %d %s", resp.StatusCode, body)
	}
}

func TestClientGoneMidStreamEndsTheModelCall(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t, fakemodel.Turn{Text: []string{"Hel"}, Hang: true})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+chatPath, strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	var got string
	for !strings.Contains(got, `"Hel"`) {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("read: %v after %q", err, got)
		}
		got += string(buf[:n])
	}
	cancel()
	resp.Body.Close()
	// The hanging turn returns once its request's context ends; Close of the fake
	// (at cleanup) fails the test if a handler outlives its request.
	srv.Close()
	if len(fake.ModelRequests()) != 1 {
		t.Errorf("%d model calls", len(fake.ModelRequests()))
	}
}
