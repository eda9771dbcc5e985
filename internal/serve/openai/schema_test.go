package openai

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

const citySchema = `"response_format":{"type":"json_schema","json_schema":{"name":"city","strict":true,
	"schema":{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"integer"}},"required":["city","temp"],"additionalProperties":false}}}`

func TestJSONSchemaAnswersAreFoundAndValidated(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t, fakemodel.Turn{Text: []string{"Here it is:\n```json\n{\"city\": \"Lyon\", ", "\"temp\": 18}\n```"}})
	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather in Lyon?"}],`+citySchema+`}`)
	v := decode(t, body)
	if at(v, "choices", 0, "message", "content") != `{"city":"Lyon","temp":18}` || at(v, "choices", 0, "finish_reason") != "stop" {
		t.Errorf("answer %s", body)
	}
	sys, _ := at(fake.ModelRequests()[0].JSON, "messages", 0, "content").(string)
	if !strings.Contains(sys, "JSON Schema") || !strings.Contains(sys, `"required":["city","temp"]`) {
		t.Errorf("the model was not told the schema: %q", sys)
	}
}

func TestJSONSchemaMismatchIsCorrectedInTheConversation(t *testing.T) {
	t.Parallel()
	u := &fakemodel.Usage{PromptTokens: 10, CompletionTokens: 5}
	srv, fake := nativeServer(t,
		fakemodel.Turn{Text: []string{`{"city":"Lyon","temp":"warm"}`}, Usage: u},
		fakemodel.Turn{Text: []string{`{"city":"Lyon","temp":18}`}, Usage: u})
	_, body := post(t, srv, chatPath, `{"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"Be exact."},{"role":"user","content":"Weather?"}],`+citySchema+`}`)
	evs := events(t, body)
	if !strings.Contains(string(body), `"content":"{\"city\":\"Lyon\",\"temp\":18}"`) || evs[len(evs)-1] != "[DONE]" ||
		jsonOf(at(decode(t, []byte(evs[len(evs)-2])), "usage")) != `{"completion_tokens":10,"prompt_tokens":20,"total_tokens":30}` {
		t.Errorf("stream %s", body)
	}
	reqs := fake.ModelRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls, want 2", len(reqs))
	}
	msgs, _ := reqs[1].JSON["messages"].([]any)
	if len(msgs) != 4 || at(msgs, 2, "content") != `{"city":"Lyon","temp":"warm"}` || at(msgs, 3, "role") != "user" ||
		!strings.Contains(at(msgs, 3, "content").(string), "at /temp") {
		t.Errorf("the corrective call got %s", jsonOf(msgs))
	}
	if sys := at(msgs, 0, "content").(string); !strings.HasPrefix(sys, "Be exact.\n\n") || strings.Count(jsonOf(msgs), `"role":"system"`) != 1 {
		t.Errorf("the schema instruction is not in the one system message: %s", jsonOf(msgs))
	}
}

func TestJSONSchemaRetriesRunOut(t *testing.T) {
	t.Parallel()
	bad := fakemodel.Turn{Text: []string{"I cannot say."}}
	srv, fake := nativeServer(t, bad, bad, bad, bad)
	resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+citySchema+`}`)
	v := decode(t, body)
	if resp.StatusCode != 422 || at(v, "error", "code") != "json_schema_mismatch" || !strings.Contains(at(v, "error", "message").(string), "4 attempts") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if len(fake.ModelRequests()) != 4 {
		t.Errorf("%d model calls, want 1 and 3 corrective", len(fake.ModelRequests()))
	}
}

func TestJSONObjectWantsAnObject(t *testing.T) {
	t.Parallel()
	srv, _ := nativeServer(t, fakemodel.Turn{Text: []string{`["a"]`}}, fakemodel.Turn{Text: []string{`{"a":1}`}})
	_, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"}}`)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"a":1}` {
		t.Errorf("%s", body)
	}
}

func TestToolTurnsAreUncheckedAndTheFinalAnswerValidated(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t,
		fakemodel.Turn{ToolCalls: []fakemodel.ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{"city":"Lyon"}`}}},
		fakemodel.Turn{Text: []string{`It is {"city":"Lyon"}`}},
		fakemodel.Turn{Text: []string{`{"city":"Lyon","temp":18}`}})
	_, body := post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"Weather in Lyon?"}],`+weatherTools+`,`+citySchema+`}`)
	if !strings.Contains(string(body), `"finish_reason":"tool_calls"`) || !strings.Contains(string(body), `"arguments":"{\"city\":\"Lyon\"}"`) ||
		!strings.Contains(string(body), `"id":"c1"`) {
		t.Errorf("the tool turn: %s", body)
	}
	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather in Lyon?"},
		{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Lyon\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"18C"}],`+weatherTools+`,`+citySchema+`}`)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon","temp":18}` || len(fake.ModelRequests()) != 3 {
		t.Errorf("the final answer: %s after %d calls", body, len(fake.ModelRequests()))
	}
	if sys := at(fake.ModelRequests()[0].JSON, "messages", 0, "content").(string); !strings.Contains(sys, "instead of calling a tool") {
		t.Errorf("instruction %q", sys)
	}
}
