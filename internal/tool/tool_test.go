package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type echoParams struct {
	Text  string `json:"text" jsonschema:"what to echo"`
	Times int    `json:"times,omitempty"`
}

func echoTool() Tool {
	return New(Def[echoParams]{
		Info: Info{Name: "echo", Description: "echo text", ReadOnly: true},
		Run: func(_ context.Context, _ Call, p echoParams) (Result, error) {
			n := max(p.Times, 1)
			return Text(strings.Repeat(p.Text, n)), nil
		},
		Paths: func(p echoParams) []string { return []string{p.Text} },
	})
}

func TestTypedToolDecodesAndValidates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		want      string
		wantError bool
	}{
		{"valid", `{"text":"ab","times":2}`, "abab", false},
		{"optional omitted", `{"text":"x"}`, "x", false},
		{"invalid json", `{"text":`, "not valid JSON", true},
		{"missing required", `{}`, "text", true},
		{"wrong type", `{"text":3}`, "text", true},
		{"empty args", ``, "text", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Invoke(context.Background(), echoTool(), Call{ID: "1", Args: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatalf("Invoke returned infrastructure error %v", err)
			}
			if res.IsError != tt.wantError {
				t.Fatalf("IsError = %v, want %v (output %q)", res.IsError, tt.wantError, res.Output)
			}
			if !strings.Contains(res.Output, tt.want) {
				t.Fatalf("output %q does not contain %q", res.Output, tt.want)
			}
		})
	}
}

func TestTypedToolSchemaListsRequiredFields(t *testing.T) {
	t.Parallel()
	var schema struct {
		Type       string                     `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(echoTool().Info().Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || len(schema.Required) != 1 || schema.Required[0] != "text" {
		t.Fatalf("schema = %+v, want object requiring only text", schema)
	}
	if !strings.Contains(string(schema.Properties["text"]), "what to echo") {
		t.Fatalf("text property lost its description: %s", schema.Properties["text"])
	}
}

func TestPathsDecodeArguments(t *testing.T) {
	t.Parallel()
	p := echoTool().(Pather)
	if got := p.Paths(json.RawMessage(`{"text":"a.go"}`)); len(got) != 1 || got[0] != "a.go" {
		t.Fatalf("Paths = %v", got)
	}
	if got := p.Paths(json.RawMessage(`{`)); got != nil {
		t.Fatalf("Paths on bad JSON = %v, want nil", got)
	}
}

type panicky struct{}

func (panicky) Info() Info { return Info{Name: "boom"} }
func (panicky) Run(context.Context, Call) (Result, error) {
	panic("kaboom")
}

type failing struct{}

func (failing) Info() Info { return Info{Name: "fail"} }
func (failing) Run(context.Context, Call) (Result, error) {
	return Result{}, errors.New("disk on fire")
}

func TestInvokeRecoversPanicsAndReportsErrors(t *testing.T) {
	t.Parallel()
	res, err := Invoke(context.Background(), panicky{}, Call{})
	if err == nil || !res.IsError || !strings.Contains(res.Output, "kaboom") {
		t.Fatalf("panic: res=%+v err=%v", res, err)
	}
	res, err = Invoke(context.Background(), failing{}, Call{})
	if err == nil || !res.IsError || !strings.Contains(res.Output, "disk on fire") {
		t.Fatalf("failure: res=%+v err=%v", res, err)
	}
}

func TestCap(t *testing.T) {
	t.Parallel()
	if s, cut := Cap("short", 10); cut || s != "short" {
		t.Fatalf("Cap short = %q, %v", s, cut)
	}
	long := strings.Repeat("é", 1000) // 2000 bytes
	s, cut := Cap(long, 100)
	if !cut || !strings.Contains(s, "bytes truncated") {
		t.Fatalf("Cap long = %q, %v", s, cut)
	}
	if !strings.HasPrefix(s, "é") || !strings.HasSuffix(s, "é") {
		t.Fatalf("Cap lost head or tail: %q", s)
	}
	if strings.ContainsRune(s, '\uFFFD') || !json.Valid([]byte(`"`+strings.ReplaceAll(s, "\n", `\n`)+`"`)) {
		t.Fatalf("Cap split a UTF-8 sequence: %q", s)
	}
	if len(s) > 200 {
		t.Fatalf("Cap kept %d bytes for a cap of 100", len(s))
	}
}

func TestNamePatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"bash", "bash", true},
		{"bash", "BASH", true},
		{"bash", "bash2", false},
		{"web_*", "web_fetch", true},
		{"web_*", "read", false},
		{"re:(read|grep)", "grep", true},
		{"re:(read|grep)", "grep2", false},
	}
	for _, tt := range tests {
		p, err := ParseNamePattern(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(tt.name); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
	if _, err := ParseNamePattern("re:("); err == nil || !strings.Contains(err.Error(), `"re:("`) {
		t.Fatalf("bad regexp error = %v, want one naming the pattern", err)
	}
}

func TestRegistryOrderAndFilter(t *testing.T) {
	t.Parallel()
	r, err := NewRegistry(failing{}, panicky{}, echoTool())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range r.All() {
		names = append(names, tl.Info().Name)
	}
	if strings.Join(names, ",") != "boom,echo,fail" {
		t.Fatalf("order = %v", names)
	}
	ro := r.Filter(func(i Info) bool { return i.ReadOnly })
	if len(ro.All()) != 1 {
		t.Fatalf("filter kept %d tools", len(ro.All()))
	}
	if err := r.Add(echoTool()); err == nil {
		t.Fatal("duplicate tool accepted")
	}
}

type preparing struct {
	failing
	prepared *int
}

func (p preparing) Info() Info { return Info{Name: "prep"} }
func (p preparing) Prepare()   { *p.prepared++ }

func TestRegistryPrepare(t *testing.T) {
	t.Parallel()
	n := 0
	r, err := NewRegistry(preparing{prepared: &n}, panicky{})
	if err != nil {
		t.Fatal(err)
	}
	r.Prepare()
	if n != 1 {
		t.Fatalf("Prepare called %d times", n)
	}
	// A typed tool still validates after being prepared.
	e := echoTool()
	e.(interface{ Prepare() }).Prepare()
	if res, _ := Invoke(context.Background(), e, Call{Args: json.RawMessage(`{}`)}); !res.IsError {
		t.Fatalf("prepared tool accepted missing arguments: %+v", res)
	}
}
