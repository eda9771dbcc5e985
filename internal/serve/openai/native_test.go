package openai

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
	"github.com/etalab-ia/albert-code/internal/serve/adapter"
)

const chatPath = "/v1/chat/completions"

func get(t *testing.T, srv interface{ Client() *http.Client }, url string, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = jsonDecoder(resp).Decode(&v)
	return resp.StatusCode, v
}

func TestModelsAreListedUnderBothPrefixes(t *testing.T) {
	t.Parallel()
	srv, _ := nativeServer(t)
	list := func(path string) []any {
		status, v := get(t, srv, srv.URL+path, testToken)
		data, _ := v["data"].([]any)
		if status != 200 || v["object"] != "list" || len(data) == 0 {
			t.Fatalf("%s: %d %v", path, status, v)
		}
		if at(data, 0, "object") != "model" || at(data, 0, "owned_by") != "albert-code:native" {
			t.Errorf("%s: entry %v", path, data[0])
		}
		return data
	}
	// The first listing starts the fetch of the server's own list, in the
	// background; the listing may grow once it lands. Both prefixes must then
	// agree.
	var first, second []any
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		first, second = list("/v1/models"), list("/openai/v1/models")
		if jsonOf(first) == jsonOf(second) && jsonOf(first) == jsonOf(list("/v1/models")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the two prefixes list different models: %v and %v", jsonOf(first), jsonOf(second))
		}
	}
	id := at(first, 0, "id").(string)
	if status, v := get(t, srv, srv.URL+"/v1/models/"+id, testToken); status != 200 || v["id"] != id {
		t.Errorf("GET /v1/models/%s: %d %v", id, status, v)
	}
	status, v := get(t, srv, srv.URL+"/v1/models/gpt-9", testToken)
	if status != 404 || at(v, "error", "code") != "model_not_found" || at(v, "error", "param") != "model" {
		t.Errorf("unknown model: %d %v", status, v)
	}
	status, v = get(t, srv, srv.URL+"/v1/models", "wrong")
	if status != 401 || at(v, "error", "code") != "invalid_api_key" || at(v, "error", "type") != "invalid_request_error" {
		t.Errorf("wrong token: %d %v", status, v)
	}
}

func TestChatAnswersInOpenAIsEnvelope(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t, fakemodel.Turn{Text: []string{"Bon", "jour"}, Usage: &fakemodel.Usage{PromptTokens: 12, CompletionTokens: 3, CachedTokens: 4}})
	resp, body := post(t, srv, chatPath, `{"messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":"Salut"}],
		"temperature":0.2,"max_completion_tokens":50,"user":"someone","metadata":{"x":"y"}}`)
	v := decode(t, body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	id, _ := v["id"].(string)
	created, _ := v["created"].(float64)
	if !strings.HasPrefix(id, "chatcmpl-") || v["object"] != "chat.completion" || created < 1e9 || v["model"] != "native" {
		t.Errorf("envelope %s", body)
	}
	if at(v, "choices", 0, "index") != 0.0 || at(v, "choices", 0, "message", "role") != "assistant" ||
		at(v, "choices", 0, "message", "content") != "Bonjour" || at(v, "choices", 0, "finish_reason") != "stop" {
		t.Errorf("choice %s", body)
	}
	if jsonOf(v["usage"]) != `{"completion_tokens":3,"prompt_tokens":12,"prompt_tokens_details":{"cached_tokens":4},"total_tokens":15}` {
		t.Errorf("usage %s", jsonOf(v["usage"]))
	}
	sent := fake.ModelRequests()[0].JSON
	if jsonOf(sent["messages"]) != `[{"content":"Be brief.","role":"system"},{"content":"Salut","role":"user"}]` ||
		sent["temperature"] != 0.2 || sent["max_tokens"] == nil && sent["max_completion_tokens"] == nil {
		t.Errorf("the model got %s", jsonOf(sent))
	}
}

