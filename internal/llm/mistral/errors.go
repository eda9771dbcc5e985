package mistral

import (
	"encoding/json"
	"fmt"
	"strings"
)

// maxErrorBody bounds what is read of an error answer, as openaicompat does.
const maxErrorBody = 64 << 10

// rewriteErrorBody turns Mistral's nested error message into a string, so that
// openaicompat shows it: validation errors come as
// {"object":"error","message":{"detail":[{"loc":[...],"msg":...}]},...} and
// sometimes as a list in message. A body already readable is left unchanged.
func rewriteErrorBody(body []byte) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	raw, ok := doc["message"]
	if !ok || len(raw) == 0 || raw[0] == '"' || string(raw) == "null" {
		return body
	}
	var nested struct {
		Detail json.RawMessage `json:"detail"`
	}
	list := raw
	if raw[0] == '{' && json.Unmarshal(raw, &nested) == nil && len(nested.Detail) > 0 {
		list = nested.Detail
	}
	msg := validationMessage(list)
	if msg == "" {
		return body
	}
	doc["message"], _ = json.Marshal(msg)
	out, err := marshal(doc)
	if err != nil {
		return body
	}
	return out
}

// validationMessage renders pydantic errors as "body.stream_options: Extra inputs
// are not permitted; ...", or a string detail as it is.
func validationMessage(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var parts []string
	for _, it := range items {
		loc := make([]string, len(it.Loc))
		for i, l := range it.Loc {
			loc[i] = fmt.Sprint(l)
		}
		if len(loc) > 0 {
			parts = append(parts, strings.Join(loc, ".")+": "+it.Msg)
		} else {
			parts = append(parts, it.Msg)
		}
	}
	return strings.Join(parts, "; ")
}
