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
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// schemaURL names the client's schema inside the compiler; it never leaves the process.
const schemaURL = "mem://client/schema.json"

// Schema is a compiled client schema. It is safe for concurrent use.
type Schema struct {
	compiled *jsonschema.Schema
	compact  json.RawMessage
}

// Compile checks raw against the JSON Schema meta-schema (draft 2020-12 unless raw
// names another with $schema) and compiles it. raw must be a JSON object. References
// may only point inside raw: a $ref to a file or a URL is refused, since a client's
// schema must not make the server read its disk or the network.
func Compile(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, &SchemaError{Problem: "the schema is empty: send a JSON object such as {\"type\":\"object\"}"}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, &SchemaError{Problem: "not JSON: " + err.Error()}
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, &SchemaError{Problem: fmt.Sprintf("the schema is a JSON %s: want an object such as {\"type\":\"object\"}", kindOf(doc))}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	// A client that writes "format": "date-time" means it; the 2020-12 default
	// would treat it as a mere annotation.
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, &SchemaError{Problem: err.Error()}
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, &SchemaError{Problem: describeCompileError(err)}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, &SchemaError{Problem: "not JSON: " + err.Error()}
	}
	return &Schema{compiled: compiled, compact: buf.Bytes()}, nil
}

// JSON is the schema as compact JSON, for prompts and adapters.
func (s *Schema) JSON() json.RawMessage { return s.compact }

// Validate checks v, a value decoded with json.Number for numbers (see decodeValue),
// and lists every mismatch.
func (s *Schema) Validate(v any) []Problem {
	err := s.compiled.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	return problemsOf(ve)
}

// noLoader refuses every external reference.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("references outside the schema are not allowed (%s): put the definition under $defs", url)
}

// describeCompileError rewrites the library's errors to speak of the client's
// schema, not of the compiler's internal URL.
func describeCompileError(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			return "it does not follow the JSON Schema specification: " + joinProblems(problemsOf(ve))
		}
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, schemaURL, "schema")
	msg = strings.ReplaceAll(msg, `"`+"schema"+`"`, "schema")
	return msg
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