func TestStreamSendsChunksUsageAndDone(t *testing.T) {
	t.Parallel()
	for _, includeUsage := range []bool{true, false} {
		srv, _ := nativeServer(t, fakemodel.Turn{Text: []string{"Bon", "jour"}, Usage: &fakemodel.Usage{PromptTokens: 5, CompletionTokens: 2}})
		opts := ""
		if includeUsage {
			opts = `,"stream_options":{"include_usage":true}`
		}
		resp, body := post(t, srv, chatPath, `{"model":"","stream":true`+opts+`,"messages":[{"role":"user","content":"Salut"}]}`)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		evs := events(t, body)
		if evs[len(evs)-1] != "[DONE]" {
			t.Fatalf("no [DONE] at the end: %q", evs)
		}
		var text strings.Builder
		var finishes []any
		var usages []string
		for i, e := range evs[:len(evs)-1] {
			c := decode(t, []byte(e))
			if c["object"] != "chat.completion.chunk" || !strings.HasPrefix(c["id"].(string), "chatcmpl-") || c["model"] != "native" {
				t.Errorf("chunk %d: %s", i, e)
			}
			if i == 0 && (at(c, "choices", 0, "delta", "role") != "assistant" || at(c, "choices", 0, "delta", "content") != "") {
				t.Errorf("first chunk %s", e)
			}
			if s, ok := at(c, "choices", 0, "delta", "content").(string); ok {
				text.WriteString(s)
			}
			if f := at(c, "choices", 0, "finish_reason"); f != nil {
				finishes = append(finishes, f)
			}
			u, has := c["usage"]
			switch {
			case includeUsage && !has:
				t.Errorf("chunk %d has no usage key: %s", i, e)
			case !includeUsage && has:
				t.Errorf("chunk %d has a usage key unasked: %s", i, e)
			case u != nil:
				usages = append(usages, jsonOf(u))
				if len(c["choices"].([]any)) != 0 || i != len(evs)-2 {
					t.Errorf("the usage chunk %d has choices or is not last: %s", i, e)
				}
			}
		}
		if text.String() != "Bonjour" || len(finishes) != 1 || finishes[0] != "stop" {
			t.Errorf("text %q, finishes %v", text.String(), finishes)
		}
		if want := []string{`{"completion_tokens":2,"prompt_tokens":5,"total_tokens":7}`}; includeUsage && !slices.Equal(usages, want) {
			t.Errorf("usage chunks %v", usages)
		}
	}
}

const weatherTools = `"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather of a city.",
	"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},
	{"type":"function","function":{"name":"get_time","parameters":{"type":"object"}}}]`

