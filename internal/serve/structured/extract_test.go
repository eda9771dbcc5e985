package structured

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func mustCompile(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const personSchema = `{"type":"object","required":["name","age"],"properties":{"name":{"type":"string"},"age":{"type":"integer"}},"additionalProperties":false}`

func TestExtract(t *testing.T) {
	t.Parallel()
	person := mustCompile(t, personSchema)
	tests := []struct {
		name   string
		text   string
		schema *Schema
		want   string // compact JSON
		from   string
	}{
		{"bare object", `{"name": "Ada", "age": 36}`, person, `{"name":"Ada","age":36}`, FromText},
		{"byte order mark and spaces", "\uFEFF  \n{\"name\":\"Ada\",\"age\":36}\n\n", person, `{"name":"Ada","age":36}`, FromText},
		{"json fence", "```json\n{\"name\":\"Ada\",\"age\":36}\n```", person, `{"name":"Ada","age":36}`, FromFence},
		{"fence among prose", "Here you go:\n\n```\n{\"name\":\"Ada\",\"age\":36}\n```\nAnything else?", person, `{"name":"Ada","age":36}`, FromFence},
		{"tilde fence", "~~~json\n{\"name\":\"Ada\",\"age\":36}\n~~~", person, `{"name":"Ada","age":36}`, FromFence},
		{"unclosed fence", "```json\n{\"name\":\"Ada\",\"age\":36}\n", person, `{"name":"Ada","age":36}`, FromFence},
		{"four backticks around a fence", "````\n```\n{\"name\":\"Ada\",\"age\":36}\n```\n````", person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"example fence then answer fence", "Format:\n```json\n{\"name\":\"string\",\"age\":\"int\"}\n```\nAnswer:\n```json\n{\"name\":\"Ada\",\"age\":36}\n```", person, `{"name":"Ada","age":36}`, FromFence},
		{"answer fence then a bad example fence", "```json\n{\"name\":\"Ada\",\"age\":36}\n```\nNot like this:\n```json\n{\"name\":1}\n```", person, `{"name":"Ada","age":36}`, FromFence},
		{"leading prose", `Sure! The result is {"name":"Ada","age":36}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"trailing prose", `{"name":"Ada","age":36} Hope this helps.`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"braces in prose before", `Fill the {name} and {age} fields: {"name":"Ada","age":36}.`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"braces in prose after", `{"name":"Ada","age":36} (see {docs} for {more}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"unclosed brace before", `I think { this is it: {"name":"Ada","age":36}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"stray quote in prose", `Ada's "record: {"name":"Ada","age":36}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"braces and brackets inside strings", `ok: {"name":"}]{[\"","age":36} done`, person, `{"name":"}]{[\"","age":36}`, FromEmbedded},
		{"object nested in prose braces", `{see {"name":"Ada","age":36}}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"schema picks the matching object", `Wrong: {"name":"Bob"} Right: {"name":"Ada","age":36} Also: {"x":1}`, person, `{"name":"Ada","age":36}`, FromEmbedded},
		{"without schema the last object", `example {"a":1} answer {"b":2}`, nil, `{"b":2}`, FromEmbedded},
		{"top-level array", "The list: [1, 2, 3].", mustCompile(t, `{"type":"array","items":{"type":"integer"}}`), `[1,2,3]`, FromEmbedded},
		{"key order and number spelling kept", `{"z":1.0e3,"a":12345678901234567890}`, nil, `{"z":1.0e3,"a":12345678901234567890}`, FromText},
		{"double-encoded", `"{\"name\":\"Ada\",\"age\":36}"`, person, `{"name":"Ada","age":36}`, FromString},
		{"trailing commas", "```json\n{\"name\":\"Ada\",\"age\":36,}\n```", person, `{"name":"Ada","age":36}`, FromRepaired},
		{"comments", "{\n  // who\n  \"name\": \"Ada\", /* years */ \"age\": 36\n}", person, `{"name":"Ada","age":36}`, FromRepaired},
		{"comment markers inside strings kept", `{"name":"http://x/*y*/","age":36,}`, person, `{"name":"http://x/*y*/","age":36}`, FromRepaired},
		{"a JSON string without schema", `"just text"`, nil, `"just text"`, FromText},
		{"number without schema", `42`, nil, `42`, FromText},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Extract(tc.text, tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			if string(p.JSON) != tc.want || p.From != tc.from {
				t.Errorf("got %s from %s, want %s from %s", p.JSON, p.From, tc.want, tc.from)
			}
		})
	}
}

func TestExtractFailures(t *testing.T) {
	t.Parallel()
	person := mustCompile(t, personSchema)
	tests := []struct {
		name     string
		text     string
		notJSON  bool
		contains string
	}{
		{"empty", "  \n", true, "the answer is empty"},
		{"prose only", "I could not find anything.", true, "no JSON value found"},
		{"unclosed object", `{"name":"Ada","age":`, true, "unexpected EOF"},
		{"wrong type", `{"name":"Ada","age":"36"}`, false, "at /age: got string, want integer"},
		{"missing and extra", `{"nom":"Ada"}`, false, "missing properties"},
		{"the answer's problems, not the example's", "example {\"x\":1}\nanswer {\"name\":\"Ada\",\"age\":1.5}", false, "at /age"},
		{"python literals", `{'name': 'Ada', 'age': 36}`, true, "no JSON value found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Extract(tc.text, person)
			var perr *ParseError
			if !errors.As(err, &perr) || !errors.Is(err, ErrNoMatch) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if perr.NotJSON != tc.notJSON || !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("got %q (notJSON %v), want %q (notJSON %v)", err, perr.NotJSON, tc.contains, tc.notJSON)
			}
		})
	}
}

// A text full of unclosed brackets would cost quadratic time without the scan budget.
func TestExtractIsBoundedOnUnclosedBrackets(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("[{", 200_000) + ` {"name":"Ada","age":36}`
	start := time.Now()
	_, _ = Extract(text, mustCompile(t, personSchema))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Extract took %s on 400 kB of unclosed brackets", d)
	}
}

func TestFencedBlocks(t *testing.T) {
	t.Parallel()
	text := "a\n```go\nx := 1\n```\n" + // tagged
		"   ```\nindented\n   ```\n" + // up to three spaces
		"    ```\nnot a fence: four spaces\n" +
		"````\n```\ninner\n```\n````\n" + // a longer fence holds a shorter one
		"```unclosed\nrest"
	got := fencedBlocks(text)
	want := []string{"x := 1\n", "indented\n", "```\ninner\n```\n", "rest"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
