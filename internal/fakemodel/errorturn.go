package fakemodel

import "encoding/json"

// ErrorTurn answers with status and a raw body, for shapes the helpers below
// do not cover (a proxy's HTML page, a truncated JSON body).
func ErrorTurn(status int, body string) Turn {
	return Turn{Error: &ErrorAnswer{Status: status, Body: body}}
}

// AlbertError answers like Albert (OpenGateLLM, a FastAPI app): {"detail": "..."}.
// Albert's rate-limit and overload errors use this shape, not OpenAI's.
func AlbertError(status int, detail string) Turn {
	return ErrorTurn(status, albertBody(detail))
}

// OpenAIError answers with OpenAI's envelope:
// {"error":{"message":...,"type":...,"param":null,"code":...}}. An empty code is sent as null.
func OpenAIError(status int, message, typ, code string) Turn {
	return ErrorTurn(status, openAIBody(message, typ, code))
}

func albertBody(detail string) string {
	return mustJSON(map[string]string{"detail": detail})
}

func openAIBody(message, typ, code string) string {
	var c any
	if code != "" {
		c = code
	}
	return mustJSON(map[string]any{"error": map[string]any{
		"message": message,
		"type":    typ,
		"param":   nil,
		"code":    c,
	}})
}

// mustJSON marshals values built here from strings and maps, which cannot fail.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("fakemodel: marshal " + err.Error())
	}
	return string(b)
}