func TestToolCallsAreRealFunctionCalls(t *testing.T) {
	t.Parallel()
	turn := fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{
		{ID: "call_a", Name: "get_weather", Arguments: `{"city":"Lyon"}`, Fragments: 3},
		{ID: "call_b", Name: "get_time", Arguments: `{}`, Fragments: 1}}}
	srv, fake := nativeServer(t, turn, turn)

	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather and time in Lyon?"}],`+weatherTools+`,"tool_choice":"required"}`)
	v := decode(t, body)
	msg := at(v, "choices", 0, "message")
	if at(v, "choices", 0, "finish_reason") != "tool_calls" || at(msg, "content") != nil ||
		jsonOf(at(msg, "tool_calls")) != `[{"function":{"arguments":"{\"city\":\"Lyon\"}","name":"get_weather"},"id":"call_a","type":"function"},{"function":{"arguments":"{}","name":"get_time"},"id":"call_b","type":"function"}]` {
		t.Errorf("non-streamed tool calls: %s", body)
	}
	if got := jsonOf(fake.ModelRequests()[0].JSON["tool_choice"]); got != `"required"` {
		t.Errorf("tool_choice sent as %s", got)
	}

	_, body = post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"Weather and time?"}],`+weatherTools+
		`,"tool_choice":{"type":"function","function":{"name":"get_weather"}}}`)
	type call struct{ id, typ, name, args string }
	calls := map[float64]*call{}
	var finish any
	var argFragments int
	for _, e := range events(t, body) {
		if e == "[DONE]" {
			continue
		}
		c := decode(t, []byte(e))
		if f := at(c, "choices", 0, "finish_reason"); f != nil {
			finish = f
		}
		tcs, _ := at(c, "choices", 0, "delta", "tool_calls").([]any)
		for _, tc := range tcs {
			idx, ok := at(tc, "index").(float64)
			if !ok {
				t.Fatalf("a tool_calls delta without index: %s", e)
			}
			if calls[idx] == nil {
				calls[idx] = &call{}
				if at(tc, "id") == nil || at(tc, "type") != "function" || at(tc, "function", "name") == nil {
					t.Errorf("the first delta of call %v lacks id, type or name: %s", idx, e)
				}
			} else {
				argFragments++
			}
			c := calls[idx]
			if s, ok := at(tc, "id").(string); ok {
				c.id = s
			}
			if s, ok := at(tc, "type").(string); ok {
				c.typ = s
			}
			if s, ok := at(tc, "function", "name").(string); ok {
				c.name = s
			}
			if s, ok := at(tc, "function", "arguments").(string); ok {
				c.args += s
			}
		}
	}
	if finish != "tool_calls" || len(calls) != 2 || *calls[0] != (call{"call_a", "function", "get_weather", `{"city":"Lyon"}`}) ||
		*calls[1] != (call{"call_b", "function", "get_time", `{}`}) || argFragments < 3 {
		t.Errorf("streamed calls: finish %v, %d calls, %d argument fragments: %+v %+v", finish, len(calls), argFragments, calls[0], calls[1])
	}
	if got := jsonOf(fake.ModelRequests()[1].JSON["tool_choice"]); got != `{"function":{"name":"get_weather"},"type":"function"}` {
		t.Errorf("tool_choice sent as %s", got)
	}
}

func TestToolResultsGoBackToTheModel(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t, fakemodel.Turn{Text: []string{"18C in Lyon."}})
	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather in Lyon?"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Lyon\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"18C"}],`+weatherTools+`,"tool_choice":"none"}`)
	if at(decode(t, body), "choices", 0, "message", "content") != "18C in Lyon." {
		t.Errorf("answer %s", body)
	}
	sent := fake.ModelRequests()[0].JSON
	if jsonOf(sent["tool_choice"]) != `"none"` || jsonOf(at(sent, "messages", 2)) != `{"content":"18C","role":"tool","tool_call_id":"c1"}` {
		t.Errorf("the model got %s", jsonOf(sent))
	}
}

func TestModelsListsOnlyWhatARequestCanUse(t *testing.T) {
	t.Parallel()
	plain, _ := nativeServer(t)
	_, v := get(t, plain, plain.URL+"/v1/models", testToken)
	known := at(v, "data", 0, "id").(string)
	srv, _ := nativeServerWith(t, func(o *Options) { o.Models = []string{"ghost", known} },
		fakemodel.Turn{Text: []string{"ok"}})
	_, v = get(t, srv, srv.URL+"/v1/models", testToken)
	if got := jsonOf(v["data"]); !strings.Contains(got, `"id":"`+known+`"`) || strings.Contains(got, "ghost") {
		t.Errorf("the native agent lists a model it has no configuration for: %s", got)
	}
	resp, body := post(t, srv, chatPath, `{"model":"ghost","messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 404 || at(decode(t, body), "error", "code") != "model_not_found" {
		t.Errorf("ghost: %d %s", resp.StatusCode, body)
	}
	if resp, body = post(t, srv, chatPath, `{"model":"`+known+`","messages":[{"role":"user","content":"hi"}]}`); resp.StatusCode != 200 {
		t.Errorf("%s: %d %s", known, resp.StatusCode, body)
	}
}

func TestModelsOfAnAdapterThatTakesNone(t *testing.T) {
	t.Parallel()
	a, err := adapter.Resolve("testdata/fake-jsonl.toml", "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(Options{Backend: a, Models: []string{"sonnet"}, Authorize: bearer(testToken), Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)
	status, v := get(t, srv, srv.URL+"/v1/models", testToken)
	if status != 200 || jsonOf(v["data"]) != "[]" {
		t.Errorf("an adapter whose argv has no {model} lists %d %v", status, v)
	}
	resp, body := post(t, srv, chatPath, `{"model":"sonnet","messages":[{"role":"user","content":"hi"}]}`)
	if msg, _ := at(decode(t, body), "error", "message").(string); resp.StatusCode != 404 || !strings.Contains(msg, "leave model empty") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}
