package structured

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompileRefusesBrokenSchemas(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(secret, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, schema, contains string
	}{
		{"empty", ``, "the schema is empty"},
		{"null", `null`, "the schema is empty"},
		{"not JSON", `{"type":`, "not JSON"},
		{"an array", `["object"]`, "the schema is a JSON array"},
		{"a boolean", `true`, "the schema is a JSON boolean"},
		{"unknown type", `{"type":"objekt"}`, "at /type: value must be one of"},
		{"wrong keyword type", `{"properties":{"a":{"minimum":"x"}}}`, "at /properties/a/minimum: got string, want number"},
		{"bad pattern", `{"type":"string","pattern":"("}`, "pattern"},
		{"dangling ref", `{"$ref":"#/$defs/missing"}`, "not found"},
		{"file ref", `{"$ref":"file://` + secret + `"}`, "references outside the schema are not allowed"},
		{"http ref", `{"$ref":"http://127.0.0.1:1/s.json"}`, "references outside the schema are not allowed"},
		{"relative ref", `{"$ref":"other.json#/a"}`, "references outside the schema are not allowed"},
		{"ref cycle", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "cycle"},
		{"self ref", `{"$ref":"#"}`, "cycle"},
		{"unsupported draft", `{"$schema":"http://json-schema.org/draft-04/schema#"}`, "unsupported draft"},
		{"dynamic ref", `{"$dynamicRef":"#a"}`, "$dynamicRef is not supported"},
		{"negative count", `{"minLength":-1}`, "at /minLength: must be >= 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(json.RawMessage(tc.schema))
			if !errors.Is(err, ErrBadSchema) || !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("err = %v, want ErrBadSchema saying %q", err, tc.contains)
			}
			if err != nil && strings.Contains(err.Error(), "jsonschema") {
				t.Errorf("the message names the library: %v", err)
			}
		})
	}
}

func TestCompileAndValidate(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, `{
		"type": "object",
		"$defs": {"when": {"type": "string", "format": "date", "pattern": "^[0-9]"}},
		"properties": {"day": {"$ref": "#/$defs/when"}, "n": {"type": "integer", "maximum": 9007199254740992}},
		"required": ["day"]
	}`)
	if got := string(s.JSON()); strings.ContainsAny(got, " \n\t") {
		t.Errorf("JSON() is not compact: %s", got)
	}
	tests := []struct {
		value string
		want  string // "" when valid
	}{
		{`{"day":"2026-12-01"}`, ""},
		// "format" is an annotation only (a limit of the validator, see docs/serve.md):
		// "2026-99-99" passes, and a client that needs the check writes a pattern.
		{`{"day":"2026-99-99"}`, ""},
		{`{"day":"tomorrow"}`, `at /day: "tomorrow" does not match pattern "^[0-9]"`},
		// The value's numbers are exact; the schema's bounds are float64, exact up to 2^53.
		{`{"day":"2026-12-01","n":9007199254740992}`, ""},
		{`{"day":"2026-12-01","n":9007199254740993}`, "at /n: maximum"},
		{`{}`, "at /: missing property 'day'"},
	}
	for _, tc := range tests {
		v, err := decodeValue([]byte(tc.value))
		if err != nil {
			t.Fatal(err)
		}
		got := joinProblems(s.Validate(v))
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.value, got, tc.want)
		}
	}
}

func TestValidateCapsTheProblems(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, `{"type":"array","items":{"type":"string"}}`)
	v, _ := decodeValue([]byte(`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]`))
	ps := s.Validate(v)
	if len(ps) != maxProblems+1 || ps[maxProblems].Message != "and more" {
		t.Errorf("got %d problems: %v", len(ps), ps)
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, `{
		"type": "object",
		"$defs": {"tag": {"$anchor": "tag", "enum": ["a", "b"]}},
		"properties": {
			"name": {"type": "string", "minLength": 2},
			"tags": {"type": "array", "items": {"$ref": "#tag"}, "uniqueItems": true},
			"kind": {"anyOf": [{"const": 1}, {"type": "string"}]},
			"n": {"type": ["integer", "null"], "multipleOf": 0.5, "exclusiveMinimum": 0},
			"when": true
		},
		"required": ["name", "tags", "when"],
		"additionalProperties": false
	}`)
	v, _ := decodeValue([]byte(`{"name":"A","tags":["a","c","a"],"kind":2.0,"n":0,"x":1}`))
	got := joinProblems(s.Validate(v))
	for _, want := range []string{
		"at /: missing property 'when'",
		"at /: additional properties 'x' not allowed",
		"at /name: length must be >= 2, but got 1",
		"at /tags: items at 0 and 2 are equal",
		`at /tags/1: value must be one of "a", "b"`,
		"at /kind: does not match any of the anyOf schemas",
		"at /n: exclusiveMinimum: got 0, want > 0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	// 1.0 is an integer and equals 1: the same value as the const.
	if v, _ := decodeValue([]byte(`{"name":"Al","tags":[],"when":1,"kind":1.0,"n":null}`)); s.Validate(v) != nil {
		t.Errorf("a matching value was refused: %v", s.Validate(v))
	}
}

// A keyword the problem walk does not cover still fails the value, with the
// validator's own message.
func TestValidateFallsBackToTheLibraryMessage(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, `{"properties":{"a":{}},"unevaluatedProperties":false}`)
	v, _ := decodeValue([]byte(`{"a":1,"b":2}`))
	ps := s.Validate(v)
	if len(ps) != 1 || ps[0].Message == "" || strings.Contains(ps[0].Message, "validating") || strings.Contains(ps[0].Message, "<anonymous") {
		t.Errorf("got %v", ps)
	}
}
