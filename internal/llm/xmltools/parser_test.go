package xmltools

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

type parseCase struct {
	name      string
	in        string
	wantText  string
	wantCalls []Call
	opts      []Option
}

var parseCases = []parseCase{
	{
		name:     "plain text",
		in:       "Hello, world. No tags here.",
		wantText: "Hello, world. No tags here.",
	},
	{
		name: "wrapped call with typed values",
		in: "<tool_call>\n<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n" +
			"<parameter=limit>\n40\n</parameter>\n<parameter=opts>\n{\"a\": [1, 2]}\n</parameter>\n</function>\n</tool_call>",
		wantCalls: []Call{{Name: "read_file", Arguments: `{"path":"main.go","limit":40,"opts":{"a":[1,2]}}`}},
	},
	{
		name:      "text around a call",
		in:        "Let me look.\n<tool_call><function=ls><parameter=dir>.</parameter></function></tool_call>\nDone.",
		wantText:  "Let me look.\n\nDone.",
		wantCalls: []Call{{Name: "ls", Arguments: `{"dir":"."}`}},
	},
	{
		name:      "bare function block",
		in:        "ok <function=bash><parameter=command>go test ./...</parameter></function> after",
		wantText:  "ok  after",
		wantCalls: []Call{{Name: "bash", Arguments: `{"command":"go test ./..."}`}},
	},
	{
		name:      "orphan closing wrapper after a bare block",
		in:        "<function=bash><parameter=command>ls</parameter></function>\n</tool_call>tail",
		wantText:  "tail",
		wantCalls: []Call{{Name: "bash", Arguments: `{"command":"ls"}`}},
	},
	{
		name:      "whitespace after a bare block without orphan is kept",
		in:        "<function=bash><parameter=command>ls</parameter></function>\nnext",
		wantText:  "\nnext",
		wantCalls: []Call{{Name: "bash", Arguments: `{"command":"ls"}`}},
	},
	{
		name: "two calls in a row",
		in: "<tool_call><function=a><parameter=x>1</parameter></function></tool_call>\n" +
			"<tool_call><function=b><parameter=y>two</parameter></function></tool_call>",
		wantText:  "\n",
		wantCalls: []Call{{Name: "a", Arguments: `{"x":1}`}, {Name: "b", Arguments: `{"y":"two"}`}},
	},
	{
		name:      "two functions in one wrapper",
		in:        "<tool_call><function=a></function><function=b><parameter=k>true</parameter></function></tool_call>",
		wantCalls: []Call{{Name: "a", Arguments: `{}`}, {Name: "b", Arguments: `{"k":true}`}},
	},
	{
		name:     "angle brackets in prose",
		in:       "if a < b && c <= d then <tools> <functional> <tool_calls> </tool> <",
		wantText: "if a < b && c <= d then <tools> <functional> <tool_calls> </tool> <",
	},
	{
		name:     "orphan closing tag without a bare block stays text",
		in:       "say </tool_call> here",
		wantText: "say </tool_call> here",
	},
	{
		name:     "wrapper without a function stays text",
		in:       "the <tool_call>tag</tool_call> is used by Qwen",
		wantText: "the <tool_call>tag</tool_call> is used by Qwen",
	},
	{
		name:     "function with an impossible name stays text",
		in:       "write <function=foo bar>x</function> like this",
		wantText: "write <function=foo bar>x</function> like this",
	},
	{
		name:      "hermes JSON inside the wrapper",
		in:        "<tool_call>\n{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}\n</tool_call>",
		wantCalls: []Call{{Name: "grep", Arguments: `{"pattern":"TODO"}`}},
	},
	{
		name:      "hermes JSON with string arguments",
		in:        `<tool_call>{"name": "grep", "arguments": "{\"pattern\": \"x\"}"}</tool_call>`,
		wantCalls: []Call{{Name: "grep", Arguments: `{"pattern":"x"}`}},
	},
	{
		name:      "missing closing parameter tags",
		in:        "<tool_call><function=edit><parameter=path>a.go<parameter=old>x</function></tool_call>",
		wantCalls: []Call{{Name: "edit", Arguments: `{"path":"a.go","old":"x"}`}},
	},
	{
		name:      "missing closing function tag in a finished wrapper",
		in:        "<tool_call><function=ls><parameter=dir>src</parameter></tool_call>",
		wantCalls: []Call{{Name: "ls", Arguments: `{"dir":"src"}`}},
	},
	{
		name:      "repeated key keeps the last value",
		in:        "<function=f><parameter=k>1</parameter><parameter=k>2</parameter></function>",
		wantCalls: []Call{{Name: "f", Arguments: `{"k":2}`}},
	},
	{
		name:      "quoted JSON string and code with inner newlines",
		in:        "<function=write><parameter=name>\"x y\"</parameter><parameter=body>\n\nfunc f() {\n\treturn\n}\n\n</parameter></function>",
		wantCalls: []Call{{Name: "write", Arguments: `{"name":"x y","body":"\nfunc f() {\n\treturn\n}\n"}`}},
	},
	{
		name:      "schema string parameters stay strings",
		in:        "<function=write><parameter=path>42</parameter><parameter=content>{\"a\":1}</parameter><parameter=n>7</parameter></function>",
		opts:      []Option{WithStringParams(func(tool, p string) bool { return tool == "write" && p != "n" })},
		wantCalls: []Call{{Name: "write", Arguments: `{"path":"42","content":"{\"a\":1}","n":7}`}},
	},
	{
		name:      "truncated call keeps the name and finished parameters",
		in:        "Reading.<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n<parameter=limit>\n4",
		wantText:  "Reading.",
		wantCalls: []Call{{Name: "read_file", Arguments: `{"path":"a.go"}`}},
	},
	{
		name:      "truncated bare call with a parameter closed by the next one",
		in:        "<function=f><parameter=a>1<parameter=b>2",
		wantCalls: []Call{{Name: "f", Arguments: `{"a":1}`}},
	},
	{
		name:     "truncated call without a name is released as text",
		in:       "before <tool_call>\n<function=rea",
		wantText: "before <tool_call>\n<function=rea",
	},
	{
		name:     "held tag prefix at the end is released",
		in:       "end <tool_ca",
		wantText: "end <tool_ca",
	},
	{
		name:      "held orphan prefix at the end is released",
		in:        "<function=f></function>\n</tool",
		wantText:  "\n</tool",
		wantCalls: []Call{{Name: "f", Arguments: `{}`}},
	},
}

