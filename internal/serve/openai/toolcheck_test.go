package openai

import (
	"strings"
	"testing"
)

const weatherQuestion = `"messages":[{"role":"user","content":"Weather?"}]`

func TestCLIUndeclaredToolGetsACorrection(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t,
		`{"tool_calls":[{"name":"get_forecast","arguments":{"city":"Lyon"}}]}`,
		`{"tool_calls":[{"name":"get_weather","arguments":{"city":"Lyon"}}]}`)
	_, body := post(t, srv, chatPath, `{`+weatherQuestion+`,`+weatherTools+`}`)
	v := decode(t, body)
	if at(v, "choices", 0, "finish_reason") != "tool_calls" || at(v, "choices", 0, "message", "tool_calls", 0, "function", "name") != "get_weather" {
		t.Errorf("%s", body)
	}
	p := f.read(t, 2, "prompt")
	for _, want := range []string{`Your last reply called "get_forecast", which the caller does not offer: the only tools you may call are "get_weather", "get_time".`,
		"answer in plain text", "Task:\n", `"get_forecast"`} {
		if !strings.Contains(p, want) {
			t.Errorf("the correction lacks %q: %q", want, p)
		}
	}
}

func TestCLIUndeclaredToolRetriesSpent(t *testing.T) {
	t.Parallel()
	ghost := `{"tool_calls":[{"name":"rm_rf"}]}`
	srv, f := cliServer(t, ghost, ghost, ghost, ghost)
	resp, body := post(t, srv, chatPath, `{`+weatherQuestion+`,`+weatherTools+`}`)
	v := decode(t, body)
	msg, _ := at(v, "error", "message").(string)
	if resp.StatusCode != 422 || at(v, "error", "code") != "undeclared_tool" || at(v, "error", "param") != "tools" ||
		!strings.Contains(msg, `"rm_rf"`) || !strings.Contains(msg, "4 attempts") || f.runs(t) != 4 {
		t.Errorf("%d %s after %d runs", resp.StatusCode, body, f.runs(t))
	}
}

func TestCLIRequiredToolChoiceUnmet(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "sunny", "still sunny", "I said sunny", "sunny!")
	resp, body := post(t, srv, chatPath, `{`+weatherQuestion+`,`+weatherTools+`,"tool_choice":"required"}`)
	v := decode(t, body)
	msg, _ := at(v, "error", "message").(string)
	if resp.StatusCode != 422 || at(v, "error", "code") != "tool_choice_unmet" || at(v, "error", "param") != "tool_choice" ||
		!strings.HasPrefix(msg, `tool_choice is "required", but the agent called no tool in 4 attempts (3 corrective)`) || !strings.Contains(msg, "sunny!") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if p := f.read(t, 2, "prompt"); !strings.Contains(p, `Your last reply called no tool, but you must call at least one of "get_weather", "get_time" now.`) {
		t.Errorf("correction %q", p)
	}
}

func TestCLIUndeclaredToolIsNoFinalAnswer(t *testing.T) {
	t.Parallel()
	// With json_object, {"tool_calls": [...]} of an unknown tool is an object, but
	// not a final answer: it is corrected like the other modes.
	srv, f := cliServer(t, `{"tool_calls":[{"name":"get_forecast"}]}`, `{"city":"Lyon"}`)
	_, body := post(t, srv, chatPath, `{`+weatherQuestion+`,`+weatherTools+`,"response_format":{"type":"json_object"}}`)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon"}` || f.runs(t) != 2 {
		t.Errorf("%s after %d runs", body, f.runs(t))
	}
	if p := f.read(t, 2, "prompt"); !strings.Contains(p, `called "get_forecast", which the caller does not offer`) || !strings.Contains(p, "final answer as JSON") {
		t.Errorf("correction %q", p)
	}
}
