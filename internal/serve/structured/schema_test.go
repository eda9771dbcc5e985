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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(json.RawMessage(tc.schema))
			if !errors.Is(err, ErrBadSchema) || !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("err = %v, want ErrBadSchema saying %q", err, tc.contains)
			}
			if err != nil && strings.Contains(err.Error(), schemaURL) {
				t.Errorf("the message names the compiler's internal URL: %v", err)
			}
		})
	}
}

func TestCompileAndValidate(t *testing.T) {
	t.Parallel()
	s := mustCompile(t, `{
		"type": "object",
		"$defs": {"when": {"type": "string", "format": "date"}},
		"properties": {"day": {"$ref": "#/$defs/when"}, "n": {"type": "integer", "maximum": 9007199254740993}},
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
		{`{"day":"tomorrow"}`, "at /day: 'tomorrow' is not valid date"},
		{`{"day":"2026-12-01","n":9007199254740993}`, ""},
		{`{"day":"2026-12-01","n":9007199254740994}`, "at /n: maximum"},
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