// run feeds the chunks then flushes, and returns everything the parser produced.
func run(opts []Option, chunks []string) (string, []Call) {
	p := NewParser(opts...)
	var text strings.Builder
	var calls []Call
	for _, c := range chunks {
		t, cs := p.Feed(c)
		text.WriteString(t)
		calls = append(calls, cs...)
	}
	t, cs := p.Flush()
	text.WriteString(t)
	return text.String(), append(calls, cs...)
}

func TestParserWhole(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			text, calls := run(tc.opts, []string{tc.in})
			if text != tc.wantText {
				t.Errorf("text = %q, want %q", text, tc.wantText)
			}
			if !reflect.DeepEqual(calls, tc.wantCalls) {
				t.Errorf("calls = %#v, want %#v", calls, tc.wantCalls)
			}
		})
	}
}

// TestParserSplitAnywhere is the property the streaming use rests on: cutting the
// input anywhere, into any number of pieces, never changes the result.
func TestParserSplitAnywhere(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			check := func(how string, chunks []string) {
				t.Helper()
				text, calls := run(tc.opts, chunks)
				if text != tc.wantText || !reflect.DeepEqual(calls, tc.wantCalls) {
					t.Fatalf("%s %q: got text %q calls %v; want %q %v", how, chunks, text, calls, tc.wantText, tc.wantCalls)
				}
			}
			for i := 0; i <= len(tc.in); i++ {
				check("split at one point", []string{tc.in[:i], tc.in[i:]})
			}
			check("byte by byte", strings.Split(tc.in, ""))
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.in))))
			for range 200 {
				check("random split", randomSplit(rng, tc.in))
			}
		})
	}
}

func randomSplit(rng *rand.Rand, s string) []string {
	var chunks []string
	for len(s) > 0 {
		n := 1 + rng.IntN(min(len(s), 8))
		chunks = append(chunks, s[:n])
		s = s[n:]
	}
	return chunks
}

// TestParserHoldsOnlyPossibleTags checks the latency promise: text comes out as
// soon as it cannot be a tag, not at the end of the stream.
func TestParserHoldsOnlyPossibleTags(t *testing.T) {
	t.Parallel()
	steps := []struct {
		feed, wantText string
		wantCalls      int
	}{
		{"Hello <", "Hello ", 0},
		{"tool", "", 0},
		{"s and ", "<tools and ", 0},
		{"<func", "", 0},
		{"tion=ls>", "", 0},
		{"</function>", "", 1},
		{"\n", "", 0},
		{" x", "\n x", 0},
		{"a<b", "a<b", 0},
	}
	p := NewParser()
	for i, s := range steps {
		text, calls := p.Feed(s.feed)
		if text != s.wantText || len(calls) != s.wantCalls {
			t.Fatalf("step %d Feed(%q) = %q, %d calls; want %q, %d", i, s.feed, text, len(calls), s.wantText, s.wantCalls)
		}
	}
	if text, calls := p.Flush(); text != "" || calls != nil {
		t.Fatalf("Flush() = %q, %v; want nothing", text, calls)
	}
}

// TestParserReusableAfterFlush makes sure Flush leaves a clean parser behind.
func TestParserReusableAfterFlush(t *testing.T) {
	t.Parallel()
	var p Parser
	p.Feed("<tool_call><function=a>")
	if _, calls := p.Flush(); len(calls) != 1 {
		t.Fatalf("truncated call not recovered: %v", calls)
	}
	text, calls := p.Feed("plain")
	if text != "plain" || calls != nil {
		t.Fatalf("after Flush, Feed(plain) = %q, %v", text, calls)
	}
}
