package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/etalab-ia/albert-code/internal/serve/jsonkeys"
)

// runBody is the body of POST /run. Keys are camelCase; the original's snake_case
// spellings are read too.
type runBody struct {
	Prompt             string
	Workspace          string
	Model              string
	SystemPrompt       string
	AppendSystemPrompt string
	JSONSchema         json.RawMessage
	EventMode          string
	OutputFormat       string
	NoContinue         bool
	Resume             string
	Async              bool
	FireAndForget      bool
	TimeoutSeconds     float64
	IdleTimeoutSeconds float64
	Thinking           string
	ToolsAllowlist     []string
	NoTools            bool
	ExtraArgs          []string
	Env                map[string]string
	IncludeRaw         bool
}

// bodyField is one key of runBody: where its value goes and what it must be.
type bodyField struct {
	name string
	want string // for messages: "a string", "a boolean"...
	dst  func(b *runBody) any
}

// runFields lists the keys of POST /run, in the documentation's order.
var runFields = []bodyField{
	{"prompt", "a string", func(b *runBody) any { return &b.Prompt }},
	{"workspace", "a string", func(b *runBody) any { return &b.Workspace }},
	{"model", "a string", func(b *runBody) any { return &b.Model }},
	{"systemPrompt", "a string", func(b *runBody) any { return &b.SystemPrompt }},
	{"appendSystemPrompt", "a string", func(b *runBody) any { return &b.AppendSystemPrompt }},
	{"jsonSchema", "a JSON Schema object", func(b *runBody) any { return &b.JSONSchema }},
	{"eventMode", `"auto", "none" or "full"`, func(b *runBody) any { return &b.EventMode }},
	{"outputFormat", `"text", "json" or "json-verbose"`, func(b *runBody) any { return &b.OutputFormat }},
	{"noContinue", "a boolean", func(b *runBody) any { return &b.NoContinue }},
	{"resume", "a string", func(b *runBody) any { return &b.Resume }},
	{"async", "a boolean", func(b *runBody) any { return &b.Async }},
	{"fireAndForget", "a boolean", func(b *runBody) any { return &b.FireAndForget }},
	{"timeoutSeconds", "a number of seconds", func(b *runBody) any { return &b.TimeoutSeconds }},
	{"idleTimeoutSeconds", "a number of seconds", func(b *runBody) any { return &b.IdleTimeoutSeconds }},
	{"thinking", "a string", func(b *runBody) any { return &b.Thinking }},
	{"toolsAllowlist", "a list of strings", func(b *runBody) any { return &b.ToolsAllowlist }},
	{"noTools", "a boolean", func(b *runBody) any { return &b.NoTools }},
	{"extraArgs", "a list of strings", func(b *runBody) any { return &b.ExtraArgs }},
	{"env", "an object of strings", func(b *runBody) any { return &b.Env }},
	{"includeRaw", "a boolean", func(b *runBody) any { return &b.IncludeRaw }},
}

// decodeRun reads a POST /run body: a JSON object whose keys are all known, each of
// the right type. Its errors name the field; a body past the limit surfaces as the
// reader's *http.MaxBytesError.
func decodeRun(r io.Reader) (runBody, error) {
	var b runBody
	data, err := io.ReadAll(r)
	if err != nil {
		return b, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return b, &fieldError{Detail: "the body is not a JSON object: " + describeJSONError(data, err) +
			`: send one such as {"prompt": "list the files"}`}
	}
	if err := refuseDuplicateKeys(data); err != nil {
		return b, err
	}
	seen := map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		name := camel(key)
		i := slices.IndexFunc(runFields, func(f bodyField) bool { return f.name == name })
		if i < 0 {
			return b, &fieldError{Field: key, Detail: fmt.Sprintf("unknown field %q: known fields are %s", key, knownFields())}
		}
		if prev, ok := seen[name]; ok {
			return b, &fieldError{Field: name, Detail: fmt.Sprintf("field %q is given twice, as %q and %q: send one", name, prev, key)}
		}
		seen[name] = key
		f := runFields[i]
		if err := json.Unmarshal(obj[key], f.dst(&b)); err != nil {
			return b, &fieldError{Field: key, Detail: fmt.Sprintf("field %q: want %s, got %s", key, f.want, kind(obj[key]))}
		}
	}
	return b, b.check()
}

// refuseDuplicateKeys makes a key given twice, at any depth, a 400 naming it:
// encoding/json would keep the last one without a word.
func refuseDuplicateKeys(data []byte) error {
	var de *jsonkeys.DuplicateError
	if err := jsonkeys.Find(data); errors.As(err, &de) {
		field := de.Key
		if de.Path != "" {
			field = de.Path + "." + de.Key
		}
		return &fieldError{Field: field, Detail: de.Error()}
	}
	return nil
}

// check refuses values of the right type that still make no sense.
func (b *runBody) check() error {
	switch {
	case strings.TrimSpace(b.Prompt) == "":
		return &fieldError{Field: "prompt", Detail: `field "prompt" is required and must not be empty`}
	case !slices.Contains([]string{"", "auto", "none", "full"}, b.EventMode):
		return &fieldError{Field: "eventMode", Detail: fmt.Sprintf(`field "eventMode": %q: want "auto", "none" or "full"`, b.EventMode)}
	case !slices.Contains([]string{"", "text", "json", "json-verbose"}, b.OutputFormat):
		return &fieldError{Field: "outputFormat", Detail: fmt.Sprintf(`field "outputFormat": %q: want "text", "json" or "json-verbose"`, b.OutputFormat)}
	case b.TimeoutSeconds < 0:
		return &fieldError{Field: "timeoutSeconds", Detail: `field "timeoutSeconds": want a number of seconds above 0`}
	case b.IdleTimeoutSeconds < 0:
		return &fieldError{Field: "idleTimeoutSeconds", Detail: `field "idleTimeoutSeconds": want a number of seconds above 0`}
	}
	return nil
}

// camel turns a snake_case key into camelCase; a camelCase key is unchanged.
func camel(key string) string {
	if !strings.Contains(key, "_") {
		return key
	}
	var sb strings.Builder
	up := false
	for _, r := range key {
		switch {
		case r == '_':
			up = true
		case up:
			sb.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func knownFields() string {
	names := make([]string, len(runFields))
	for i, f := range runFields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// kind names the JSON type of a raw value, for messages.
func kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return "the body is empty"
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case err != nil:
		return "it is " + kind(data)
	}
	return "it is null"
}
