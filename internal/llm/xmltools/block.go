package xmltools

import (
	"bytes"
	"encoding/json"
	"strings"
)

// parseBlock reads the calls in the body of one block: every <function=NAME>...
// </function> in it, or a Hermes-style JSON object {"name": ..., "arguments": ...}
// (the format Qwen2.5 uses inside the same wrapper). When open is true the block was
// cut by the end of the stream: a function whose name is complete still counts, with
// only its finished parameters.
func (p *Parser) parseBlock(body string, open bool) []Call {
	if trimmed := strings.TrimSpace(body); strings.HasPrefix(trimmed, "{") {
		if c, ok := parseJSONCall(trimmed); ok {
			return []Call{c}
		}
		return nil
	}
	var calls []Call
	rest := body
	for {
		i := strings.Index(rest, openFunc)
		if i < 0 {
			return calls
		}
		rest = rest[i+len(openFunc):]
		gt := strings.IndexByte(rest, '>')
		if gt < 0 {
			return calls
		}
		name := strings.TrimSpace(rest[:gt])
		rest = rest[gt+1:]
		inner, closed := rest, false
		if j := strings.Index(rest, closeFunc); j >= 0 {
			inner, rest, closed = rest[:j], rest[j+len(closeFunc):], true
		} else {
			rest = ""
		}
		if !validName(name) {
			continue
		}
		// In a finished block a missing </function> ends at the block's end.
		complete := closed || !open
		calls = append(calls, Call{Name: name, Arguments: p.parseParams(name, inner, complete)})
	}
}

// validName rejects what cannot be a function name, so prose such as
// "<function=...> is the syntax" is not taken for a call.
func validName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "<>\"' \t\r\n")
}

type param struct {
	key   string
	value json.RawMessage
}

// parseParams turns the <parameter=KEY>VALUE</parameter> list of one function into
// a JSON object. A parameter ends at its closing tag or, when the model forgot it,
// at the next parameter; the last one may also end at the end of a complete
// function, but in a truncated function (complete false) it is dropped as unfinished.
func (p *Parser) parseParams(tool, inner string, complete bool) string {
	var params []param
	rest := inner
	for {
		i := strings.Index(rest, openParam)
		if i < 0 {
			break
		}
		rest = rest[i+len(openParam):]
		gt := strings.IndexByte(rest, '>')
		if gt < 0 {
			break
		}
		key := strings.TrimSpace(rest[:gt])
		rest = rest[gt+1:]
		end, next := valueEnd(rest)
		if end < 0 {
			if !complete {
				break
			}
			end, next = len(rest), len(rest)
		}
		value := p.paramValue(tool, key, rest[:end])
		rest = rest[next:]
		params = setParam(params, key, value)
	}
	return encodeObject(params)
}

// valueEnd finds where a parameter value stops: at </parameter> (skipped), or at a
// following <parameter= (kept for the next round). It returns -1 when neither is
// there yet.
func valueEnd(s string) (end, next int) {
	c := strings.Index(s, closeParam)
	o := strings.Index(s, openParam)
	switch {
	case c >= 0 && (o < 0 || c < o):
		return c, c + len(closeParam)
	case o >= 0:
		return o, o
	}
	return -1, -1
}

// paramValue decodes one value. Qwen3-Coder puts the value on its own lines, so one
// leading and one trailing newline are layout, not content (vLLM's qwen3coder parser
// strips them too). Valid JSON is kept as JSON, unless the tool's schema says the
// parameter is a string: a file whose content happens to be JSON must stay text.
func (p *Parser) paramValue(tool, key, raw string) json.RawMessage {
	v := strings.TrimPrefix(raw, "\n")
	v = strings.TrimSuffix(v, "\n")
	keepString := p.stringParam != nil && p.stringParam(tool, key)
	if !keepString {
		if t := strings.TrimSpace(v); t != "" && json.Valid([]byte(t)) {
			var buf bytes.Buffer
			if json.Compact(&buf, []byte(t)) == nil {
				return buf.Bytes()
			}
		}
	}
	b, _ := json.Marshal(v) // a string always marshals
	return b
}

// setParam adds a parameter; a repeated key keeps its first position and its last value.
func setParam(params []param, key string, value json.RawMessage) []param {
	for i := range params {
		if params[i].key == key {
			params[i].value = value
			return params
		}
	}
	return append(params, param{key, value})
}

func encodeObject(params []param) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(kv.value)
	}
	b.WriteByte('}')
	return b.String()
}

// parseJSONCall reads {"name": "...", "arguments": {...}}; arguments given as a
// string holding JSON are accepted too.
func parseJSONCall(s string) (Call, bool) {
	var obj struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal([]byte(s), &obj) != nil || !validName(obj.Name) {
		return Call{}, false
	}
	args := obj.Arguments
	var asString string
	if json.Unmarshal(args, &asString) == nil {
		args = json.RawMessage(asString)
	}
	if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var buf bytes.Buffer
	if json.Compact(&buf, args) != nil {
		return Call{}, false
	}
	return Call{Name: obj.Name, Arguments: buf.String()}, true
}
