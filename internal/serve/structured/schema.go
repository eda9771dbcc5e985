// Package structured turns an agent's free text into a JSON value that matches a
// client's JSON Schema: it compiles the schema, finds the JSON in the text (fences,
// prose around it), and drives corrective retries in the agent's own session when
// the answer does not match. The /run API and the OpenAI endpoint both use it.
package structured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ErrBadSchema is matched by errors.Is on a *SchemaError: the client's schema is
// unusable, a 400.
var ErrBadSchema = errors.New("invalid JSON schema")

// SchemaError says what is wrong with a client's schema.
type SchemaError struct {
	Problem string
}

func (e *SchemaError) Error() string { return "invalid JSON schema: " + e.Problem }

func (e *SchemaError) Is(target error) bool { return target == ErrBadSchema }

// The $schema values the validator (github.com/google/jsonschema-go) supports, and
// the spellings of them it would refuse at validation time.
const (
	draft2020 = "https://json-schema.org/draft/2020-12/schema"
	draft7    = "http://json-schema.org/draft-07/schema#"
)

var drafts = map[string]string{
	draft2020:       draft2020,
	draft2020 + "#": draft2020,
	draft7:          draft7,
	"https://json-schema.org/draft-07/schema#": "https://json-schema.org/draft-07/schema#",
	strings.TrimSuffix(draft7, "#"):            draft7,
	"https://json-schema.org/draft-07/schema":  "https://json-schema.org/draft-07/schema#",
}

// Schema is a compiled client schema. It is safe for concurrent use.
type Schema struct {
	resolved *jsonschema.Resolved
	// doc is the schema as decoded JSON (numbers as json.Number), for explaining
	// mismatches; patterns holds its regular expressions, compiled. Both are read-only
	// once Compile returns.
	doc      map[string]any
	patterns map[string]*regexp.Regexp
	compact  json.RawMessage
}

// Compile checks raw against the JSON Schema meta-schema's rules (draft 2020-12
// unless raw names draft-07 with $schema) and compiles it. raw must be a JSON object.
// References may only point inside raw: a $ref to a file or a URL is refused, since
// a client's schema must not make the server read its disk or the network.
//
// Validation is github.com/google/jsonschema-go's, which treats "format" as an
// annotation (it is not asserted) and holds the numbers of numeric keywords
// ("maximum"...) as float64; see docs/serve.md.
func Compile(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, &SchemaError{Problem: "the schema is empty: send a JSON object such as {\"type\":\"object\"}"}
	}
	v, err := decodeValue(raw)
	if err != nil {
		return nil, &SchemaError{Problem: "not JSON: " + err.Error()}
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, &SchemaError{Problem: fmt.Sprintf("the schema is a JSON %s: want an object such as {\"type\":\"object\"}", kindOf(v))}
	}
	c := checker{root: doc, patterns: map[string]*regexp.Regexp{}}
	c.schema(doc, nil)
	if len(c.problems) == 0 {
		c.cycle()
	}
	if len(c.problems) > 0 {
		return nil, &SchemaError{Problem: "it does not follow the JSON Schema specification: " + joinProblems(capProblems(c.problems))}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, &SchemaError{Problem: err.Error()}
	}
	if s.Schema != "" {
		s.Schema = drafts[s.Schema] // checked by the checker
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{Loader: refuseLoad})
	if err != nil {
		return nil, &SchemaError{Problem: describeResolveError(err)}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, &SchemaError{Problem: "not JSON: " + err.Error()}
	}
	return &Schema{resolved: resolved, doc: doc, patterns: c.patterns, compact: buf.Bytes()}, nil
}

// JSON is the schema as compact JSON, for prompts and adapters.
func (s *Schema) JSON() json.RawMessage { return s.compact }

// Validate checks v, a value decoded with json.Number for numbers (see decodeValue),
// and lists the mismatches, at most maxProblems and a last "and more".
//
// The library decides whether v matches; it stops at the first mismatch and says
// where in the schema, not where in the value, so the list comes from our own walk
// of the schema (explain), and falls back to the library's message when that walk
// finds nothing (a keyword it does not cover, such as unevaluatedProperties).
func (s *Schema) Validate(v any) []Problem {
	err := s.resolved.Validate(toValidator(v))
	if err == nil {
		return nil
	}
	x := explainer{root: s.doc, patterns: s.patterns}
	ps := x.walk(s.doc, v, nil, 0)
	if len(ps) == 0 {
		ps = []Problem{{Message: libraryMessage(err)}}
	}
	return capProblems(ps)
}

// toValidator converts json.Number values, which the library would type as strings,
// to int64 when they are integers that fit, float64 otherwise.
func toValidator(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := v.Float64() // out of range: ±Inf, still a number
		return f
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toValidator(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toValidator(e)
		}
		return out
	}
	return v
}

// libraryMessage keeps the innermost part of the library's error: its prefixes
// ("validating root: validating /properties/a: ...") name schema locations.
func libraryMessage(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		msg = msg[i+2:]
	}
	return strings.ReplaceAll(msg, "<anonymous schema>", "a subschema")
}

var errExternalRef = errors.New("references outside the schema are not allowed")

// refuseLoad refuses every external reference.
func refuseLoad(u *url.URL) (*jsonschema.Schema, error) {
	return nil, fmt.Errorf("%w (%s): put the definition under $defs", errExternalRef, u)
}

// describeResolveError rewrites the library's errors to speak of the client's schema.
func describeResolveError(err error) string {
	msg := err.Error()
	if errors.Is(err, errExternalRef) {
		// "loading file:///x: references outside..." -> the reason alone.
		if i := strings.Index(msg, errExternalRef.Error()); i > 0 {
			msg = msg[i:]
		}
		return msg
	}
	msg = strings.ReplaceAll(msg, "jsonschema.Schema: ", "")
	return strings.ReplaceAll(msg, "<anonymous schema>", "schema")
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}
